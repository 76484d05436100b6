"""CIELAB from BGR, as OpenCV's COLOR_BGR2LAB gives it, without OpenCV's first-call cost.

OpenCV builds its Lab tables on the first conversion of a process (about 60 ms here, a
tenth of `analyze`'s start-up), while the readers convert only a few thousand pixels a frame.
The formulas are the standard ones: sRGB to linear, to XYZ under D65, to L*a*b*.
"""

from __future__ import annotations

import numpy as np

#: linear RGB -> XYZ (sRGB primaries, D65), rows scaled by the white point so white is 1, 1, 1
_TO_XYZ = np.array([[0.412453, 0.357580, 0.180423],
                    [0.212671, 0.715160, 0.072169],
                    [0.019334, 0.119193, 0.950227]]) / np.array([[0.950456], [1.0], [1.088754]])
_EPS = 216 / 24389  # where the cube root meets its linear part


def _linear(srgb: np.ndarray) -> np.ndarray:
    return np.where(srgb <= 0.04045, srgb / 12.92, ((srgb + 0.055) / 1.055) ** 2.4)


_LINEAR_8BIT = _linear(np.arange(256) / 255.0).astype(np.float32)


def _f(t: np.ndarray) -> np.ndarray:
    return np.where(t > _EPS, np.cbrt(t), (24389 / 27 * t + 16) / 116)


def _lab(linear_bgr: np.ndarray) -> np.ndarray:
    """... x 3 linear BGR -> L in 0..100, a and b about -128..127."""
    to_xyz = _TO_XYZ[:, ::-1].T.astype(linear_bgr.dtype)  # BGR columns, so no reversed copy
    fx, fy, fz = np.moveaxis(_f(linear_bgr @ to_xyz), -1, 0)
    return np.stack([116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)], axis=-1)


def bgr_to_lab(bgr: np.ndarray) -> np.ndarray:
    """Same shape, CIELAB. uint8 in: uint8 out on OpenCV's 8-bit scale (L * 255 / 100, a + 128,
    b + 128). Floats in 0..1 in: float32 out, L 0..100 and signed a, b."""
    if bgr.dtype == np.uint8:
        lab = _lab(_LINEAR_8BIT[bgr])
        scaled = lab * np.array([255 / 100, 1, 1]) + np.array([0, 128, 128])
        return np.clip(np.rint(scaled), 0, 255).astype(np.uint8)
    return _lab(_linear(np.clip(np.asarray(bgr, np.float64), 0, 1))).astype(np.float32)
