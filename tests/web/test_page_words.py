"""The move list in the board's numbering, dice fairness in plain words, and the pages that
show them (real server on loopback)."""

from __future__ import annotations

import random

from nardy_pi.state import MoveRecord
from nardy_pi.web.dice_fairness import LifetimeRolls, fairness, rolls_of_moves
from nardy_pi.web.move_text import move_rows, physical_move
from tests.web.helpers import Site


def test_black_moves_use_the_numbers_drawn_on_the_board() -> None:
    # Backgammon: black's own point p is physical 25 - p; white's numbering is physical.
    assert physical_move("24/18 13/11", "black", "backgammon")["en"] == "1/7 12/14"
    assert physical_move("24/18 13/11", "white", "backgammon")["en"] == "24/18 13/11"
    both = physical_move("bar/22* 6/off(2)", "black", "backgammon")
    assert both == {"en": "bar/3* 19/off(2)", "ru": "бар/3* 19/выброс(2)"}
    assert physical_move("24/18*/13", "black", "backgammon")["en"] == "1/7*/12"
    # Long nardy: black's head (own 24) is physical 12, own 18 is physical 6.
    assert physical_move("24/18", "black", "long")["en"] == "12/6"


def test_cube_and_empty_records_in_both_languages() -> None:
    assert physical_move("(no move)", "white", "backgammon") == {"en": "no move",
                                                                  "ru": "нет хода"}
    assert physical_move("Doubles => 4", "black", "backgammon")["ru"] == "удвоил до 4"
    assert physical_move("Takes", "white", "backgammon")["ru"] == "принял"
    # Unknown text is passed on, never dropped or mangled.
    assert physical_move("25/99", "white", "backgammon") == {"en": "25/99", "ru": "25/99"}
    rows = move_rows((MoveRecord(1, "black", (6, 5), "24/18 18/13"),), "backgammon")
    assert rows == [{"number": 1, "side": "black", "dice": [6, 5], "en": "1/7 7/12",
                     "ru": "1/7 7/12"}]


def test_fairness_verdicts() -> None:
    assert fairness([])["verdict"] == "fair_none"
    assert fairness([(1, 2)] * 10)["verdict"] == "fair_too_few"
    rng = random.Random(3)
    fair = fairness([(rng.randint(1, 6), rng.randint(1, 6)) for _ in range(600)])
    assert fair["verdict"] == "fair_ok" and fair["rolls"] == 600
    assert sum(fair["faces"]) == 1200 and fair["faces_expected"] == 200.0
    loaded = fairness([(6, 6)] * 40 + [(1, 2)] * 40)
    assert loaded["verdict"] == "fair_bad"
    assert loaded["doubles"] == [0, 0, 0, 0, 0, 40] and loaded["doubles_total"] == 40


def test_the_scoreboard_uses_the_engines_match_counts() -> None:
    from nardy_pi.web.dice_fairness import match_summary

    assert match_summary({}) is None
    summary = match_summary({"all": {"rolls": 80, "faces_p": 0.2, "doubles_p": 0.0001}})
    assert summary == {"rolls": 80, "p": 0.0001, "verdict": "fair_bad", "min_rolls": 30,
                       "scope": "match"}


def test_rolls_of_moves_skip_cube_actions() -> None:
    moves = (MoveRecord(1, "white", (3, 1), "8/5 6/5"), MoveRecord(2, "black", (), "Doubles => 2"),
             MoveRecord(3, "black", (4, 4, 4, 4), "24/20(2)"))
    assert rolls_of_moves(moves) == [(3, 1), (4, 4)]


def test_lifetime_rolls_without_a_log(tmp_path) -> None:
    assert LifetimeRolls(None).rolls() is None
    assert LifetimeRolls(tmp_path / "missing.sqlite").rolls() is None


def test_lifetime_rolls_from_a_match_log(tmp_path) -> None:
    from nardy_pi.game import events as ge
    from nardy_pi.game.match import Match
    from nardy_pi.rules.sides import Side
    from nardy_pi.store.eventlog import EventStore

    path = tmp_path / "matches.sqlite"
    match = Match.new("backgammon", 3, "A", "B")
    with EventStore(path) as store:
        match_id = store.create_match(match.events[0])
        store.append(match_id, ge.OpeningRoll(5, 2))
    assert LifetimeRolls(path).rolls() == []
    with EventStore(path) as store:
        store.append(match_id, ge.Roll(Side.BLACK, (6, 6)))
        second = store.create_match(match.events[0])
        store.append(second, ge.OpeningRoll(3, 1))
        store.append(second, ge.Roll(Side.BLACK, (2, 1)))
    reader = LifetimeRolls(path)
    assert reader.rolls() == [(6, 6), (2, 1)]
    assert reader.newest_match() == [(2, 1)]


def test_dice_page_and_board_preview(site: Site) -> None:
    site.match.roll((6, 6))
    page = site.get("/dice?lang=ru")
    assert page.status == 200
    text = page.body.decode()
    assert "Честные ли зары?" in text and "Устройство не ведёт журнал матчей" in text
    board = site.state()["board"]
    svg = site.get(f"/board.svg?board={board}&off_white=0&off_black=0")
    assert svg.status == 200 and svg.headers["content-type"].startswith("image/svg+xml")
    assert b'data-point="bar-white"' in svg.body and b'data-point="off-black"' in svg.body
    assert site.get("/board.svg?board=nonsense").status == 400
    assert site.get(f"/board.svg?board={board}&off_white=99").status == 400


def test_a_forced_play_is_shown_in_the_board_numbering() -> None:
    from dataclasses import replace

    from nardy_pi.state import State
    from nardy_pi.web.payload import build_payload

    state = State(variant="backgammon", board="-" * 26, points=(0,) * 24, turn="black",
                  phase="move", dice=(6, 5))
    assert build_payload(state)["forced_play"] is None
    forced = build_payload(replace(state, forced_play="24/18 18/13"))["forced_play"]
    assert forced == {"en": "1/7 7/12", "ru": "1/7 7/12"}
