"""The playing surface in board units, and the maps between it and image pixels.

Board units: one point is 1 wide, the bar 1 wide, so the surface is 13 x 11. Origin at
top_left, x to the right, y down (board-frame.md §1). A checker is 0.9 across, a point holds
five in a row. A tray (tournament boards) lies right of the surface, outside it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

SURFACE_WIDTH = 13.0
SURFACE_HEIGHT = 11.0
CHECKER = 0.9  # checker diameter
POINT_LENGTH = 5 * CHECKER  # a full row of five checkers, base to tip
BAR_X0, BAR_X1 = 6.0, 7.0
MID_Y = SURFACE_HEIGHT / 2
BAR_STACK_START = 1.0  # bar checkers start this far from the middle (the cube sits there)
BAR_STACK_LENGTH = MID_Y - BAR_STACK_START - 0.1
TRAY_X0, TRAY_X1 = 13.35, 14.45  # right-hand bear-off tray, off checkers stand on edge
TRAY_GAP = 0.3  # between the top (black) and bottom (white) trays
OFF_THICKNESS = 0.3  # one checker on edge, along the tray

Corners = tuple[tuple[float, float], ...]  # top_left, top_right, bottom_right, bottom_left


@dataclass(frozen=True, slots=True)
class Strip:
    """Where a stack lies: base centre, unit direction toward the tip, usable length."""

    base: tuple[float, float]
    direction: tuple[float, float]
    length: float
    width: float  # across the stack


def point_columns(point: int) -> tuple[float, float]:
    """x range of physical point 1..24."""
    if not 1 <= point <= 24:
        raise ValueError(f"no physical point {point}")
    if point <= 6:
        x0 = 13.0 - point
    elif point <= 12:
        x0 = 12.0 - point
    elif point <= 18:
        x0 = point - 13.0
    else:
        x0 = point - 12.0
    return x0, x0 + 1.0


def is_top_row(point: int) -> bool:
    return point >= 13


def point_strip(point: int) -> Strip:
    x0, x1 = point_columns(point)
    cx = (x0 + x1) / 2
    if is_top_row(point):
        return Strip((cx, 0.0), (0.0, 1.0), POINT_LENGTH, 1.0)
    return Strip((cx, SURFACE_HEIGHT), (0.0, -1.0), POINT_LENGTH, 1.0)


def point_triangle(point: int) -> np.ndarray:
    """The painted triangle, 3 x 2 board units."""
    x0, x1 = point_columns(point)
    strip = point_strip(point)
    tip_y = strip.base[1] + strip.direction[1] * (POINT_LENGTH - 0.1)
    return np.array([[x0, strip.base[1]], [x1, strip.base[1]], [(x0 + x1) / 2, tip_y]])


def bar_strip(colour: str) -> Strip:
    """White's bar checkers lie below the middle, black's above it."""
    cx = (BAR_X0 + BAR_X1) / 2
    if colour == "white":
        return Strip((cx, MID_Y + BAR_STACK_START), (0.0, 1.0), BAR_STACK_LENGTH, 1.0)
    return Strip((cx, MID_Y - BAR_STACK_START), (0.0, -1.0), BAR_STACK_LENGTH, 1.0)


def tray_strip(colour: str) -> Strip:
    """Borne-off checkers on edge: black in the top tray, white in the bottom one."""
    cx = (TRAY_X0 + TRAY_X1) / 2
    length = MID_Y - TRAY_GAP / 2 - 0.2
    if colour == "white":
        return Strip((cx, SURFACE_HEIGHT - 0.1), (0.0, -1.0), length, TRAY_X1 - TRAY_X0)
    return Strip((cx, 0.1), (0.0, 1.0), length, TRAY_X1 - TRAY_X0)


def half_of(x: float) -> str:
    return "left" if x < (BAR_X0 + BAR_X1) / 2 else "right"


def inside_surface(x: float, y: float, margin: float = 0.0) -> bool:
    return -margin <= x <= SURFACE_WIDTH + margin and -margin <= y <= SURFACE_HEIGHT + margin


def surface_corners() -> np.ndarray:
    w, h = SURFACE_WIDTH, SURFACE_HEIGHT
    return np.array([[0.0, 0.0], [w, 0.0], [w, h], [0.0, h]], dtype=np.float64)


def board_to_image_homography(corners: Corners | np.ndarray) -> np.ndarray:
    """3x3 map from board units to image pixels, given the four surface corners in the image."""
    import cv2

    dst = np.asarray(corners, dtype=np.float64).reshape(4, 2)
    if not np.isfinite(dst).all():
        raise ValueError("corners must be finite numbers")
    area = 0.5 * abs(
        float(np.dot(dst[:, 0], np.roll(dst[:, 1], 1)) - np.dot(dst[:, 1], np.roll(dst[:, 0], 1)))
    )
    if area < 100.0:
        raise ValueError("the four corners enclose almost no area; check their order and values")
    return cv2.getPerspectiveTransform(surface_corners().astype(np.float32), dst.astype(np.float32))


def apply_homography(h: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Map N x 2 points through a 3x3 homography."""
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    ones = np.ones((pts.shape[0], 1))
    mapped = np.hstack([pts, ones]) @ np.asarray(h, dtype=np.float64).T
    return mapped[:, :2] / mapped[:, 2:3]


def parse_corners(text: str) -> Corners:
    """`"x,y;x,y;x,y;x,y"` -> four (x, y) pairs, with a reason when malformed."""
    parts = [p for p in text.replace(" ", "").split(";") if p]
    if len(parts) != 4:
        raise ValueError(f"--corners needs four x,y pairs separated by ';', got {len(parts)}")
    corners = []
    for part in parts:
        xy = part.split(",")
        if len(xy) != 2:
            raise ValueError(f"--corners: {part!r} is not an x,y pair")
        try:
            corners.append((float(xy[0]), float(xy[1])))
        except ValueError:
            raise ValueError(f"--corners: {part!r} is not a pair of numbers") from None
    return tuple(corners)
