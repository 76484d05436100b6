"""Reject bright blobs that are not dice: labels, keyboard letters, paper, cut-off objects.

Each rule is a physical property of a white die with black pips, with generous margins (the
real photos' dice sit well inside every limit; bench/bench_dice_photos.py counts phantoms).
"""

from __future__ import annotations

import cv2
import numpy as np

from nardy_pi.vision.dice_pips import Pip
from nardy_pi.vision.dice_segment import DieBlob

_MAX_PIPS_PER_DIE = 18  # three visible faces of at most 6 pips each
_MAX_ASPECT = 2.6  # a die's silhouette is never much longer than wide
_MIN_FILL = 0.45  # outline area / bounding-box area: a cube's outline is compact
_MIN_SOLIDITY = 0.7  # bright pixels / convex outline: a die is not ragged
_MAX_CHROMA = 14.0  # Lab a*b* distance from grey: a white die is nearly neutral
_MIN_ROUNDEST_PIP = 0.45  # a pip on the top face looks round unless seen very obliquely
_MAX_PIP_SHARE = 0.08  # the largest pip covers a small part of the die...
_MIN_PIP_SHARE = 0.006  # ...but more than a speck (digit fragments, grain, noise)
_BORDER = 1  # pixels: a blob cut by the frame edge cannot be read


def is_plausible_die(blob: DieBlob, pips: list[Pip], image_bgr: np.ndarray) -> bool:
    """True when the blob could be a die: shape, colour and pips all fit."""
    if not pips or len(pips) > _MAX_PIPS_PER_DIE:
        return False
    if _touches_border(blob, image_bgr.shape):
        return False
    aspect = blob.width / blob.height
    if not 1 / _MAX_ASPECT <= aspect <= _MAX_ASPECT:
        return False
    if blob.area / (blob.width * blob.height) < _MIN_FILL or blob.solidity < _MIN_SOLIDITY:
        return False
    if max(p.roundness for p in pips) < _MIN_ROUNDEST_PIP:
        return False  # only streaks: text, edges or shadows rather than pips
    if not _MIN_PIP_SHARE * blob.area <= max(p.area for p in pips) <= _MAX_PIP_SHARE * blob.area:
        return False
    crop = image_bgr[blob.y : blob.y + blob.height, blob.x : blob.x + blob.width]
    colour = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB)[blob.mask]
    a, b = np.median(colour[:, 1:].astype(np.float32), axis=0) - 128.0
    return float(np.hypot(a, b)) <= _MAX_CHROMA


def _touches_border(blob: DieBlob, shape: tuple[int, ...]) -> bool:
    return (
        blob.x < _BORDER
        or blob.y < _BORDER
        or blob.x + blob.width > shape[1] - _BORDER
        or blob.y + blob.height > shape[0] - _BORDER
    )
