"""An abandoned game settled by the evaluation engine (a panel action): the side the
engine's equity favours wins, at the level the equity rounds to; without an engine, or for
long nardy, a clear refusal."""

from __future__ import annotations

import pytest

from nardy_pi import commands as cmd
from nardy_pi.app.loop import RefereeLoop
from nardy_pi.app.outputs import CallbackOutput, Fanout
from nardy_pi.app.session import MatchSession
from nardy_pi.config import Config
from nardy_pi.errors import CommandRefused
from nardy_pi.evaluation import EngineChoice, find_evaluator
from nardy_pi.referee import Referee
from nardy_pi.rules.notation.board_field import format_board_field
from nardy_pi.state import State


def loop_for(variant: str, snapshots: list[State]) -> RefereeLoop:
    loop = RefereeLoop(Referee(variant), None, None,  # type: ignore[arg-type]
                       Fanout([CallbackOutput("web", snapshots.append)]),
                       MatchSession.start(Config()))
    loop.handle_command(cmd.NewMatch(variant, 7))
    return loop


def race_all_but_won() -> cmd.CorrectPosition:
    """White has two checkers left on his 1 point; black has borne off nothing."""
    points = [0] * 24
    points[0] = 2
    points[23] = -15
    return cmd.CorrectPosition(format_board_field(points, 0, 0), "white", off_white=13)


@pytest.mark.parametrize("engine", ["gnubg", "gnubg-nn"])
def test_the_engine_settles_a_won_gammon(engine: EngineChoice) -> None:
    snapshots: list[State] = []
    loop = loop_for("backgammon", snapshots)
    loop.evaluator = find_evaluator(engine)
    assert loop.evaluator is not None, f"{engine} is a test dependency"
    loop.handle_command(race_all_but_won())
    loop.handle_command(cmd.SettleGame())
    last = snapshots[-1]
    assert last.last_result is not None
    assert (last.last_result.winner, last.last_result.points) == ("white", 2)  # a gammon
    assert (last.white.score, last.black.score) == (2, 0)
    assert last.engine == engine


def test_without_an_engine_settling_is_refused_with_the_reason() -> None:
    loop = loop_for("backgammon", [])
    loop.evaluator = None
    loop.handle_command(race_all_but_won())
    with pytest.raises(CommandRefused) as refused:
        loop.handle_command(cmd.SettleGame())
    assert refused.value.key == "refusal.no_engine" and "gnubg" in str(refused.value)
    assert loop.session.state.score == (0, 0)


def test_long_nardy_cannot_be_settled_by_a_backgammon_engine() -> None:
    loop = loop_for("long", [])
    loop.evaluator = find_evaluator("gnubg")
    loop.handle_command(cmd.CorrectPosition("------------o-----------O-", "white"))
    with pytest.raises(CommandRefused) as refused:
        loop.handle_command(cmd.SettleGame())
    assert refused.value.key == "refusal.settle_variant"
