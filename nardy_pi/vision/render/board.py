"""Top view of the board in board units, drawn on a canvas before the camera warp."""

from __future__ import annotations

import cv2
import numpy as np

from nardy_pi.vision import geometry as g
from nardy_pi.vision.render.chunks import row_bands
from nardy_pi.vision.render.styles import BoardStyle
from nardy_pi.vision.stacking import stack_layout

# Canvas extent in board units: the frame around the surface and the tray on the right.
CANVAS_X0, CANVAS_X1 = -1.0, 15.2
CANVAS_Y0, CANVAS_Y1 = -1.0, 12.0
FRAME = 0.8  # frame width around the surface
MARKER = 0.5  # ArUco marker side; its paper square (MARKER_MARGIN each side) sits on the frame
MARKER_MARGIN = 0.1  # with the paper's inner corner at a surface corner


class Canvas:
    """A BGR image with a board-unit coordinate system."""

    def __init__(self, scale: float) -> None:
        self.scale = scale
        w = round((CANVAS_X1 - CANVAS_X0) * scale)
        h = round((CANVAS_Y1 - CANVAS_Y0) * scale)
        self.image = np.zeros((h, w, 3), np.uint8)

    def px(self, x: float, y: float) -> tuple[int, int]:
        return round((x - CANVAS_X0) * self.scale * 16), round((y - CANVAS_Y0) * self.scale * 16)

    def poly(self, pts: np.ndarray, colour: tuple[int, int, int]) -> None:
        arr = np.array([self.px(x, y) for x, y in pts], np.int32)
        cv2.fillPoly(self.image, [arr], colour, cv2.LINE_AA, shift=4)

    def rect(self, x0: float, y0: float, x1: float, y1: float, colour) -> None:
        self.poly(np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]), colour)

    def circle(self, x: float, y: float, r: float, colour, thickness: int = -1) -> None:
        cv2.circle(
            self.image, self.px(x, y), round(r * self.scale * 16), colour, thickness,
            cv2.LINE_AA, shift=4,
        )

    def board_to_canvas(self) -> np.ndarray:
        """3x3 affine map from board units to canvas pixels."""
        s = self.scale
        return np.array([[s, 0, -CANVAS_X0 * s], [0, s, -CANVAS_Y0 * s], [0, 0, 1]], float)


def _shade(colour, factor: float) -> tuple[int, int, int]:
    return tuple(int(np.clip(c * factor, 0, 255)) for c in colour)


def _texture(canvas: Canvas, kind: str, rng: np.random.Generator) -> None:
    """Wood grain or felt fuzz, as a multiplicative brightness field over the whole canvas."""
    h, w = canvas.image.shape[:2]
    if kind == "wood":
        ys = np.arange(h, dtype=np.float32)[:, None]
        xs = np.arange(w, dtype=np.float32)[None, :]
        phase = rng.uniform(0, 6.28)
        wobble = 6 * np.sin(xs / (w / rng.uniform(2, 4)) + phase)
        period = rng.uniform(2.5, 4.0)
        for band in row_bands(h):
            grain = 0.06 * np.sin((ys[band] + wobble) / period)
            noise = rng.normal(0, 0.015, (band.stop - band.start, w)).astype(np.float32)
            _brighten(canvas.image[band], 1.0 + grain + noise)
    elif kind == "felt":
        fuzz = np.empty((h, w), np.float32)
        for band in row_bands(h):
            fuzz[band] = rng.normal(0, 0.05, (band.stop - band.start, w))
        field = cv2.GaussianBlur(fuzz, (3, 3), 0, dst=fuzz)
        field += 1.0
        for band in row_bands(h):
            _brighten(canvas.image[band], field[band])


def _brighten(rows: np.ndarray, field: np.ndarray) -> None:
    """rows (a view into the canvas) times a brightness field, in place."""
    rows[:] = np.clip(rows * field[..., None], 0, 255)


def _checker(canvas: Canvas, x: float, y: float, colour, layer: int) -> None:
    r = g.CHECKER / 2
    if layer:  # a raised checker casts a soft shadow on the one below
        canvas.circle(x + 0.05, y + 0.06, r, _shade(colour, 0.45))
    canvas.circle(x, y, r, colour)
    canvas.circle(x, y, r * 0.97, _shade(colour, 0.55 if sum(colour) > 300 else 1.9), 2)
    canvas.circle(x, y, r * 0.68, _shade(colour, 0.9 if sum(colour) > 300 else 1.25), 1)


def _stack(canvas: Canvas, strip: g.Strip, count: int, colour, style: str) -> None:
    for placed in stack_layout(count, style, strip.length, g.CHECKER):
        t = placed.offset + g.CHECKER / 2
        x = strip.base[0] + strip.direction[0] * t
        y = strip.base[1] + strip.direction[1] * t
        _checker(canvas, x, y, colour, placed.layer)


def _tray(canvas: Canvas, colour: str, count: int, chk_colour) -> None:
    strip = g.tray_strip(colour)
    half = (g.TRAY_X1 - g.TRAY_X0) / 2 - 0.08
    for i in range(count):
        t0 = i * g.OFF_THICKNESS
        y0 = strip.base[1] + strip.direction[1] * t0
        y1 = strip.base[1] + strip.direction[1] * (t0 + g.OFF_THICKNESS)
        x0, x1 = strip.base[0] - half, strip.base[0] + half
        canvas.rect(x0, min(y0, y1), x1, max(y0, y1), chk_colour)
        edge = _shade(chk_colour, 0.5 if sum(chk_colour) > 300 else 2.2)
        yl = max(y0, y1) if strip.direction[1] > 0 else min(y0, y1)
        canvas.rect(x0, yl - 0.025, x1, yl + 0.025, edge)


def _markers(canvas: Canvas) -> None:
    """Four printed ArUco markers (ids 0..3 = TL, TR, BR, BL) on white paper squares whose
    inner corner touches the surface corner (calibration/README.md)."""
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    side = round(MARKER * canvas.scale)
    paper = MARKER + 2 * MARKER_MARGIN
    w, h = g.SURFACE_WIDTH, g.SURFACE_HEIGHT
    origins = [(-paper, -paper), (w, -paper), (w, h), (-paper, h)]
    for marker_id, (x, y) in enumerate(origins):
        canvas.rect(x, y, x + paper, y + paper, (250, 250, 250))
        tile = cv2.aruco.generateImageMarker(dictionary, marker_id, side)
        px = round((x + MARKER_MARGIN - CANVAS_X0) * canvas.scale)
        py = round((y + MARKER_MARGIN - CANVAS_Y0) * canvas.scale)
        canvas.image[py : py + side, px : px + side] = tile[..., None]


def draw_board(
    style: BoardStyle, scene, scale: float, rng: np.random.Generator, markers: bool
) -> Canvas:
    """The board with its checkers, seen straight from above."""
    canvas = Canvas(scale)
    canvas.image[:] = style.table
    w, h = g.SURFACE_WIDTH, g.SURFACE_HEIGHT
    x1 = g.TRAY_X1 + 0.2 if style.trays else w + FRAME
    canvas.rect(-FRAME, -FRAME, x1, h + FRAME, style.frame)
    canvas.rect(0, 0, w, h, style.field)
    canvas.rect(g.BAR_X0, 0, g.BAR_X1, h, style.bar)
    if style.trays:
        canvas.rect(g.TRAY_X0, 0, g.TRAY_X1, g.MID_Y - g.TRAY_GAP / 2, style.field)
        canvas.rect(g.TRAY_X0, g.MID_Y + g.TRAY_GAP / 2, g.TRAY_X1, h, style.field)
    for point in range(1, 25):
        x0, _ = g.point_columns(point)
        # Opposite points differ in colour, as on real boards.
        parity = (int(x0) + g.is_top_row(point)) % 2
        colour = style.point_a if parity == 0 else style.point_b
        canvas.poly(g.point_triangle(point), colour)
    _texture(canvas, style.texture, rng)
    if markers:
        _markers(canvas)
    for point, count in enumerate(scene.points, start=1):
        if count:
            chk = style.white if count > 0 else style.black
            _stack(canvas, g.point_strip(point), abs(count), chk, scene.stack_style)
    _stack(canvas, g.bar_strip("white"), scene.bar_white, style.white, scene.stack_style)
    _stack(canvas, g.bar_strip("black"), scene.bar_black, style.black, scene.stack_style)
    if style.trays:
        _tray(canvas, "white", scene.off_white, style.white)
        _tray(canvas, "black", scene.off_black, style.black)
    return canvas
