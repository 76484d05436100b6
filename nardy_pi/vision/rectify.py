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


def _shrunk_size(image_size: tuple[int, int], m: np.ndarray,
                 scale: float) -> tuple[tuple[int, int], np.ndarray] | None:
    """A big frame is shrunk (area-averaged) close to the raster's scale before its in-frame
    mask is warped: the frame's size there and the raster -> shrunk frame map, or None when
    the frame is small enough already. Only the size is needed: the mask is all ones."""
    centre = m @ np.array([(RASTER_X1 - RASTER_X0) * scale / 2,
                           (RASTER_Y1 - RASTER_Y0) * scale / 2, 1.0])
    step = m @ np.array([(RASTER_X1 - RASTER_X0) * scale / 2 + 1,
                         (RASTER_Y1 - RASTER_Y0) * scale / 2, 1.0])
    image_px_per_raster_px = float(np.linalg.norm(step[:2] / step[2] - centre[:2] / centre[2]))
    factor = 1.25 / image_px_per_raster_px
    if factor > 0.8:
        return None
    width, height = image_size
    # cv2.resize(fx=, fy=) rounds the output size this way.
    small = (max(1, round(width * factor)), max(1, round(height * factor)))
    sx, sy = small[0] / width, small[1] / height
    return small, np.diag([sx, sy, 1.0]) @ m


def in_frame_mask(image_size: tuple[int, int], board_to_image: np.ndarray,
                  scale: float = DEFAULT_SCALE) -> np.ndarray:
    """bool raster mask: raster pixels inside a camera frame of `image_size` (width, height).
    It depends on the frame's size and the homography only, so callers compute it once."""
    size = (round((RASTER_X1 - RASTER_X0) * scale),
            round((RASTER_Y1 - RASTER_Y0) * scale))
    m = board_to_image @ raster_to_board(scale)
    shrunk = _shrunk_size(image_size, m, scale)
    if shrunk is not None:
        image_size, m = shrunk
    ones = np.full((image_size[1], image_size[0]), 255, np.uint8)
    flags = cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP
    return cv2.warpPerspective(ones, m, size, flags=flags) > 0


def rectify(image: np.ndarray, board_to_image: np.ndarray, scale: float = DEFAULT_SCALE,
            valid: np.ndarray | None = None) -> Raster:
    """`valid`: the in-frame mask from an earlier call with the same size and homography
    (`in_frame_mask`); without it the mask is computed here."""
    size = (round((RASTER_X1 - RASTER_X0) * scale),
            round((RASTER_Y1 - RASTER_Y0) * scale))
    m = board_to_image @ raster_to_board(scale)  # raster pixel -> image pixel
    flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
    out = cv2.warpPerspective(image, m, size, flags=flags, borderMode=cv2.BORDER_CONSTANT)
    if valid is None:
        valid = in_frame_mask((image.shape[1], image.shape[0]), board_to_image, scale)
    return Raster(out, valid, scale)
