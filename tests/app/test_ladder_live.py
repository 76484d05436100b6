"""The live game on a ladder of doubles too big to list (crazy long nardy, 1-1 from a spread
position, 236,858 plays): the referee sees the throw, the engine takes it without listing
the plays, the referee follows the engine's record (plays: None) and the played board is
booked by both; an illegal board raises the referee's alarm and leaves the record alone."""

from __future__ import annotations

from nardy_pi.app.loop import RefereeLoop
from nardy_pi.app.outputs import CallbackOutput, Fanout
from nardy_pi.game.state import Phase
from nardy_pi.referee import Referee, RefereeSettings
from nardy_pi.rules.notation.xgid import parse_position
from nardy_pi.rules.position import Position
from nardy_pi.rules.variants import get_variant
from nardy_pi.state import State
from tests.app.test_session import feed, obs
from tests.referee.table import die
from tests.rules.long.test_ladder_bounds import SPREAD, _random_ladder_play

V = get_variant("crazy-long")


def _loop_at_spread() -> tuple[RefereeLoop, Position, list[float]]:
    snapshots: list[State] = []
    loop = RefereeLoop(
        Referee("crazy-long", RefereeSettings(move_settle_seconds=0)),
        source=None,  # type: ignore[arg-type]  # frames are fed by hand here
        observe=None,  # type: ignore[arg-type]
        fanout=Fanout([CallbackOutput("web", snapshots.append)]),
    )
    position, _ = parse_position(SPREAD, V)
    loop.session.correct(position, None)  # the record, then the referee follows it
    loop._sync()
    now = [0.0]
    feed(loop, obs(position), now)
    feed(loop, obs(position, (die(1), die(1))), now)  # the throw: 1-1, twelve movements
    return loop, position, now


def test_a_huge_ladder_throw_and_its_play_are_booked_live() -> None:
    loop, position, now = _loop_at_spread()
    game = loop.session.state.game
    assert game.phase is Phase.MOVE and game.dice == (1, 1) and game.plays is None
    after = _random_ladder_play(position, (1, 1))
    feed(loop, obs(after, (die(1), die(1))), now)
    feed(loop, obs(after), now)  # dice picked up: the move is over
    game = loop.session.state.game
    assert game.phase is Phase.ROLL and game.turn is position.turn.opponent
    assert game.position.points == after.points
    assert loop.session.moves[-1].dice == (1, 1) and "/" in loop.session.moves[-1].text
    assert loop.session.last_points  # the play itself was found again for the board marks
    assert loop.referee.phase is Phase.ROLL and loop.referee.position.points == after.points


def test_an_illegal_board_on_a_huge_ladder_is_flagged_and_not_booked() -> None:
    loop, position, now = _loop_at_spread()
    own, opp = position.view(V)
    own[23] -= 1
    own[22] += 1  # one pip of twelve movements
    short = Position.from_view(V, position.turn, own, opp)
    feed(loop, obs(short, (die(1), die(1))), now)
    feed(loop, obs(short), now)
    game = loop.session.state.game
    assert game.phase is Phase.MOVE and game.position.points == position.points
    assert loop.referee.alarm is not None
