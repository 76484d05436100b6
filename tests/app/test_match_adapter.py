"""Referee events and cube buttons through the real match engine (nardy_pi.game)."""

from __future__ import annotations

import pytest

from nardy_pi.app.loop import CommandRefused, RefereeLoop
from nardy_pi.app.match_adapter import EngineMatch
from nardy_pi.app.outputs import CallbackOutput, Fanout
from nardy_pi.config import Config
from nardy_pi.referee import Referee, RefereeSettings
from nardy_pi.rules.position import Position
from nardy_pi.state import State
from nardy_pi.vision.types import DieOnBoard, Observation


def obs(p: Position, dice: tuple[DieOnBoard, ...] = ()) -> Observation:
    return Observation(p.points, p.bar[0], p.bar[1], p.off[0], p.off[1], dice)


def die(value: int, half: str) -> DieOnBoard:
    return DieOnBoard(value, (0.0, 0.0), True, True, half, False)  # type: ignore[arg-type]


def feed(loop: RefereeLoop, o: Observation, now: list[float]) -> None:
    for _ in range(2):
        now[0] += 0.2
        loop.handle_events(loop.referee.observe(o, now[0]))


def test_a_double_taken_turns_the_cube_and_undo_rewinds_the_engine() -> None:
    snapshots: list[State] = []
    loop = RefereeLoop(
        Referee("backgammon", RefereeSettings(move_settle_seconds=0)),
        source=None,  # type: ignore[arg-type]  # frames are fed by hand here
        observe=None,  # type: ignore[arg-type]
        fanout=Fanout([CallbackOutput("web", snapshots.append)]),
        match=EngineMatch.start(Config()),
    )
    now = [0.0]
    start = Position.start("backgammon")
    feed(loop, obs(start), now)
    feed(loop, obs(start, (die(6, "right"), die(5, "left"))), now)
    moved = list(start.points)
    moved[23] -= 1
    moved[12] += 1
    after = Position(tuple(moved))
    feed(loop, obs(after, (die(6, "right"), die(5, "left"))), now)
    feed(loop, obs(after), now)  # dice picked up: 24/13 recorded by referee and engine
    assert snapshots[-1].turn == "black" and snapshots[-1].moves[-1].text == "24/13"

    loop.handle_command("double")  # black doubles before rolling
    assert snapshots[-1].phase == "cube_offered" and snapshots[-1].cube_offered
    with pytest.raises(CommandRefused):
        loop.handle_command("double")  # not while an offer is pending
    loop.handle_command("take")
    last = snapshots[-1]
    assert (last.cube_value, last.cube_owner, last.phase) == (2, "white", "rolling")

    loop.handle_command("undo")  # the engine forgets 24/13 and the cube turned after it
    engine = loop.match.match.state.game  # type: ignore[attr-defined]
    assert engine.turn is not None and engine.turn.label == "white"
    assert engine.cube.value == 1
    assert snapshots[-1].moves == ()


def test_cube_buttons_without_an_offer_are_refused_with_a_reason() -> None:
    match = EngineMatch.start(Config())
    with pytest.raises(CommandRefused, match="take"):
        match.cube("take", Referee("backgammon"))
