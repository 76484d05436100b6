"""The doubling cube: where it lies says who owns it, its face says its value.

A centred cube (on the bar, near the middle) is not owned and is worth 1 whatever it shows
(it shows 64 by custom: board-frame.md reports value 1). A cube in the top or bottom half, or
on the frame beyond it, belongs to the player on that side; anywhere else it is `off`.
`find_cube` is the classical finder used with the plain-table dice reader: a bright square at
one of three spots, its value from matching the printed number. With the learned board finder
(dice_board.py) the cube is found and read by the same nets as the dice (`cube_from_seen`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np

from nardy_pi.vision import geometry as g
from nardy_pi.vision.components import components_with_stats
from nardy_pi.vision.types import CubePlace, CubeReading

SPOTS = {"center": (6.5, 5.5), "top": (6.5, -0.42), "bottom": (6.5, 11.42)}
CUBE_VALUES = (2, 4, 8, 16, 32, 64)
_PATCH_SCALE = 48.0  # pixels per board unit in the local warp
_HALF = 0.6  # half-size of the searched window, board units
_SIDE_RANGE = (0.42, 1.05)  # a cube seen from above, with a side face and perspective
_GLYPH = (16, 24)  # normalised size of the printed number
_CENTRE_HALF_WIDTH = 0.9  # board units either side of the bar's middle line: still centred
_CENTRE_HALF_HEIGHT = 2.5  # and above or below the middle
_BESIDE = 1.6  # board units beyond the surface (frame, trays) still count as that side


@dataclass(frozen=True, slots=True)
class CubeFound:
    reading: CubeReading
    box: tuple[float, float, float, float]  # image pixels


def _patch(image: np.ndarray, h_board: np.ndarray, spot: tuple[float, float]) -> np.ndarray:
    s = _PATCH_SCALE
    size = int(2 * _HALF * s)
    to_board = np.array([[1 / s, 0, spot[0] - _HALF], [0, 1 / s, spot[1] - _HALF], [0, 0, 1]])
    m = h_board @ to_board
    return cv2.warpPerspective(image, m, (size, size),
                               flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP)


def _glyph(mask: np.ndarray) -> np.ndarray | None:
    ys, xs = np.nonzero(mask)
    if len(xs) < 6:
        return None
    crop = mask[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1].astype(np.float32)
    return cv2.resize(crop, _GLYPH, interpolation=cv2.INTER_AREA)


@cache
def _templates() -> dict[int, tuple[np.ndarray, float]]:
    """Each value as printed (Hershey simplex), normalised, with its width/height ratio."""
    out = {}
    for value in CUBE_VALUES:
        canvas = np.zeros((80, 120), np.uint8)
        cv2.putText(canvas, str(value), (10, 60), cv2.FONT_HERSHEY_SIMPLEX, 1.6, 255, 4,
                    cv2.LINE_AA)
        ys, xs = np.nonzero(canvas > 127)
        aspect = (xs.max() - xs.min() + 1) / (ys.max() - ys.min() + 1)
        out[value] = (_glyph(canvas > 127), float(aspect))
    return out


def read_value(face_grey: np.ndarray) -> int:
    """The printed number on a cube face (grey crop of the face)."""
    ink = face_grey < min(120, int(face_grey.mean() * 0.6))
    glyph = _glyph(ink)
    if glyph is None:
        return 64
    ys, xs = np.nonzero(ink)
    aspect = (xs.max() - xs.min() + 1) / (ys.max() - ys.min() + 1)
    best, best_score = 64, -np.inf
    for value, (tpl, tpl_aspect) in _templates().items():
        score = -float(np.abs(glyph - tpl).mean()) - 0.5 * abs(np.log(aspect / tpl_aspect))
        if score > best_score:
            best, best_score = value, score
    return best


def find_cube(image: np.ndarray, h_board: np.ndarray) -> CubeFound | None:
    """The cube at one of its three places, or None (a cube off the board is not sought)."""
    for place, spot in SPOTS.items():
        patch = _patch(image, h_board, spot)
        grey = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY)
        bright = (grey > max(150, int(np.percentile(grey, 50)) + 60)).astype(np.uint8)
        bright = cv2.morphologyEx(bright, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
        count, _labels, stats, centroids = components_with_stats(bright)
        for k in range(1, count):
            x, y, w, h, area = stats[k]
            side_w, side_h = w / _PATCH_SCALE, h / _PATCH_SCALE
            centre_off = np.hypot(*(centroids[k] / _PATCH_SCALE - _HALF))
            if not (_SIDE_RANGE[0] <= side_w <= _SIDE_RANGE[1]
                    and _SIDE_RANGE[0] <= side_h <= _SIDE_RANGE[1]):
                continue
            if area < 0.7 * w * h or centre_off > 0.35:
                continue
            m = int(0.1 * min(w, h))
            face = grey[y + m : y + h - m, x + m : x + w - m]
            value = read_value(face) if place != "center" else 1
            corners = np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], float)
            board = corners / _PATCH_SCALE + np.array(spot) - _HALF
            img_pts = g.apply_homography(h_board, board)
            box = (float(img_pts[:, 0].min()), float(img_pts[:, 1].min()),
                   float(img_pts[:, 0].max()), float(img_pts[:, 1].max()))
            return CubeFound(CubeReading(value=value, position=place), box)  # type: ignore[arg-type]
    return None


def cube_place(x: float, y: float) -> CubePlace:
    """Where a cube at board spot (x, y) lies: centre, top or bottom (owned), or off."""
    if abs(x - 6.5) <= _CENTRE_HALF_WIDTH and abs(y - g.MID_Y) <= _CENTRE_HALF_HEIGHT:
        return "center"
    right = g.TRAY_X1 + 0.3
    if -_BESIDE <= x <= right and -_BESIDE <= y <= g.SURFACE_HEIGHT + _BESIDE:
        return "top" if y < g.MID_Y else "bottom"
    return "off"


def cube_value(face: int, place: CubePlace) -> int:
    """The cube's value: a centred cube is worth 1 (its 64 face means 1)."""
    return 1 if place == "center" else face


def cube_from_seen(seen, h_inv: np.ndarray) -> CubeFound | None:
    """A dice_board.CubeSeen placed on the board (h_inv: image -> board)."""
    if seen is None:
        return None
    bx, by = g.apply_homography(h_inv, np.array([seen.center]))[0]
    place = cube_place(float(bx), float(by))
    return CubeFound(CubeReading(value=cube_value(seen.face, place), position=place), seen.box)
