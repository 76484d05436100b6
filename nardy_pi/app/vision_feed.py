"""The loop's side of an `Observer`: frames in, Observations out (their beliefs pooled over the
last few frames, vision/pooled_belief.py), and confirmed positions back, so a learned reader
keeps learning the board it watches (vision/board/confirmed.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from nardy_pi.vision.pooled_belief import PooledBelief
from nardy_pi.vision.types import Observation

if TYPE_CHECKING:
    from nardy_pi.vision.observe import Observer


class ObserverFeed:
    """Callable as the loop's observe function; `confirm` passes on what the referee and
    the match engine agreed the last frame showed, unless `learns` is off ([camera] learn)."""

    def __init__(self, observer: Observer, learns: bool = True) -> None:
        self.observer = observer
        self.learns = learns
        self.pool = PooledBelief()

    def __call__(self, frame: np.ndarray) -> Observation:
        return self.pool(self.observer.observe(frame).observation)

    def confirm(self, points: Sequence[int], bar: tuple[int, int]) -> bool:
        return self.learns and self.observer.confirm(points, bar)
