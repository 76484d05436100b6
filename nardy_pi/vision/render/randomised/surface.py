"""The flat part of the board seen from straight above: frame, field, points, bar, trays,
ornaments and wear, with their materials, on a canvas in board units."""

from __future__ import annotations

import cv2
import numpy as np

from nardy_pi.vision.render.randomised import textures
from nardy_pi.vision.render.randomised.layout import BoardLayout
from nardy_pi.vision.render.randomised.style import Style

# Region ids on the material map, each textured by its own material.
FRAME, FIELD, POINT, BAR, TRAY = 0, 1, 2, 3, 4


class TopView:
    """A BGR canvas over the board box with a board-unit coordinate system."""

    def __init__(self, layout: BoardLayout, scale: float) -> None:
        self.x0, self.y0, x1, y1 = layout.extent()
        self.scale = scale
        self.w = max(8, round((x1 - self.x0) * scale))
        self.h = max(8, round((y1 - self.y0) * scale))
        self.image = np.zeros((self.h, self.w, 3), np.uint8)
        self.regions = np.zeros((self.h, self.w), np.uint8)

    def to_px(self, pts: np.ndarray) -> np.ndarray:
        p = (np.asarray(pts, np.float64).reshape(-1, 2) - (self.x0, self.y0)) * self.scale
        return np.round(p * 16).astype(np.int32)

    def poly(self, pts, colour, region: int | None = None) -> None:
        arr = self.to_px(pts)
        cv2.fillPoly(self.image, [arr], colour, cv2.LINE_AA, shift=4)
        if region is not None:
            cv2.fillPoly(self.regions, [arr], region, cv2.LINE_8, shift=4)

    def outline(self, pts, colour, width: float, closed: bool = True) -> None:
        cv2.polylines(self.image, [self.to_px(pts)], closed, colour,
                      max(1, round(width * self.scale)), cv2.LINE_AA, shift=4)

    def rect(self, x0, y0, x1, y1, colour, region: int | None = None) -> None:
        self.poly(np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]), colour, region)

    def circle(self, x, y, r, colour, thickness: float = -1) -> None:
        (cx, cy), = self.to_px([[x, y]])
        t = -1 if thickness < 0 else max(1, round(thickness * self.scale))
        cv2.circle(self.image, (int(cx), int(cy)), round(r * self.scale * 16), colour, t,
                   cv2.LINE_AA, shift=4)

    def board_to_canvas(self) -> np.ndarray:
        s = self.scale
        return np.array([[s, 0, -self.x0 * s], [0, s, -self.y0 * s], [0, 0, 1]], float)


def point_polygon(layout: BoardLayout, point: int, shape: str) -> np.ndarray:
    """The painted point as a polygon in board units."""
    cx, base, sign = layout.point_base(point)
    length = layout.point_length
    half = 0.5 if shape != "thin" else 0.33
    gap = 0.02
    ts = np.linspace(0.0, 1.0, 14)
    if shape == "cup":  # a long bullet: slow taper and a round end
        hw = (half - gap) * (1 - 0.3 * ts)
        end_r = hw[-1]
        body = length - end_r
        left = [(cx - w, base + sign * t * body) for t, w in zip(ts, hw, strict=True)]
        arc = [(cx - end_r * np.cos(a), base + sign * (body + end_r * np.sin(a)))
               for a in np.linspace(0, np.pi, 12)]
        right = [(cx + w, base + sign * t * body) for t, w in zip(ts[::-1], hw[::-1], strict=True)]
        return np.array(left + arc[1:-1] + right)
    if shape == "rounded":
        r = 0.16
        body = length - r
        hw = (half - gap) * (1 - ts) + r * ts
        left = [(cx - w, base + sign * t * body) for t, w in zip(ts, hw, strict=True)]
        arc = [(cx - r * np.cos(a), base + sign * (body + r * np.sin(a)))
               for a in np.linspace(0, np.pi, 10)]
        right = [(cx + w, base + sign * t * body) for t, w in zip(ts[::-1], hw[::-1], strict=True)]
        return np.array(left + arc[1:-1] + right)
    return np.array([[cx - half + gap, base], [cx + half - gap, base], [cx, base + sign * length]])


def _ornaments(view: TopView, layout: BoardLayout, style: Style, rng: np.random.Generator):
    c = style.ornament_colour
    h, mid = layout.height, layout.height / 2
    halves = [(layout.margin + 3.0), (layout.bar_x1 + 3.0)]
    gap = h - 2 * layout.point_length
    if style.ornament == "diamond":
        for cx in halves:
            a, b = rng.uniform(0.5, 1.6), max(0.2, min(gap * 0.45, rng.uniform(0.3, 1.0)))
            view.poly([[cx - a, mid], [cx, mid - b], [cx + a, mid], [cx, mid + b]], c)
            view.poly([[cx - a / 2, mid], [cx, mid - b / 2], [cx + a / 2, mid],
                       [cx, mid + b / 2]], style.field)
    elif style.ornament == "medallion":
        for cx in halves:
            r = max(0.25, min(gap * 0.48, 1.6))
            view.circle(cx, mid, r, c)
            view.circle(cx, mid, r * 0.8, style.field)
            view.circle(cx, mid, r * 0.55, c, thickness=0.06)
            for k in range(8):
                a = k * np.pi / 4
                view.circle(cx + 0.35 * r * np.cos(a), mid + 0.35 * r * np.sin(a), 0.12 * r, c)
    elif style.ornament == "border":
        m = 0.12
        view.outline([[m, m], [layout.width - m, m], [layout.width - m, h - m], [m, h - m]], c,
                     0.05)
    elif style.ornament == "dots":
        for point in range(1, 25):
            cx, base, sign = layout.point_base(point)
            view.circle(cx, base + sign * (layout.point_length + 0.25), 0.08, c)
    elif style.ornament == "arrows":
        for cx in halves:
            for k in range(-2, 3):
                x = cx + k * 0.6
                view.outline([[x - 0.15, mid - 0.2], [x + 0.1, mid], [x - 0.15, mid + 0.2]], c,
                             0.05, closed=False)


def _wear(h: int, w: int, rng: np.random.Generator, amount: float) -> np.ndarray:
    """A brightness field of scratches and faded patches (0 where unworn)."""
    field = np.zeros((h, w), np.float32)
    if amount <= 0.05:
        return field
    for _ in range(int(40 * amount)):
        p = rng.uniform(0, 1, 2) * (w, h)
        q = p + rng.normal(0, 0.08, 2) * w
        cv2.line(field, tuple(int(v) for v in p), tuple(int(v) for v in q),
                 float(rng.uniform(0.05, 0.15)), 1, cv2.LINE_AA)
    patches = textures.smooth_noise(h, w, max(w, h) / 5, rng)
    return field + 0.08 * amount * np.clip(patches, 0, None)


def draw_top_view(style: Style, layout: BoardLayout, scale: float,
                  rng: np.random.Generator) -> TopView:
    view = TopView(layout, scale)
    w, h = layout.width, layout.height
    view.image[:] = style.frame
    if layout.tray_left:
        x0, y0, x1, y1 = layout.tray_rect("left")
        view.rect(x0, y0, x1, y1, _tray_colour(style), TRAY)
    if layout.tray_right:
        x0, y0, x1, y1 = layout.tray_rect("right")
        view.rect(x0, y0, x1, y1, _tray_colour(style), TRAY)
    view.rect(0, 0, w, h, style.field, FIELD)
    view.rect(layout.bar_x0, 0, layout.bar_x1, h, style.bar, BAR)
    for point in range(1, 25):
        colour = style.point_a if point % 2 else style.point_b
        poly = point_polygon(layout, point, style.point_shape)
        if style.point_shape == "outlined":
            view.outline(poly, colour, 0.07)
        else:
            view.poly(poly, colour, POINT)
            if style.point_outline is not None:
                view.outline(poly, style.point_outline, 0.025)
        if style.point_shape == "dotted":
            cx, base, sign = layout.point_base(point)
            view.circle(cx, base + sign * (layout.point_length + 0.22), 0.09, colour)
    _ornaments(view, layout, style, rng)
    _apply_materials(view, style, rng)
    if style.hinges:
        for y in (0.18 * h, 0.82 * h):
            hw = min(0.35, (layout.bar_x1 - layout.bar_x0) / 2)
            bx = layout.bar_centre
            view.rect(bx - hw, y - 0.45, bx + hw, y + 0.45, (150, 160, 170))
            view.rect(bx - 0.03, y - 0.45, bx + 0.03, y + 0.45, (90, 95, 100))
    return view


def _tray_colour(style: Style) -> tuple[int, int, int]:
    return tuple(int(c * 0.8) for c in style.field)


def _apply_materials(view: TopView, style: Style, rng: np.random.Generator) -> None:
    """Multiply each region by its material's brightness field (computed at half size)."""
    g = style.grain_strength
    kinds = {
        FRAME: (style.frame_material, 0.6 + 0.6 * g),
        FIELD: (style.field_material, 0.3 + g),
        POINT: ("wood" if style.point_material == "inlay" else style.field_material,
                (1.0 if style.point_material == "inlay" else 0.5 if
                 style.point_material == "solid" else 0.1) * (0.4 + g)),
        BAR: (style.bar_material, 0.4 + g),
        TRAY: (style.field_material, 0.3 + g),
    }
    regions = view.regions[::2, ::2]
    h, w = regions.shape
    total = np.zeros((h, w), np.float32)
    weights = np.zeros(8, np.float32)
    for kind in sorted({k for k, _ in kinds.values()}):
        field = textures.material_field(kind, h, w, view.scale / 2, rng,
                                        vertical=bool(rng.random() < 0.3))
        weights[:] = 0
        for region, (k, strength) in kinds.items():
            if k == kind:
                weights[region] = strength
        total += weights[regions] * field
    total -= _wear(h, w, rng, style.wear)
    gain = np.clip((1.0 + total) * 128.0, 0, 255).astype(np.uint8)
    gain = cv2.resize(gain, (view.w, view.h), interpolation=cv2.INTER_LINEAR)
    view.image = cv2.multiply(view.image, cv2.merge([gain, gain, gain]), scale=1 / 128.0)
