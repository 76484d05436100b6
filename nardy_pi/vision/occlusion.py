"""Hands, arms and other objects over the board: large regions that either no learned colour
explains, or that show a known colour where the empty board has another one (a skin-toned hand
over a dark point, a sleeve the colour of the field over a stack)."""

from __future__ import annotations

import cv2
import numpy as np

from nardy_pi.vision import geometry as g
from nardy_pi.vision.appearance import UNEXPLAINED_DISTANCE
from nardy_pi.vision.components import components_with_stats

MIN_BLOB_AREA = 0.6  # board units², about one checker: smaller blobs are rims, shadows, noise


def expected_labels(point_classes: tuple[str, ...], names: tuple[str, ...],
                    shape: tuple[int, int], scale: float, x0: float, y0: float) -> np.ndarray:
    """The class each raster pixel shows on the empty board (255 where anything goes)."""
    out = np.full(shape, 255, np.uint8)

    def poly(pts: np.ndarray, label: int) -> None:
        px = np.round((np.asarray(pts) - np.array([x0, y0])) * scale * 16).astype(np.int32)
        cv2.fillPoly(out, [px], label, shift=4)

    if "field" in names:
        poly(g.surface_corners(), names.index("field"))
    if "bar" in names:
        poly(np.array([[g.BAR_X0, 0], [g.BAR_X1, 0], [g.BAR_X1, g.SURFACE_HEIGHT],
                       [g.BAR_X0, g.SURFACE_HEIGHT]]), names.index("bar"))
    for point in range(1, 25):
        name = point_classes[point - 1]
        if name in names:
            poly(g.point_triangle(point), names.index(name))
    return out


def occlusion_mask(distance: np.ndarray, region: np.ndarray, ignore: np.ndarray,
                   scale: float, misplaced: np.ndarray | None = None) -> np.ndarray:
    """Pixels inside `region` that belong to a large unexplained (or `misplaced`) blob,
    worked out at half resolution: blobs that matter are far larger than a pixel."""
    strange = distance > UNEXPLAINED_DISTANCE
    if misplaced is not None:
        strange |= misplaced
    strange = (strange & region & ~ignore).astype(np.uint8)
    h, w = strange.shape
    small = cv2.resize(strange * 255, (w // 2, h // 2), interpolation=cv2.INTER_AREA) > 127
    half = scale / 2
    k = max(3, int(0.45 * half) | 1)  # wider than rim lines and seams, narrower than a hand
    small = cv2.morphologyEx(small.astype(np.uint8), cv2.MORPH_OPEN, np.ones((k, k), np.uint8))
    count, labels, stats, _ = components_with_stats(small)
    keep = np.zeros(count, bool)
    keep[1:] = stats[1:, cv2.CC_STAT_AREA] >= MIN_BLOB_AREA * half * half
    blobs = keep[labels].astype(np.uint8)
    return cv2.resize(blobs, (w, h), interpolation=cv2.INTER_NEAREST) > 0
