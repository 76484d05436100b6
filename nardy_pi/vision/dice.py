"""Find dice anywhere in an image and read their top faces (`nardy-pi dice`, board-frame.md §3).

Pipeline: bright die bodies (dice_segment) -> dark pips inside each body (dice_pips) ->
blobs that cannot be dice dropped (dice_phantoms: labels, keyboards, the doubling cube) -> the
pips of the top face (dice_topface) -> flat or cocked (dice_flatness) -> value and box.
A die with more than six top-face pips, or one judged cocked, is reported without a value.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from nardy_pi.vision.dice_flatness import flatter_than_others, slanted, top_roundness
from nardy_pi.vision.dice_phantoms import is_plausible_die
from nardy_pi.vision.dice_pips import Pip, blob_pips
from nardy_pi.vision.dice_segment import WORK_LONG_SIDE, DieBlob, die_blobs, luminance
from nardy_pi.vision.dice_topface import TopFaceModel, default_model, top_face_pips
from nardy_pi.vision.types import DieReading

_MIN_IMAGE_SIDE = 16
Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in image pixels, as DieReading.box


def find_dice(image_bgr: np.ndarray, model: TopFaceModel | None = None,
              keep_box: Callable[[Box], bool] | None = None) -> list[DieReading]:
    """All dice in a BGR (or grey, or BGRA) uint8 image, ordered left to right.

    Raises ValueError for arrays that are not such an image. `model` overrides the shipped
    top-face model (cross-validation uses this). `keep_box`: a caller that knows the size of
    a die in this image (the Observer, from the board) rejects blobs by the box their reading
    would have, before their pips are looked for: most bright blobs on a board are checker
    stacks and light points, and judging them costs most of the finder's time.
    """
    scale, candidates = die_candidates(image_bgr, keep_box)
    chosen_model = model or default_model()
    splits = [top_face_pips(blob, pips, chosen_model) for blob, pips in candidates]
    much_flatter = flatter_than_others([top_roundness(top) for top, _ in splits])
    readings = [
        _reading(blob, top, confidence, not (tilted or slanted(top) or len(top) > 6), scale)
        for (blob, _), (top, confidence), tilted in zip(
            candidates, splits, much_flatter, strict=True
        )
    ]
    return sorted(readings, key=lambda r: (r.center[0], r.center[1]))


class PlainDiceFinder:
    """`find_dice` as the Observer's dice finder: it takes the Observer's die-size test."""

    takes_box_filter = True

    def __call__(self, image_bgr: np.ndarray,
                 keep_box: Callable[[Box], bool] | None = None) -> list[DieReading]:
        return find_dice(image_bgr, keep_box=keep_box)


def die_candidates(image_bgr: np.ndarray, keep_box: Callable[[Box], bool] | None = None
                   ) -> tuple[float, list[tuple[DieBlob, list[Pip]]]]:
    """Plausible die bodies with their pips, in working coordinates, and the working scale."""
    image = _as_bgr(image_bgr)
    scale = min(1.0, WORK_LONG_SIDE / max(image.shape[:2]))
    if scale < 1.0:
        image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    lum = luminance(image)
    candidates = []
    keep = None if keep_box is None else (lambda blob: keep_box(_box(blob, scale)))
    for blob in die_blobs(lum, keep):
        pips = blob_pips(blob, lum)
        if is_plausible_die(blob, pips, image):
            candidates.append((blob, pips))
    return scale, candidates


def _as_bgr(image: np.ndarray) -> np.ndarray:
    if not isinstance(image, np.ndarray) or image.ndim not in (2, 3):
        raise ValueError("expected an image array of shape (h, w) or (h, w, channels)")
    if min(image.shape[:2]) < _MIN_IMAGE_SIDE:
        raise ValueError(f"image is too small to hold dice: {image.shape[1]}x{image.shape[0]}")
    if image.dtype != np.uint8:
        raise ValueError(f"expected 8-bit pixels, got {image.dtype}")
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    channels = image.shape[2]
    if channels == 1:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if channels == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    if channels == 3:
        return image
    raise ValueError(f"expected 1, 3 or 4 colour channels, got {channels}")


def _reading(
    blob: DieBlob, top: list[Pip], confidence: float, flat: bool, scale: float
) -> DieReading:
    value = len(top) if flat and 1 <= len(top) <= 6 else None
    x0, y0 = blob.x / scale, blob.y / scale
    x1, y1 = (blob.x + blob.width) / scale, (blob.y + blob.height) / scale
    return DieReading(
        value=value,
        center=(round((x0 + x1) / 2, 1), round((y0 + y1) / 2, 1)),
        box=_box(blob, scale),
        flat=flat,
        confidence=round(confidence, 3) if value is not None else 0.0,
    )


def _box(blob: DieBlob, scale: float) -> Box:
    """The blob's box in image pixels, rounded as a reading reports it."""
    x0, y0 = blob.x / scale, blob.y / scale
    x1, y1 = (blob.x + blob.width) / scale, (blob.y + blob.height) / scale
    return (round(x0, 1), round(y0, 1), round(x1, 1), round(y1, 1))


__all__ = ["DieReading", "PlainDiceFinder", "find_dice"]
