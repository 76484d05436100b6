"""Where things are on one board, in board units (one point width = 1), origin at the
playing surface's top-left corner, x right, y down (board-frame.md §1)."""

from __future__ import annotations

from dataclasses import dataclass

from nardy_pi.vision.render.randomised.style import Style


@dataclass(frozen=True, slots=True)
class BoardLayout:
    width: float  # playing surface
    height: float
    margin: float  # surface beyond the outermost points
    bar_x0: float
    bar_x1: float
    point_length: float
    checker: float  # diameter
    thickness: float  # checker thickness
    frame: float  # frame width around the surface
    frame_height: float
    tray_left: float  # tray width on each side (0 = none), outside the surface and frame
    tray_right: float

    @staticmethod
    def of(style: Style) -> BoardLayout:
        w, h = style.surface_width, style.surface_height
        x0 = style.outer_margin + 6.0
        d = style.checker_diameter
        tray = max(1.15, d + 0.25)
        return BoardLayout(
            width=w, height=h, margin=style.outer_margin, bar_x0=x0, bar_x1=x0 + style.bar_width,
            point_length=style.point_length * h, checker=d, thickness=d * style.checker_thickness,
            frame=style.frame_width, frame_height=style.frame_height,
            tray_left=tray if style.trays in ("left", "both") else 0.0,
            tray_right=tray if style.trays in ("right", "both") else 0.0,
        )

    def point_x(self, point: int) -> tuple[float, float]:
        """x range of physical point 1..24."""
        if not 1 <= point <= 24:
            raise ValueError(f"no physical point {point}")
        right0 = self.bar_x1
        if point <= 6:
            x0 = right0 + 6 - point
        elif point <= 12:
            x0 = self.margin + 12 - point
        elif point <= 18:
            x0 = self.margin + point - 13
        else:
            x0 = right0 + point - 19
        return x0, x0 + 1.0

    @staticmethod
    def top_row(point: int) -> bool:
        return point >= 13

    def point_base(self, point: int) -> tuple[float, float, float]:
        """Base centre (x, y) and the direction (+1 down, -1 up) toward the tip."""
        x0, x1 = self.point_x(point)
        if self.top_row(point):
            return (x0 + x1) / 2, 0.0, 1.0
        return (x0 + x1) / 2, self.height, -1.0

    @property
    def table_z(self) -> float:
        """Height of the table the board box stands on (the box is 0.6 deep under the
        surface)."""
        return -0.6

    @property
    def bar_centre(self) -> float:
        return (self.bar_x0 + self.bar_x1) / 2

    def half_of(self, x: float) -> str:
        return "left" if x < self.bar_centre else "right"

    def tray_rect(self, side: str) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1) of the left or right tray (inside its own frame strip)."""
        if side == "left":
            x1 = -self.frame
            return x1 - self.tray_left, 0.0, x1, self.height
        x0 = self.width + self.frame
        return x0, 0.0, x0 + self.tray_right, self.height

    def extent(self) -> tuple[float, float, float, float]:
        """The whole board box, frame and trays included."""
        left = -self.frame - (self.tray_left + self.frame if self.tray_left else 0.0)
        right = self.width + self.frame + (self.tray_right + self.frame if self.tray_right else 0.0)
        return left, -self.frame, right, self.height + self.frame
