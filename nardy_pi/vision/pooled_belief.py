"""The reader's per-slot beliefs pooled over the last few frames of one board.

A camera's frames of a board at rest differ a little (light, noise), and a stack the reader is
unsure of reads one way in one frame and another way in the next. The referee decodes each
frame's probabilities against the boards the game allows (referee/decode.py); a belief
averaged over a few frames of the same board is steadier, so fewer legal moves look illegal.
Frames of another board should not be mixed in: the pool starts afresh when a frame is
occluded (a hand over the board: checkers may move under it) or carries no probabilities, and
it holds the last `frames` frames only, so a board that changes with no hand seen is followed
a frame or two later. It does not start afresh on a changed reading: on boards the reader never
saw, frames of one board at rest read differently on several slots as the light changes, and
those are the frames worth pooling (bench/bench_decode.py's notes: starting afresh when 2, 3 or
6 slots changed kept little of the gain).
"""

from __future__ import annotations

from collections import deque
from dataclasses import replace

import numpy as np

from nardy_pi.vision.types import Observation

POOLED_FRAMES = 3


class PooledBelief:
    """Callable on each Observation in camera order; returns it with `point_probs` averaged
    over the last `frames` frames since the last occluded one."""

    def __init__(self, frames: int = POOLED_FRAMES) -> None:
        if frames < 1:
            raise ValueError("a pool needs at least one frame")
        self._probs: deque[np.ndarray] = deque(maxlen=frames)

    def __call__(self, obs: Observation) -> Observation:
        if obs.occluded or obs.point_probs is None:
            self.reset()
            return obs
        self._probs.append(np.asarray(obs.point_probs, np.float64))
        if len(self._probs) == 1:
            return obs
        mean = np.mean(self._probs, axis=0)
        return replace(obs, point_probs=tuple(map(tuple, mean.tolist())))

    def reset(self) -> None:
        self._probs.clear()

    def __len__(self) -> int:
        """Frames in the pool now."""
        return len(self._probs)
