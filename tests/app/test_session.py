"""Referee events and cube buttons through the real match engine (nardy_pi.game): the
engine owns the match, undo takes back one event at a time and says which."""

from __future__ import annotations

import pytest

from nardy_pi import commands as cmd
from nardy_pi.app.loop import RefereeLoop
from nardy_pi.app.outputs import CallbackOutput, Fanout
from nardy_pi.app.session import MatchSession
from nardy_pi.config import Config
from nardy_pi.errors import CommandRefused
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


def loop_with(snapshots: list[State], variant: str = "backgammon") -> RefereeLoop:
    config = Config()
    session = MatchSession.start(config)
    return RefereeLoop(
        Referee(variant, RefereeSettings(move_settle_seconds=0)),
        source=None,  # type: ignore[arg-type]  # frames are fed by hand here
        observe=None,  # type: ignore[arg-type]
        fanout=Fanout([CallbackOutput("web", snapshots.append)]),
        session=session,
    )


def opening_six_five(loop: RefereeLoop, now: list[float]) -> Position:
    start = Position.start("backgammon")
    feed(loop, obs(start), now)
    feed(loop, obs(start, (die(6, "right"), die(5, "left"))), now)
    moved = list(start.points)
    moved[23] -= 1
    moved[12] += 1
    after = Position(tuple(moved))
    feed(loop, obs(after, (die(6, "right"), die(5, "left"))), now)
    feed(loop, obs(after), now)  # dice picked up: 24/13 recorded by referee and engine
    return after


def test_a_double_taken_turns_the_cube_and_undo_steps_back_one_event_at_a_time() -> None:
    snapshots: list[State] = []
    loop = loop_with(snapshots)
    now = [0.0]
    after = opening_six_five(loop, now)
    assert snapshots[-1].turn == "black" and snapshots[-1].moves[-1].text == "24/13"

    loop.handle_command(cmd.CubeAction("double"))  # black doubles before rolling
    assert snapshots[-1].phase == "cube_offered" and snapshots[-1].cube_offered
    with pytest.raises(CommandRefused) as refused:
        loop.handle_command(cmd.CubeAction("double"))  # not while an offer is pending
    assert refused.value.key == "refusal.nothing_to_double"
    loop.handle_command(cmd.CubeAction("take"))
    last = snapshots[-1]
    assert (last.cube_value, last.cube_owner, last.phase) == (2, "white", "rolling")
    feed(loop, obs(after, (die(3, "left"), die(1, "left"))), now)  # black rolls 3-1
    assert snapshots[-1].phase == "moving" and snapshots[-1].dice == (3, 1)

    # One undo takes back the roll only; the take, the double and the play follow, in turn.
    said = []
    for _ in range(4):
        loop.handle_command(cmd.Undo())
        said.append(next(a.params["kind"] for a in snapshots[-1].alerts if a.code == "undone"))
        if said[-1] == "roll":
            assert snapshots[-1].cube_value == 2 and snapshots[-1].phase == "rolling"
        if said[-1] == "take":
            assert snapshots[-1].phase == "cube_offered" and snapshots[-1].cube_value == 1
    assert said == ["roll", "take", "double", "play"]
    game = loop.session.state.game
    assert game.turn is not None and game.turn.label == "white" and game.dice == (6, 5)
    assert snapshots[-1].moves == ()
    assert loop.referee.phase.value == "moving"  # the referee follows: white plays 6-5 again


def test_undo_reaches_back_past_a_correction() -> None:
    snapshots: list[State] = []
    loop = loop_with(snapshots)
    now = [0.0]
    after = opening_six_five(loop, now)
    points = list(after.points)
    points[11] += 1  # someone knocks a black checker from 12 to 11
    points[10] -= 1
    board = "".join(_field(points))
    loop.handle_command(cmd.CorrectPosition(board, "black"))
    assert snapshots[-1].board == board
    loop.handle_command(cmd.Undo())
    assert snapshots[-1].alerts[-1].params["kind"] == "correction"
    assert snapshots[-1].points == after.points  # the board before the correction
    loop.handle_command(cmd.Undo())
    assert snapshots[-1].alerts[-1].params["kind"] == "play"
    assert snapshots[-1].points == Position.start("backgammon").points


def _field(points: list[int]) -> str:
    from nardy_pi.rules.notation.board_field import format_board_field

    return format_board_field(points, 0, 0)


def test_cube_buttons_without_an_offer_are_refused_with_a_reason() -> None:
    session = MatchSession.start(Config())
    with pytest.raises(CommandRefused, match="take") as refused:
        session.cube("take")
    assert refused.value.key == "refusal.nothing_to_take"
