"""A smooth lighting correction over the board, learned from the calibration frame.

Model: a pixel's brightness = its class's own level x a light field over the board, with
log(light) quadratic in board coordinates. Class levels and the field are fitted together, so
a class seen in only one corner does not bias the field. Clipped (saturated) pixels are left
out. Dividing the field out keeps a corner in shadow from turning a white checker into a
cream point.
"""

from __future__ import annotations

import numpy as np

from nardy_pi.vision.rectify import RASTER_X0, RASTER_Y0


def _basis(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    u, v = x / 13.0 - 0.5, y / 11.0 - 0.5
    return np.stack([np.ones_like(u), u, v, u * u, u * v, v * v], axis=-1)


def fit_gain(xs: np.ndarray, ys: np.ndarray, lum: np.ndarray,
             labels: np.ndarray) -> tuple[float, ...]:
    """Coefficients of log(light) over `_basis` (constant term 0) from samples of classes
    `labels` (0..K-1) with brightness `lum`."""
    k = int(labels.max()) + 1
    onehot = np.zeros((len(labels), k))
    onehot[np.arange(len(labels)), labels] = 1.0
    design = np.hstack([onehot, _basis(xs, ys)[:, 1:]])
    coef, *_ = np.linalg.lstsq(design, np.log(np.maximum(lum, 1.0)), rcond=None)
    return (0.0, *(float(c) for c in coef[k:]))


def gain_map(gain: tuple[float, ...], shape: tuple[int, int], scale: float) -> np.ndarray:
    h, w = shape
    x = np.arange(w, dtype=np.float64)[None, :] / scale + RASTER_X0
    y = np.arange(h, dtype=np.float64)[:, None] / scale + RASTER_Y0
    xx, yy = np.broadcast_arrays(x, y)
    g = np.exp(_basis(xx, yy) @ np.asarray(gain))
    return np.clip(g, 0.3, 3.0).astype(np.float32)


def correct(image: np.ndarray, gmap: np.ndarray) -> np.ndarray:
    import cv2

    inverse = cv2.merge([1.0 / gmap] * 3)
    return cv2.multiply(image, inverse, dtype=cv2.CV_8U)
