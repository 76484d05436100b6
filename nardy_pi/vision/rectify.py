"""The board raster: the frame warped so that board units become a fixed pixel grid.

Everything after calibration (census, occlusion, cube) works on this raster, so it never has to
think about perspective. It covers the surface plus a margin for the frame and the side tray.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

RASTER_X0, RASTER_X1 = -1.0, 15.0
RASTER_Y0, RASTER_Y1 = -1.0, 12.0
DEFAULT_SCALE = 24.0  # raster pixels per board unit


@dataclass(frozen=True, slots=True)
class Raster:
    image: np.ndarray  # BGR uint8
    valid: np.ndarray  # bool: inside the camera frame
    scale: float

    def px(self, x: float, y: float) -> tuple[float, float]:
        return (x - RASTER_X0) * self.scale, (y - RASTER_Y0) * self.scale

    def slice_x(self, x0: float, x1: float) -> slice:
        return slice(round((x0 - RASTER_X0) * self.scale),
                     round((x1 - RASTER_X0) * self.scale))

    def slice_y(self, y0: float, y1: float) -> slice:
        return slice(round((y0 - RASTER_Y0) * self.scale),
                     round((y1 - RASTER_Y0) * self.scale))


def raster_to_board(scale: float) -> np.ndarray:
    return np.array([[1 / scale, 0, RASTER_X0], [0, 1 / scale, RASTER_Y0], [0, 0, 1]], float)


def _shrink_first(image: np.ndarray, m: np.ndarray,
                  scale: float) -> tuple[np.ndarray, np.ndarray]:
    """A big frame is shrunk (area-averaged) close to the raster's scale before warping:
    warping samples points, and sampling a 1280-wide frame 3:1 aliases the thin checker rims
    the census counts."""
    centre = m @ np.array([(RASTER_X1 - RASTER_X0) * scale / 2,
                           (RASTER_Y1 - RASTER_Y0) * scale / 2, 1.0])
    step = m @ np.array([(RASTER_X1 - RASTER_X0) * scale / 2 + 1,
                         (RASTER_Y1 - RASTER_Y0) * scale / 2, 1.0])
    image_px_per_raster_px = float(np.linalg.norm(step[:2] / step[2] - centre[:2] / centre[2]))
    factor = 1.25 / image_px_per_raster_px
    if factor > 0.8:
        return image, m
    small = cv2.resize(image, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    sx, sy = small.shape[1] / image.shape[1], small.shape[0] / image.shape[0]
    return small, np.diag([sx, sy, 1.0]) @ m


def rectify(image: np.ndarray, board_to_image: np.ndarray, scale: float = DEFAULT_SCALE,
            valid: np.ndarray | None = None) -> Raster:
    """`valid`: the in-frame mask from an earlier call with the same size and homography."""
    size = (round((RASTER_X1 - RASTER_X0) * scale),
            round((RASTER_Y1 - RASTER_Y0) * scale))
    m = board_to_image @ raster_to_board(scale)  # raster pixel -> image pixel
    flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
    out = cv2.warpPerspective(image, m, size, flags=flags, borderMode=cv2.BORDER_CONSTANT)
    image, m = _shrink_first(image, m, scale)
    if valid is None:
        ones = np.full(image.shape[:2], 255, np.uint8)
        flags = cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP
        valid = cv2.warpPerspective(ones, m, size, flags=flags) > 0
    return Raster(out, valid, scale)
