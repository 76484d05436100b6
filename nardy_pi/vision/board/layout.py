"""Where the 24 points and the two bar halves lie on the playing surface, in surface-normalised
coordinates: (u, v) in [0, 1]^2, u from the top-left corner to the top-right one, v from the
top edge to the bottom edge (board-frame.md §1).

The bar span is measured per board (real bars are 0.5-1.5 points wide), so the point pitch
differs between the two halves only if the bar is off-centre.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

SLOTS = 26  # physical points 1..24, then the bar's lower half, then its upper half
BAR_LOWER, BAR_UPPER = 24, 25  # either colour may lie in either half
STRIP_W, STRIP_H = 32, 128  # model input, pixels: across x along (base at row 0)
STRIP_WIDTH_SHARE = 1.2  # a strip is this many point pitches wide: rims at the sides show
STRIP_REACH_V = 0.5  # strips run from the base to the middle of the surface
#: how far (in v, about half a checker) outside the surface edge the first look's points'
#: strips start (SurfaceLayout.base_margin_v; each strip model names the margin it was trained
#: at): a checker at the base may cross the edge (a tall checker seen at a tilt, corners placed
#: a little inside), and a strip cut at the edge showed only part of it. Real photos held out
#: by board, analyze's pair: 91.4% -> 91.6% per slot, images exact 73 -> 81 of 151
FIRST_LOOK_MARGIN_V = 0.04


def strip_rows(near: float, far: float, margin: float = 0.0) -> tuple[int, int]:
    """The rows of a point's strip that lie `near` to `far` (in v) from the surface edge at
    its base, the strip starting `margin` outside that edge."""
    length = margin + STRIP_REACH_V
    return (round((margin + near) / length * STRIP_H), round((margin + far) / length * STRIP_H))


@dataclass(frozen=True, slots=True)
class SurfaceLayout:
    """The bar span, in u, and how far the painted points reach, in v; and how far outside
    the surface edge the points' strips start (`base_margin_v`, the reading model's own)."""

    bar_u0: float = 6.0 / 13.0
    bar_u1: float = 7.0 / 13.0
    point_length_v: float = 4.5 / 11.0
    base_margin_v: float = 0.0

    def __post_init__(self) -> None:
        if not 0.3 < self.bar_u0 < self.bar_u1 < 0.7:
            raise ValueError(f"bar span {self.bar_u0:.3f}..{self.bar_u1:.3f} is not a bar")

    @property
    def bar_points(self) -> float:
        """Bar width in point pitches (1.0 on the old renderer's boards)."""
        return (self.bar_u1 - self.bar_u0) / self.pitch

    @property
    def pitch(self) -> float:
        return (self.bar_u0 + 1.0 - self.bar_u1) / 12.0

    def point_u(self, point: int) -> tuple[float, float]:
        """u range of physical point 1..24."""
        if not 1 <= point <= 24:
            raise ValueError(f"no physical point {point}")
        left, right = self.bar_u0 / 6.0, (1.0 - self.bar_u1) / 6.0
        if point <= 6:
            return 1.0 - point * right, 1.0 - (point - 1) * right
        if point <= 12:
            return self.bar_u0 - (point - 6) * left, self.bar_u0 - (point - 7) * left
        if point <= 18:
            return (point - 13) * left, (point - 12) * left
        return self.bar_u1 + (point - 19) * right, self.bar_u1 + (point - 18) * right

    def slot_span(self, slot: int) -> tuple[float, float, float, float]:
        """(u_centre, half_width, v_base, v_far) of a slot's strip (a point's base lies
        `base_margin_v` outside the surface edge)."""
        if slot < 24:
            u0, u1 = self.point_u(slot + 1)
            half = (u1 - u0) * STRIP_WIDTH_SHARE / 2
            base = -self.base_margin_v if slot >= 12 else 1.0 + self.base_margin_v
            far = STRIP_REACH_V
        else:
            u0, u1 = self.bar_u0, self.bar_u1
            half = max(u1 - u0, self.pitch) * STRIP_WIDTH_SHARE / 2
            base = 0.5
            far = 1.0 if slot == BAR_LOWER else 0.0
        return (u0 + u1) / 2, half, base, far

    def slot_quad(self, slot: int) -> np.ndarray:
        """4 x 2 (u, v): base-left, base-right, far-right, far-left of a slot's strip."""
        uc, half, base, far = self.slot_span(slot)
        return np.array([[uc - half, base], [uc + half, base], [uc + half, far],
                         [uc - half, far]], np.float64)

    def slot_at(self, u: float, v: float) -> tuple[int, float] | None:
        """The slot whose column holds surface point (u, v), and the distance from its base
        along the strip (in v), or None off the surface."""
        if not (0.0 <= u <= 1.0 and 0.0 <= v <= 1.0):
            return None
        if self.bar_u0 <= u <= self.bar_u1:
            slot = BAR_LOWER if v >= 0.5 else BAR_UPPER
            return slot, abs(v - 0.5)
        for point in range(1, 25):
            u0, u1 = self.point_u(point)
            if u0 <= u <= u1:
                top = point >= 13
                if top != (v < 0.5):
                    continue
                return point - 1, v if top else 1.0 - v
        return None

    def to_json(self) -> dict:
        return {"bar_u": [self.bar_u0, self.bar_u1], "point_length_v": self.point_length_v}


def checker_length_v(corners, layout: SurfaceLayout) -> float:
    """About how far (in v) one checker reaches along its point: a checker is about a point
    pitch across, and the surface's shape in the image (its edges' mean lengths) turns u into
    v. Measured per frame, so a square case and a long one are both right."""
    c = np.asarray(corners, np.float64).reshape(4, 2)
    width = (np.linalg.norm(c[1] - c[0]) + np.linalg.norm(c[2] - c[3])) / 2.0
    height = (np.linalg.norm(c[3] - c[0]) + np.linalg.norm(c[2] - c[1])) / 2.0
    return layout.pitch * float(width) / max(float(height), 1e-9)
