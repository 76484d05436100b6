"""Die bodies: bright compact blobs that stand out from their local background.

Dice are white and the surfaces they lie on (wood, felt, the board) are darker, so a die is
where the luminance rises clearly above a wide median of its surroundings. Shaded side faces
rise less than the lit top face; the threshold keeps both in most scenes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from nardy_pi.vision.components import components_with_stats

# Larger images are shrunk to this long side; pixel constants suit dice of ~15-90 px.
WORK_LONG_SIDE = 1280
_BG_SCALE = 0.25  # background median runs on a quarter-size image for speed
_BG_KERNEL = 41  # ~160 px at working size: several dice wide, so dice do not lift it
_BODY_RISE = 14  # luminance above background that counts as die body
_MIN_AREA = 150  # working pixels: a die smaller than ~12x12 cannot show readable pips
_MAX_AREA_FRACTION = 0.05
_SPLIT_BELOW_SOLIDITY = 0.9  # blob / hull area under this: touching dice, worth splitting
_MIN_CORE_DEPTH = 0.6  # a die's core reaches this share of the blob's deepest distance


@dataclass(frozen=True, slots=True)
class DieBlob:
    """One candidate die in working coordinates: a filled mask over its bounding box."""

    x: int
    y: int
    mask: np.ndarray  # bool, the convex hull of the bright pixels (pips included), (h, w)
    solidity: float = 1.0  # bright pixels / hull area: low for ragged non-die shapes

    @property
    def width(self) -> int:
        return int(self.mask.shape[1])

    @property
    def height(self) -> int:
        return int(self.mask.shape[0])

    @property
    def area(self) -> int:
        return int(self.mask.sum())


def _lightness_table() -> np.ndarray:
    """Grey level -> CIE L* (0..255) for sRGB: exact for greys, close for pale colours."""
    grey = np.arange(256) / 255.0
    linear = np.where(grey <= 0.04045, grey / 12.92, ((grey + 0.055) / 1.055) ** 2.4)
    lightness = np.where(linear > 0.008856, 116 * np.cbrt(linear) - 16, 903.3 * linear)
    return np.clip(np.round(lightness * 2.55), 0, 255).astype(np.uint8)


_LIGHTNESS = _lightness_table()


def luminance(image_bgr: np.ndarray) -> np.ndarray:
    """Perceived lightness (L*) as uint8, via a grey conversion: a tenth of a Lab conversion."""
    return cv2.LUT(cv2.cvtColor(image_bgr, cv2.COLOR_BGR2GRAY), _LIGHTNESS)


def local_background(lum: np.ndarray) -> np.ndarray:
    """Wide median of the luminance: the surface brightness around each pixel."""
    small = cv2.resize(lum, None, fx=_BG_SCALE, fy=_BG_SCALE, interpolation=cv2.INTER_AREA)
    k = min(_BG_KERNEL, _odd_below(min(small.shape[:2])))
    bg = cv2.medianBlur(small, k) if k >= 3 else small
    return cv2.resize(bg, (lum.shape[1], lum.shape[0]), interpolation=cv2.INTER_LINEAR)


def _odd_below(n: int) -> int:
    return n if n % 2 else n - 1


def fill_holes(mask: np.ndarray) -> np.ndarray:
    """Fill every hole of a uint8 mask (the pips of a die are holes in its bright body)."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = np.zeros_like(mask)
    cv2.drawContours(out, contours, -1, 255, thickness=-1)
    return out


def body_mask(lum: np.ndarray) -> np.ndarray:
    """uint8 mask of pixels clearly brighter than their surroundings, holes filled."""
    rise = cv2.subtract(lum, local_background(lum))
    mask = ((rise > _BODY_RISE) * 255).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    ellipse = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    return fill_holes(cv2.morphologyEx(mask, cv2.MORPH_CLOSE, ellipse))


def die_blobs(lum: np.ndarray, keep: Callable[[DieBlob], bool] | None = None) -> list[DieBlob]:
    """Connected bright blobs of a plausible die size, touching dice split apart.

    `keep`, when given, judges each blob (after splitting) by its box before the costly steps
    (hull, pips): a caller that knows how big a die is in the image drops checker stacks and
    painted points here."""
    solid = body_mask(lum)
    max_area = _MAX_AREA_FRACTION * lum.shape[0] * lum.shape[1]
    count, labels, stats, _ = components_with_stats(solid)
    blobs: list[DieBlob] = []
    for i in range(1, count):
        x, y, w, h, area = (int(v) for v in stats[i])
        if area < _MIN_AREA or area > max_area or w < 6 or h < 6:
            continue
        mask = labels[y : y + h, x : x + w] == i
        parts = _split_touching(DieBlob(x, y, mask))
        blobs.extend(_convex(part) for part in parts if keep is None or keep(part))
    return blobs


def _convex(blob: DieBlob) -> DieBlob:
    """A die's outline is convex: the hull restores pips and edges that notch the bright mask."""
    points = cv2.findNonZero(blob.mask.astype(np.uint8))
    hull = np.zeros(blob.mask.shape, np.uint8)
    cv2.fillConvexPoly(hull, cv2.convexHull(points), 1)
    filled = hull.astype(bool) | blob.mask
    return DieBlob(blob.x, blob.y, filled, solidity=blob.area / max(int(filled.sum()), 1))


def _split_touching(blob: DieBlob) -> list[DieBlob]:
    """Split a blob at narrow necks (touching dice) using distance-transform peaks.

    A single die is convex, so its hull is barely larger than itself; two touching dice leave
    concave notches. Only blobs with such notches are cut, between the cores of the distance map.
    """
    mask8 = blob.mask.astype(np.uint8)
    contours, _ = cv2.findContours(mask8, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    hull_area = cv2.contourArea(cv2.convexHull(max(contours, key=cv2.contourArea)))
    if hull_area <= 0 or blob.area / hull_area > _SPLIT_BELOW_SOLIDITY:
        return [blob]
    dist = cv2.distanceTransform(np.pad(mask8, 1), cv2.DIST_L2, 5)[1:-1, 1:-1]
    n_seeds, markers = _die_seeds(dist)
    if n_seeds <= 2:
        return [blob]
    # Each pixel goes to the nearest core: touching dice meet along the line between them.
    reach = np.stack(
        [
            cv2.distanceTransform((markers != k).astype(np.uint8), cv2.DIST_L2, 3)
            for k in range(1, n_seeds)
        ]
    )
    owner = np.where(blob.mask, reach.argmin(axis=0) + 1, 0)
    parts: list[DieBlob] = []
    for k in range(1, n_seeds):
        part = owner == k
        if part.sum() < _MIN_AREA:
            continue
        ys, xs = np.nonzero(part)
        y0, y1, x0, x1 = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
        parts.append(DieBlob(blob.x + int(x0), blob.y + int(y0), part[y0:y1, x0:x1]))
    return parts or [blob]


def _die_seeds(dist: np.ndarray) -> tuple[int, np.ndarray]:
    """Labelled cores of the dice in a blob (count includes label 0), from its distance map.

    Raising a cut through the distance map separates the dice at their neck; each core must
    be nearly as deep as the deepest, so bumps on one die's outline are not new dice.
    """
    peak = float(dist.max())
    for level in (0.5, 0.6, 0.7, 0.8):
        count, labels = cv2.connectedComponents((dist > level * peak).astype(np.uint8))
        deep = [k for k in range(1, count) if dist[labels == k].max() >= _MIN_CORE_DEPTH * peak]
        if len(deep) >= 2:
            cores = np.zeros_like(labels)
            for new_label, k in enumerate(deep, start=1):
                cores[labels == k] = new_label
            return len(deep) + 1, cores
    return 1, np.zeros(dist.shape, np.int32)
