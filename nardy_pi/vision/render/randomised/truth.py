"""Ground truth that comes with every randomised render."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

Point2 = tuple[float, float]
Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in image pixels


@dataclass(frozen=True, slots=True)
class DieTruth:
    value: int  # the face pointing up (for a cocked die: the face most nearly up)
    center: Point2  # image px, centre of the top face
    box: Box  # the whole visible die body
    flat: bool  # False = cocked / tilted
    on_checker: bool
    off_board: bool  # outside the playing surface (frame, tray, table)
    half: str | None  # "left" / "right" of the bar, None when off the board
    case: str  # how it was placed (dice_scene.DICE_CASES)
    tilt_deg: float = 0.0  # how far the up face leans from level
    top_face: tuple[Point2, ...] = ()  # image corners of the up face


@dataclass(frozen=True, slots=True)
class CubeTruth:
    value: int  # 2..64, or 1 for a centred cube showing 64
    face: int  # the number printed on the top face
    position: str  # "center", "top", "bottom", "off"
    center: Point2
    box: Box
    top_face: tuple[Point2, ...] = ()  # image corners of the up face


@dataclass(frozen=True, slots=True)
class RenderTruth:
    corners: tuple[Point2, Point2, Point2, Point2]  # TL, TR, BR, BL of the playing surface
    points: tuple[int, ...]  # 24 signed counts, + white (light), - black (dark)
    bar_white: int
    bar_black: int
    off_white: int
    off_black: int
    # Geometry in surface-normalised (u, v) coordinates, u left->right, v top->bottom.
    bar_u: tuple[float, float]
    point_u: tuple[tuple[float, float], ...]  # 24 (u0, u1), physical point i+1 at index i
    point_length_v: float  # tip length as a share of the surface height
    checker_diameter_u: float  # checker diameter as a share of the surface width
    visible: tuple[bool, ...]  # 24: False when mostly outside the image or hidden
    visible_fraction: tuple[float, ...]  # 24: share of the point's area that can be seen
    occluder_mask: np.ndarray | None  # bool image, True where an occluder covers the image
    dice: tuple[DieTruth, ...]
    cube: CubeTruth | None
    style_name: str
    split: str
    trays: str  # "none", "left", "right", "both"
    tilt_deg: float
    roll_deg: float
    surface_aspect: float  # width / height of the playing surface
    occluded: bool = False  # an occluder covers part of the playing surface


@dataclass(frozen=True, slots=True)
class RandomRender:
    image: np.ndarray  # BGR uint8
    truth: RenderTruth
