"""Settled observations: the same readable board (and dice) over several frames in a row.

Frames with a hand over the board are skipped, not counted as a change: a hand passing over a
still board does not restart the count.
"""

from __future__ import annotations

from nardy_pi.vision.types import DieOnBoard, Observation

DiceKey = tuple[tuple[int | None, bool, bool, str | None, bool], ...]


def dice_key(dice: tuple[DieOnBoard, ...]) -> DiceKey:
    """What matters about the dice, without their exact pixel position (which jitters)."""
    return tuple(
        sorted(
            ((d.value, d.flat, d.on_board, d.half, d.on_checker) for d in dice),
            key=repr,
        )
    )


def content_key(obs: Observation) -> tuple[object, ...]:
    return (
        obs.points,
        obs.bar_white,
        obs.bar_black,
        obs.off_white,
        obs.off_black,
        dice_key(obs.dice),
    )


class Settler:
    def __init__(self, frames: int = 2) -> None:
        if frames < 1:
            raise ValueError("settle frames must be at least 1")
        self.frames = frames
        self._key: tuple[object, ...] | None = None
        self._count = 0
        self._reported: tuple[object, ...] | None = None

    def feed(self, obs: Observation) -> Observation | None:
        """The observation when it has just settled into something new, else None."""
        if obs.occluded:
            return None
        key = content_key(obs)
        if key == self._key:
            self._count += 1
        else:
            self._key, self._count = key, 1
        if self._count >= self.frames and key != self._reported:
            self._reported = key
            return obs
        return None

    def forget(self) -> None:
        """Report the current content again once settled (after the record changed by hand)."""
        self._reported = None
