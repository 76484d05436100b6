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
    in_image: bool = True  # its top face's centre lies inside the picture
    occluded: bool = False  # its top face's centre lies under an occluder


@dataclass(frozen=True, slots=True)
class CheckerTruth:
    point: int  # physical point 1..24; 0 = on the bar, 25 = borne off (in a tray)
    white: bool
    center: Point2  # image px, centre of its top face (its rim's top, when on edge)
    radius_px: float  # rough radius of its top face in the image
    height: float  # its top's height above the surface, in checker thicknesses


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
    checkers: tuple[CheckerTruth, ...] = ()  # every checker drawn (off ones only in trays)

    def analyze_json(self) -> dict:
        """The truth in `nardy-pi analyze --json` form (board-frame.md §3), for benchmarks.

        A cocked die's value is null (its top face is not to be read); `off` is null when
        the board has no tray to show borne-off checkers; `roll` is judged by the project's
        own rules of the verdict (nardy_pi.vision.roll)."""
        from nardy_pi.vision.roll import judge_roll
        from nardy_pi.vision.types import DieOnBoard

        dice = [DieOnBoard(value=d.value if d.flat else None, center=d.center, flat=d.flat,
                           on_board=not d.off_board, half=d.half, on_checker=d.on_checker)
                for d in self.dice]
        verdict = judge_roll(dice)
        trays = self.trays != "none"
        return {
            "points": list(self.points),
            "bar": {"white": self.bar_white, "black": self.bar_black},
            "off": {"white": self.off_white if trays else None,
                    "black": self.off_black if trays else None},
            "dice": [{"value": d.value, "center": list(d.center), "flat": d.flat,
                      "on_board": d.on_board, "half": d.half, "on_checker": d.on_checker}
                     for d in dice],
            "cube": None if self.cube is None else {"value": self.cube.value,
                                                    "position": self.cube.position},
            "roll": {"valid": verdict.valid, "reasons": list(verdict.reasons)},
            "occluded": self.occluded,
        }


@dataclass(frozen=True, slots=True)
class RandomRender:
    image: np.ndarray  # BGR uint8
    truth: RenderTruth
