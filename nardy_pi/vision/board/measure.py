"""Measure the bar from the image instead of assuming it is one point wide.

The bar's two long edges run straight across the whole surface height, so in the rectified
surface they are the two columns with the strongest *consistent* horizontal gradient (point
edges are slanted and checkers are local, so they average out). Candidate bars from 0.45 to
1.6 point pitches, near the middle, are scored by those two columns.
"""

from __future__ import annotations

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
