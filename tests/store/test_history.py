"""The history page's finished matches come from the SQLite log, with their .mat text."""

from __future__ import annotations

from pathlib import Path

import pytest

from nardy_pi.game import events as ge
from nardy_pi.game.match import Match
from nardy_pi.records.mat_text import parse_mat
from nardy_pi.rules.movegen import legal_plays
from nardy_pi.rules.position import Position
from nardy_pi.rules.sides import Side
from nardy_pi.store.eventlog import EventStore
from nardy_pi.store.history import StoreHistory


def store_match(store: EventStore, finish: bool) -> int:
    """A one-point match: white opens 3-1 with 8/5 6/5, black doubles and white passes."""
    match = Match.new("backgammon", 1, "Anna", "Boris")
    match_id = store.create_match(match.events[0])
    play = next(p for p in legal_plays(Position.start(), (3, 1), "backgammon")
                if p.notation == "8/5 6/5")
    events: list[ge.GameEvent] = [ge.OpeningRoll(3, 1), ge.Move.of(Side.WHITE, play)]
    if finish:
        events += [ge.Double(Side.BLACK), ge.Pass(Side.WHITE)]
    for event in events:
        match.apply(event)
        store.append(match_id, event)
    return match_id


def test_only_finished_matches_are_listed_and_exported(tmp_path: Path) -> None:
    path = tmp_path / "matches.sqlite"
    with EventStore(path) as store:
        done = store_match(store, finish=True)
        running = store_match(store, finish=False)
    history = StoreHistory(path)
    listed = history.finished_matches()
    assert [m.match_id for m in listed] == [str(done)]
    summary = listed[0]
    assert (summary.white_name, summary.black_name) == ("Anna", "Boris")
    assert (summary.white_score, summary.black_score, summary.match_length) == (0, 1, 1)
    text = history.mat_text(str(done))
    parsed = parse_mat(text)
    assert parsed.match_length == 1
    with pytest.raises(KeyError):
        history.mat_text(str(running))
    with pytest.raises(KeyError):
        history.mat_text("999")


def test_no_log_file_means_no_history(tmp_path: Path) -> None:
    history = StoreHistory(tmp_path / "absent.sqlite")
    assert history.finished_matches() == []
    assert not (tmp_path / "absent.sqlite").exists()
