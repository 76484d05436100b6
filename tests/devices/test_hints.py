"""Hints: every legal destination (long nardy, or no engine), the best play from each
evaluation engine (gnubg-nn and the GNU Backgammon program, backgammon family), and the
strip colours they light."""

from __future__ import annotations

import pytest

from nardy_pi.devices.hints import all_destinations, hint
from nardy_pi.devices.strip.layout import BAR_BLACK, BAR_WHITE, HINT, OFF_WHITE, strip_colors
from nardy_pi.evaluation import EngineChoice, Evaluator, engine_best_play, find_evaluator
from nardy_pi.rules.movegen import legal_plays
from nardy_pi.rules.position import Position
from nardy_pi.rules.settings import DEFAULT_SETTINGS
from nardy_pi.rules.sides import Side
from nardy_pi.state import Alert, State


def evaluator(choice: EngineChoice) -> Evaluator:
    found = find_evaluator(choice)
    assert found is not None, f"{choice} is a test dependency (pyproject [test], .ci/run)"
    assert found.name == choice
    return found


def best(engine: Evaluator, position: Position, dice: tuple[int, int], variant: str) -> str:
    plays = legal_plays(position, dice, variant)
    play = engine_best_play(engine, position, dice, variant, DEFAULT_SETTINGS, plays)
    return play.notation if play is not None else ""


@pytest.mark.parametrize("choice", ["gnubg-nn", "gnubg"])
def test_opening_best_plays_are_the_book_moves(choice: EngineChoice) -> None:
    engine = evaluator(choice)
    start = Position.start("backgammon")
    # Every opening book: 3-1 makes the 5 point, 6-5 runs a back checker ("lovers' leap").
    assert best(engine, start, (3, 1), "backgammon") == "8/5 6/5"
    assert best(engine, start, (6, 5), "backgammon") == "24/13"
    black = hint(start.with_turn(Side.BLACK), (3, 1), "backgammon", evaluator=engine)
    # Black's own 8 and 6 points are physical 17 and 19; his 5 point is physical 20.
    assert black.kind == "best" and black.sources == (17, 19) and black.destinations == (20,)


def test_long_nardy_gets_all_legal_destinations() -> None:
    start = Position.start("long")
    h = hint(start, (6, 5), "long")
    # Only one checker may leave the head (own 24 = physical 24): it goes 6 then 5 or 5 then 6.
    assert h.kind == "all" and h.sources[-1] == 24
    assert set(h.destinations) >= {13, 18}
    assert best(evaluator("gnubg-nn"), start, (6, 5), "long") == ""  # no engine knows it


def test_no_legal_move_gives_no_hint() -> None:
    pts = [0] * 24
    pts[23] = 1  # one white checker on 24, black holds 18..23 (a full prime)
    for p in range(17, 23):
        pts[p] = -2
    pos = Position(tuple(pts), (0, 0), (14, 3), Side.WHITE)
    assert all_destinations(pos, (6, 6), "backgammon").kind == "none"


def snapshot(**kw: object) -> State:
    base = dict(variant="backgammon", board="-" * 26, points=(0,) * 24, turn="white",
                phase="moving")
    base.update(kw)
    return State(**base)  # type: ignore[arg-type]


def test_strip_lights_hints_alarms_and_the_turn() -> None:
    colors = strip_colors(snapshot(), hint_points=(18, 13), hint_sources=(24,))
    assert colors[17] == HINT and colors[12] == HINT and colors[23] != HINT
    assert colors[OFF_WHITE] != (0, 0, 0)  # white to move
    alarm = Alert("illegal_move", "die_unused", "x", "y")
    lit = strip_colors(snapshot(alerts=(alarm,)))
    assert lit[BAR_WHITE] == lit[BAR_BLACK] == (255, 0, 0)
    assert len(strip_colors(snapshot(), leds=30)) == 30


def test_a_huge_ladder_lights_its_first_movement_without_listing_every_play() -> None:
    from nardy_pi.rules.notation.xgid import parse_position
    from nardy_pi.rules.variants import get_variant
    from tests.rules.long.test_ladder_bounds import SPREAD

    v = get_variant("crazy-long")
    position, _ = parse_position(SPREAD, v)
    h = hint(position, (1, 1), v)  # 236,858 plays: never listed
    assert h.kind == "first" and h.sources and h.destinations
    white = position.turn == 0
    own, opp = position.view(v)
    movable = [p for p in range(2, 25) if own[p] and not opp[p - 1]]  # one pip, nothing hit
    assert set(h.sources) == {v.own_to_physical(white, p) for p in movable}
    assert set(h.destinations) == {v.own_to_physical(white, p - 1) for p in movable}
    assert hint(position, (6, 5), v).kind == "all"
