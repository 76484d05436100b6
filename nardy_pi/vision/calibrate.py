"""Learn a board from one frame of a known position (by default the starting position).

Corners fix the homography; the known position says which pixels show which colour class:
checker cores, empty point triangles, the field between the rows, the bar, the frame, trays.
"""

from __future__ import annotations

import numpy as np

from nardy_pi.rules.notation.board_field import BoardField, format_board_field
from nardy_pi.vision import geometry as g
from nardy_pi.vision.appearance import ColourModel, fit_class
from nardy_pi.vision.calibration import Calibration
from nardy_pi.vision.lighting import correct, fit_gain, gain_map
from nardy_pi.vision.rectify import RASTER_X0, RASTER_Y0, Raster, rectify
from nardy_pi.vision.stacking import STACK_STYLES, stack_layout


def board_grid(raster: Raster) -> tuple[np.ndarray, np.ndarray]:
    """Board coordinates of every raster pixel centre."""
    h, w = raster.image.shape[:2]
    x = (np.arange(w) + 0.5)[None, :] / raster.scale + RASTER_X0
    y = (np.arange(h) + 0.5)[:, None] / raster.scale + RASTER_Y0
    return np.broadcast_arrays(x, y)


def point_group(point: int) -> str:
    x0, _ = g.point_columns(point)
    return f"point_{'top' if g.is_top_row(point) else 'bottom'}_{int(x0) % 2}"


def checker_centres(strip: g.Strip, count: int) -> list[tuple[float, float]]:
    out = []
    for placed in stack_layout(count, "rows", strip.length, g.CHECKER):
        t = placed.offset + g.CHECKER / 2
        out.append((strip.base[0] + strip.direction[0] * t, strip.base[1] + strip.direction[1] * t))
    return out


def _checker_cores(x: np.ndarray, y: np.ndarray, strip: g.Strip, count: int) -> np.ndarray:
    """Checker pixels away from rims. A squeezed stack (over five) shows only one checker
    whole, whichever way it is piled."""
    centres = checker_centres(strip, count)
    if count > round(strip.length / g.CHECKER):
        # Squeezed: the middle of the band along the whole stack; the trimmed fit drops the
        # rims, and the samples span the board's lighting along the point.
        t = (y - strip.base[1]) * strip.direction[1]
        return (np.abs(x - strip.base[0]) < 0.2) & (t > 0.1) & (t < strip.length - 0.1)
    radius = 0.27
    mask = np.zeros_like(x, bool)
    for cx, cy in centres:
        mask |= (x - cx) ** 2 + (y - cy) ** 2 < radius**2
    return mask


def _region_masks(x: np.ndarray, y: np.ndarray, board: BoardField, trays: bool) -> dict:
    masks: dict[str, np.ndarray] = {}
    masks["field"] = (np.abs(y - g.MID_Y) < 0.7) & (
        ((x > 0.2) & (x < 5.8)) | ((x > 7.2) & (x < 12.8))
    )
    bar = (x > g.BAR_X0 + 0.15) & (x < g.BAR_X1 - 0.15) & (y > 0.15) & (y < g.SURFACE_HEIGHT - 0.15)
    bar &= np.abs(y - g.MID_Y) > 0.6  # the cube may sit in the middle
    for colour, count in (("white", board.bar_white), ("black", board.bar_black)):
        if count:
            s = g.bar_strip(colour)
            lo, hi = sorted((s.base[1], s.base[1] + s.direction[1] * s.length))
            bar &= ~((y >= lo) & (y <= hi))
    masks["bar"] = bar
    left = (x > -0.7) & (x < -0.2) & (y > 1.0) & (y < 10.0)
    top = (y > -0.7) & (y < -0.2) & (((x > 1.0) & (x < 5.5)) | ((x > 7.5) & (x < 12.0)))
    masks["frame"] = left | top
    checkers = {"white": np.zeros_like(x, bool), "black": np.zeros_like(x, bool)}
    for point, count in enumerate(board.points, start=1):
        x0, x1 = g.point_columns(point)
        if count == 0:
            strip = g.point_strip(point)
            t = (y - strip.base[1]) * strip.direction[1]
            core = (np.abs(x - (x0 + x1) / 2) < 0.2) & (t > 0.3) & (t < 2.4)
            name = point_group(point)
            masks[name] = masks.get(name, np.zeros_like(x, bool)) | core
            continue
        colour = "white" if count > 0 else "black"
        checkers[colour] |= _checker_cores(x, y, g.point_strip(point), abs(count))
    for colour, count in (("white", board.bar_white), ("black", board.bar_black)):
        checkers[colour] |= _checker_cores(x, y, g.bar_strip(colour), count)
    masks.update(checkers)
    if trays:
        tray = (x > g.TRAY_X0 + 0.15) & (x < g.TRAY_X1 - 0.15)
        masks["tray"] = tray & (np.abs(y - 2.75) < 0.6)  # middle of the (black) top tray
    return masks


def _detect_trays(raster: Raster, x: np.ndarray, y: np.ndarray) -> bool:
    """Trays show as two recesses split by a divider level with the bar's middle; without
    trays that column is plain frame or table. Compared locally, so lighting does not matter."""
    grey = raster.image.astype(np.float32).mean(axis=2)
    column = (x > g.TRAY_X0 + 0.25) & (x < g.TRAY_X1 - 0.25) & raster.valid
    divider = column & (np.abs(y - g.MID_Y) < 0.08)
    inside = column & (np.abs(y - g.MID_Y) > 0.35) & (np.abs(y - g.MID_Y) < 0.9)
    if divider.sum() < 5 or inside.sum() < 20:
        return False
    return bool(abs(float(grey[divider].mean() - grey[inside].mean())) > 12.0)


def calibrate(
    image: np.ndarray,
    corners: g.Corners,
    board: BoardField,
    trays: bool | None = None,
    stack_styles: tuple[str, ...] = STACK_STYLES,
) -> Calibration:
    h_board = g.board_to_image_homography(corners)
    raster = rectify(image, h_board)
    x, y = board_grid(raster)
    if not raster.valid[(x > 0) & (x < 13) & (y > 0) & (y < 11)].mean() > 0.98:
        raise ValueError("the corners put part of the playing surface outside the image")
    if trays is None:
        trays = _detect_trays(raster, x, y)
    masks = _region_masks(x, y, board, trays)
    masks = {k: m & raster.valid for k, m in masks.items()}
    # Lighting first: brightness relative to each class's median, over the whole board.
    # Samples of a squeezed stack hold rims as well as checker faces; they would bias the light.
    squeezed = {"white": any(c > 5 for c in board.points) or board.bar_white > 5,
                "black": any(c < -5 for c in board.points) or board.bar_black > 5}
    lum = raster.image.astype(np.float64).mean(axis=2)
    unclipped = raster.image.max(axis=2) < 250
    xs, ys, values, labels = [], [], [], []
    for name, mask in masks.items():
        if squeezed.get(name):
            continue
        m = mask & unclipped
        if m.sum() < 20 or np.median(lum[m]) < 40:
            continue  # dark classes: noise swamps the light's share
        xs.append(x[m])
        ys.append(y[m])
        values.append(lum[m])
        labels.append(np.full(int(m.sum()), len(labels)))
    gain = fit_gain(np.concatenate(xs), np.concatenate(ys), np.concatenate(values),
                    np.concatenate(labels))
    corrected = correct(raster.image, gain_map(gain, raster.image.shape[:2], raster.scale))
    classes = [
        fit_class(name, corrected[mask], keep_share=0.75 if squeezed.get(name) else 0.9)
        for name, mask in masks.items() if mask.any()
    ]
    missing = {"white", "black", "field"} - {c.name for c in classes}
    if missing:
        raise ValueError(f"calibration position has no {', '.join(sorted(missing))} to learn from")
    names = {c.name for c in classes}
    point_classes = []
    for point in range(1, 25):
        name = point_group(point)
        if name not in names:  # no empty point of this colour: borrow the other row's twin
            row, parity = name.rsplit("_", 2)[1:]
            twin = f"point_{'bottom' if row == 'top' else 'top'}_{1 - int(parity)}"
            name = twin if twin in names else "field"
        point_classes.append(name)
    return Calibration(
        image_size=(image.shape[1], image.shape[0]),
        corners=tuple((float(a), float(b)) for a, b in corners),
        homography=h_board,
        colours=ColourModel(tuple(classes)),
        point_classes=tuple(point_classes),
        gain=gain,
        trays=trays,
        stack_styles=tuple(stack_styles),
        position=format_board_field(board.points, board.bar_white, board.bar_black),
        scale=raster.scale,
    )
