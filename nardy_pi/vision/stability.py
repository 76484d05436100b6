"""A position is reported only after N consistent, unoccluded frames in a row."""

from __future__ import annotations

from nardy_pi.vision.types import Observation

DEFAULT_FRAMES = 3


def _key(obs: Observation) -> tuple:
    dice = tuple(sorted(
        ((d.value, d.flat, d.on_board, d.half, d.on_checker) for d in obs.dice), key=repr))
    return (obs.points, obs.bar_white, obs.bar_black, obs.off_white, obs.off_black, dice,
            obs.cube)


class StabilityFilter:
    """Feed every observation; `feed` returns the observation once it has held for
    `frames` frames running, and None otherwise. An occluded frame breaks the run."""

    def __init__(self, frames: int = DEFAULT_FRAMES) -> None:
        if frames < 1:
            raise ValueError("stability needs at least 1 frame")
        self.frames = frames
        self._last: tuple | None = None
        self._run = 0

    def feed(self, obs: Observation) -> Observation | None:
        if obs.occluded:
            self._last, self._run = None, 0
            return None
        key = _key(obs)
        if key == self._last:
            self._run += 1
        else:
            self._last, self._run = key, 1
        return obs if self._run >= self.frames else None

    @property
    def run(self) -> int:
        return self._run
