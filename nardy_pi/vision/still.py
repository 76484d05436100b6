"""Has a still camera's frame changed since the one last looked at closely?

Between throws nothing on the board moves, yet the dice finder, half of an observation's cost,
would search every frame again. A frame whose block means (BLOCK x BLOCK pixels, per colour
channel) all lie within TOLERANCE grey levels of the frame last searched keeps that search's
answer. The comparison is with the frame searched, never the previous frame, so a slow drift
(light, auto-exposure) adds up and is searched again; and after REFRESH frames kept, the next
one is searched whatever it shows.

`settled` says whether the frame just looked at belongs to the scene last searched: kept, or
searched only because REFRESH frames were kept. A settled scene can afford a finer look once
(observe.py: the dice's fine check net, which a moving scene's frames have no time for).
"""

from __future__ import annotations

import cv2
import numpy as np

BLOCK = 8  # pixels per block side at any frame size
#: a die's pips move a block's mean by tens of grey levels even on a light point (3 px pips,
#: 100 levels darker); camera noise (sd 2-4 and JPEG) by about one or two
TOLERANCE = 6.0
REFRESH = 8


def block_means(image: np.ndarray) -> np.ndarray:
    h, w = image.shape[:2]
    size = (max(1, w // BLOCK), max(1, h // BLOCK))
    return cv2.resize(image, size, interpolation=cv2.INTER_AREA).astype(np.float32)


class StillFrames:
    """`changed(frame)`: must this frame be searched (and become the reference)?"""

    def __init__(self, tolerance: float = TOLERANCE, refresh: int = REFRESH) -> None:
        self.tolerance = tolerance
        self.refresh = refresh
        self._reference: np.ndarray | None = None
        self._kept = 0  # frames kept since the reference was searched
        self.settled = False  # the last frame looked at showed the reference's scene

    def changed(self, image: np.ndarray) -> bool:
        small = block_means(image)
        ref = self._reference
        self.settled = (ref is not None and ref.shape == small.shape
                        and float(np.abs(small - ref).max()) <= self.tolerance)
        if not self.settled or self._kept >= self.refresh:
            self._reference = small
            self._kept = 0
            return True
        self._kept += 1
        return False
