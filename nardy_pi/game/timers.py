"""A per-move timer with pause, on an injected clock (DIGEST §2.1.11, §2.3.9).

The timer never sleeps and never acts: callers ask `expired()` and, when the match's
`timeout_loses` rule is on, feed a `Timeout` event to the engine. Tests pass a fake clock.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from nardy_pi.rules.sides import Side

Clock = Callable[[], float]


@dataclass(frozen=True, slots=True)
class TimerReading:
    side: Side | None
    limit: float
    used: float
    paused: bool

    @property
    def remaining(self) -> float:
        return max(0.0, self.limit - self.used)

    @property
    def expired(self) -> bool:
        return self.side is not None and self.used >= self.limit


class MoveTimer:
    """Time used by the side to act on the current move; resets on every `start`."""

    def __init__(self, limit_seconds: float, clock: Clock = time.monotonic) -> None:
        if limit_seconds <= 0:
            raise ValueError("a move time limit must be positive")
        self.limit = float(limit_seconds)
        self._clock = clock
        self._side: Side | None = None
        self._used = 0.0
        self._since: float | None = None  # running since this clock time; None = paused

    def start(self, side: Side) -> None:
        """A new move for `side`: the full time again, running."""
        self._side = side
        self._used = 0.0
        self._since = self._clock()

    def stop(self) -> None:
        """No move pending (game over, between games)."""
        self._side = None
        self._used = 0.0
        self._since = None

    def pause(self) -> None:
        if self._since is not None:
            self._used += self._clock() - self._since
            self._since = None

    def resume(self) -> None:
        if self._since is None and self._side is not None:
            self._since = self._clock()

    def reading(self) -> TimerReading:
        used = self._used
        if self._since is not None:
            used += self._clock() - self._since
        return TimerReading(self._side, self.limit, used, self._since is None)

    def expired(self) -> bool:
        return self.reading().expired
