"""A hand-edited or damaged match log: every stored field is checked when read (a message
naming the match, the event and the field, never a TypeError later), settings of the wrong
type are refused, and the history page leaves a damaged match out but lists the others."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from nardy_pi.app.session import MatchSession
from nardy_pi.app.wiring import _match_session
from nardy_pi.config import Config, StoreConfig
from nardy_pi.game.events import MatchStarted, OpeningRoll, event_from_json
from nardy_pi.store.eventlog import EventStore, StoreError
from nardy_pi.store.history import StoreHistory
from tests.store.test_history import store_match


@pytest.mark.parametrize(
    ("payload", "named"),
    [
        ('{"kind":"move","side":"white","points":"abc","bar":[0,0],"off":[0,0]}', "'points'"),
        ('{"kind":"move","side":"white","points":[1],"bar":[true,0],"off":[0,0]}', "'bar'"),
        ('{"kind":"roll","side":"white","dice":[6.5,1]}', "'dice'"),
        ('{"kind":"opening_roll","white_die":"6","black_die":1}', "'white_die'"),
        ('{"kind":"match_started","white":"Eve\\r\\nGame 2"}', "printable"),
        ('{"kind":"match_started","settings":"fast"}', "'settings'"),
        ('{"kind":"move","side":"white","points":[],"bar":[0,0],"off":[0,0],"play":7}', "'play'"),
    ],
)
def test_a_stored_field_of_the_wrong_shape_is_named(payload: str, named: str) -> None:
    with pytest.raises(ValueError, match=named):
        event_from_json(payload)


def test_settings_of_the_wrong_type_are_refused_by_name() -> None:
    from nardy_pi.game.settings import MatchSettings

    for bad, field in [({"cube_limit": "x"}, "cube_limit"), ({"cube": 1}, "cube"),
                       ({"stake": float("nan")}, "stake"), ({"rules": "fast"}, "rules"),
                       ({"rules": {"ladder_moves_per_double": True}}, "ladder_moves_per_double")]:
        with pytest.raises(ValueError, match=field):
            MatchSettings.from_dict(bad)


def _tamper(path: Path, match_id: int, seq: int, payload: str) -> None:
    with sqlite3.connect(path) as db:
        db.execute("UPDATE events SET payload = ? WHERE match_id = ? AND seq = ?",
                   (payload, match_id, seq))


def test_resuming_a_tampered_log_says_which_event_and_field(tmp_path: Path) -> None:
    path = tmp_path / "matches.sqlite"
    with EventStore(path) as store:
        match_id = store.create_match(MatchStarted("backgammon", 0))
        store.append(match_id, OpeningRoll(6, 5))
    _tamper(path, match_id, 2, '{"kind":"opening_roll","white_die":[6],"black_die":5}')
    config = replace(Config(), store=StoreConfig(path=str(path)))
    with pytest.raises(StoreError, match=r"match 1, event 2 .*'white_die'"):
        MatchSession.start(config)
    start = json.dumps({"kind": "match_started", "variant": "backgammon", "match_length": 0,
                        "settings": {"cube_limit": "x"}})
    _tamper(path, match_id, 1, start)
    _tamper(path, match_id, 2, '{"kind":"opening_roll","white_die":6,"black_die":5}')
    with pytest.raises(ValueError, match=r"does not replay: .*cube_limit"):
        _match_session(config, True)


def test_the_history_leaves_a_damaged_match_out_and_lists_the_others(tmp_path: Path) -> None:
    path = tmp_path / "matches.sqlite"
    with EventStore(path) as store:
        good = store_match(store, finish=True)
        bad = store_match(store, finish=True)
    _tamper(path, bad, 3, '{"kind":"teleport"}')
    history = StoreHistory(path)
    assert [m.match_id for m in history.finished_matches()] == [str(good)]
    with pytest.raises(KeyError):
        history.mat_text(str(bad))
