"""The per-move timer on an injected clock (no sleeping) and the 90-second loss rule."""

from __future__ import annotations

import pytest

from nardy_pi.game.engine import side_to_act
from nardy_pi.game.events import OpeningRoll, Timeout
from nardy_pi.game.match import Match
from nardy_pi.game.timers import MoveTimer
from nardy_pi.rules.sides import Side


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_timer_counts_pauses_and_resets_per_move() -> None:
    clock = FakeClock()
    timer = MoveTimer(90, clock)
    assert not timer.expired() and timer.reading().side is None
    timer.start(Side.WHITE)
    clock.now += 60
    assert timer.reading().remaining == pytest.approx(30)
    timer.pause()
    clock.now += 500  # paused time does not count
    assert timer.reading().paused and not timer.expired()
    timer.resume()
    clock.now += 29.5
    assert not timer.expired()
    clock.now += 0.5
    assert timer.expired() and timer.reading().remaining == 0
    timer.start(Side.BLACK)  # a new move: full time again
    assert timer.reading().remaining == pytest.approx(90) and not timer.expired()
    timer.stop()
    clock.now += 1000
    assert not timer.expired()


def test_timer_rejects_a_non_positive_limit() -> None:
    with pytest.raises(ValueError):
        MoveTimer(0)


def test_ninety_second_rule_ends_the_game_when_the_timer_runs_out() -> None:
    clock = FakeClock()
    m = Match.new("long", 0, settings={"move_seconds": 90, "timeout_loses": True})
    m.apply(OpeningRoll(2, 5))
    timer = MoveTimer(m.state.settings.move_seconds or 0, clock)
    side = side_to_act(m.state.game)
    assert side is Side.BLACK
    timer.start(side)
    clock.now += 89.9
    assert not timer.expired()
    clock.now += 0.2
    assert timer.expired()
    m.apply(Timeout(side))
    r = m.state.results[-1]
    assert (r.winner, r.result) == (Side.WHITE, "timeout")
