"""The live loop's view of the board: observe each frame, flag motion between frames, and
report a position only once it has held still (stability.py) for N frames.

Motion catches what colour alone cannot: a hand in a colour the board also has, a checker
being slid. A frame that moved counts as occluded: it never yields a position.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from nardy_pi.vision.observe import Observer
from nardy_pi.vision.stability import DEFAULT_FRAMES, StabilityFilter
from nardy_pi.vision.types import Observation

MOTION_LEVEL = 30  # grey levels a pixel must change by (noise and JPEG stay well below)
MOTION_AREA = 0.5  # board units² of changed pixels, about half a checker's disk


@dataclass(frozen=True, slots=True)
class Watched:
    observation: Observation  # this frame (occluded when it moved)
    moving: bool
    stable: Observation | None  # the position, once it has held for N frames


class BoardWatcher:
    def __init__(self, observer: Observer, frames: int = DEFAULT_FRAMES) -> None:
        self.observer = observer
        self.stability = StabilityFilter(frames)
        self._previous: np.ndarray | None = None

    def _moved(self, grey: np.ndarray, scale: float) -> bool:
        previous, self._previous = self._previous, grey
        if previous is None or previous.shape != grey.shape:
            return False
        changed = (cv2.absdiff(grey, previous) > MOTION_LEVEL).astype(np.uint8)
        changed = cv2.morphologyEx(changed, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        return bool(changed.sum() >= MOTION_AREA * scale * scale)

    def feed(self, image: np.ndarray) -> Watched:
        seen = self.observer.observe(image)
        grey = cv2.cvtColor(seen.raster.image, cv2.COLOR_BGR2GRAY)
        grey = cv2.GaussianBlur(grey, (5, 5), 0)
        moving = self._moved(grey, seen.raster.scale)
        obs = seen.observation
        if moving and not obs.occluded:
            obs = replace(obs, occluded=True)
        return Watched(obs, moving, self.stability.feed(obs))
