"""Measure the bar and the points from the image instead of assuming them.

The bar's two long edges run straight across the whole surface height, so in the rectified
surface they are the two columns with the strongest *consistent* horizontal gradient (point
edges are slanted and checkers are local, so they average out). Candidate bars from 0.45 to
1.6 point pitches, near the middle, are scored by those two columns.

The points' length (how far the painted points reach, 0.35-0.48 of the surface height on real
boards) is where their slanted side edges stop: the gradient across each point's column falls
off there, and the median over the 24 columns ignores the stacks.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from nardy_pi.vision.board.layout import SurfaceLayout
from nardy_pi.vision.board.strips import surface_homography

_W, _H = 416, 256  # rectified surface used for measuring, pixels
SURFACE_PX_PER_UNIT = _W / 13.0  # about: a point pitch in the rectified surface
BAR_WIDTHS = np.round(np.arange(0.45, 1.61, 0.05), 2)  # in point pitches


def rectified_surface(image: np.ndarray, corners) -> np.ndarray:
    """Grey float32 _H x _W picture of the surface only (the rest of the frame is not warped)."""
    h = surface_homography(corners)
    m = h @ np.diag([1.0 / _W, 1.0 / _H, 1.0])
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    out = cv2.warpPerspective(grey, m, (_W, _H), flags=cv2.INTER_AREA | cv2.WARP_INVERSE_MAP,
                              borderMode=cv2.BORDER_REPLICATE)
    return out.astype(np.float32)


def column_edges(surface: np.ndarray) -> np.ndarray:
    gx = cv2.Sobel(surface, cv2.CV_32F, 1, 0, ksize=3)
    rows = slice(int(0.04 * _H), int(0.96 * _H))
    # Median of the signed gradient per column: a straight edge over most of the height
    # survives, a checker rim or a slanted point edge over a few rows does not.
    return np.abs(np.median(gx[rows], axis=0))


def bar_candidates(image: np.ndarray, corners, keep: int = 3) -> list[SurfaceLayout]:
    """The best-scoring bar spans, best first."""
    profile = column_edges(rectified_surface(image, corners))
    profile = np.maximum.reduce([profile, np.roll(profile, 1), np.roll(profile, -1)])
    scored = []
    for b in BAR_WIDTHS:
        pitch = 1.0 / (12.0 + b)
        for offset in np.arange(-0.012, 0.0121, 0.004):
            u0, u1 = 0.5 + offset - b * pitch / 2, 0.5 + offset + b * pitch / 2
            i0, i1 = round(u0 * _W), round(u1 * _W)
            if 0 < i0 < i1 < _W:
                scored.append((float(profile[i0] + profile[i1]), float(u0), float(u1)))
    scored.sort(reverse=True)
    out: list[SurfaceLayout] = []
    for _score, u0, u1 in scored:
        if all(abs(u0 - o.bar_u0) > 0.006 or abs(u1 - o.bar_u1) > 0.006 for o in out):
            out.append(SurfaceLayout(u0, u1))
        if len(out) == keep:
            break
    return out


def bar_grid() -> list[SurfaceLayout]:
    """Centred bars of every candidate width: what calibration tries against the known
    position."""
    return [SurfaceLayout(0.5 - b / (12.0 + b) / 2, 0.5 + b / (12.0 + b) / 2) for b in BAR_WIDTHS]


MIN_STEP = 0.3  # the step must be this share of the edges' strength near the base
POINT_LENGTHS = np.round(np.arange(0.30, 0.481, 0.005), 3)  # in surface heights (v)


def point_length_profile(surface: np.ndarray, layout: SurfaceLayout) -> np.ndarray:
    """Per distance from the base (rows of one half, 0 at the frame), how much the points'
    side edges show across the row: the median over the 24 point columns of the horizontal
    gradient, so the dozen-odd stacks in play do not hide the points' ends."""
    gx = np.abs(cv2.Sobel(surface, cv2.CV_32F, 1, 0, ksize=3))
    half = _H // 2
    top, bottom = gx[:half], gx[_H - half:][::-1]  # both halves from their base inwards
    columns = []
    for point in range(1, 25):
        u0, u1 = layout.point_u(point)
        a, b = int(u0 * _W) + 1, max(int(u0 * _W) + 2, int(u1 * _W) - 1)
        rows = top if point >= 13 else bottom
        columns.append(rows[:, a:b].mean(axis=1))
    return np.median(np.array(columns), axis=0)


def measure_point_length(image: np.ndarray, corners, layout: SurfaceLayout) -> float | None:
    """How far the painted points reach from the base, in surface heights, measured where
    their edges stop: the step down in `point_length_profile`. None when no clear step shows
    (unpainted or outlined points, or a board this cannot see)."""
    profile = point_length_profile(rectified_surface(image, corners), layout)
    profile = np.convolve(profile, np.ones(3) / 3, mode="same")
    band = max(3, int(0.04 * _H))
    best: tuple[float, float] | None = None
    for length in POINT_LENGTHS:
        r = int(np.rint(length * _H))
        inside, outside = profile[max(0, r - band):r], profile[r + 1:r + 1 + band]
        if len(inside) < band or len(outside) < band:
            continue
        step = float(inside.mean() - outside.mean())
        if best is None or step > best[0]:
            best = (step, float(length))
    if best is None or best[0] < MIN_STEP * float(np.median(profile[: int(0.25 * _H)])):
        return None
    return best[1]


def with_measured_length(layout: SurfaceLayout, image: np.ndarray, corners) -> SurfaceLayout:
    """`layout` with the point length measured from the image, when it can be."""
    length = measure_point_length(image, corners, layout)
    return layout if length is None else replace(layout, point_length_v=length)
