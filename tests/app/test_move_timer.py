"""The move timer from the match settings: State carries limit, remaining time and a wall
clock stamp; with `timeout_loses` the side that runs out loses the game."""

from __future__ import annotations

from nardy_pi import commands as cmd
from nardy_pi.app.loop import RefereeLoop
from nardy_pi.app.outputs import CallbackOutput, Fanout
from nardy_pi.app.session import MatchSession
from nardy_pi.config import Config
from nardy_pi.game.settings import MatchSettings
from nardy_pi.referee import Referee
from nardy_pi.state import State


def test_running_out_of_time_loses_the_game() -> None:
    now = [100.0]
    snapshots: list[State] = []
    loop = RefereeLoop(Referee("backgammon"), None, None,  # type: ignore[arg-type]
                       Fanout([CallbackOutput("web", snapshots.append)]),
                       MatchSession.start(Config()), clock=lambda: now[0])
    settings = MatchSettings(move_seconds=30.0, timeout_loses=True)
    loop.handle_command(cmd.NewMatch("backgammon", 5, settings))
    start = "-b----E-C---eE---c-e----B-"
    loop.handle_command(cmd.CorrectPosition(start, "white"))  # white to roll
    timer = snapshots[-1].timer
    assert timer is not None and (timer.limit, timer.side, timer.timeout_loses) == (30.0, "white",
                                                                                    True)
    assert timer.remaining == 30.0 and timer.at > 0
    now[0] += 12.0
    loop.check_timer()
    # Snapshots are not re-sent for the clock alone: the page counts down from `at`.
    assert loop.timer is not None and loop.timer.reading().remaining == 18.0
    assert loop.state is not None and loop.state.winner is None
    now[0] += 20.0
    loop.check_timer()
    result = loop.state.last_result
    assert result is not None and (result.winner, result.win_type) == ("black", "timeout")
    assert (loop.state.white.score, loop.state.black.score) == (0, 1)
