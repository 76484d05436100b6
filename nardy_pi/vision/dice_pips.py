"""Pips: small dark spots enclosed by a die body.

A pip is darker than the brightest pixels around it (the die's white), so it is found by
comparing each pixel with a local maximum rather than with a global threshold; that keeps
pips on shaded side faces too. Its shape (second moments) tells how the face it sits on is
tilted toward the camera: the top face's pips look round from above, side faces' pips flat.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

from nardy_pi.vision.components import components_with_stats
from nardy_pi.vision.dice_segment import DieBlob

_WHITE_KERNEL = 15  # working pixels: the local white is a maximum over a disc wider than a pip
_DARK_RATIO = 0.7  # a pip pixel is below 70% of the local white (blurred pips are grey)
_MIN_PIP_AREA = 3
_MAX_PIP_AREA_FRACTION = 0.12  # of the die body
# Pips are solid spots; digits (the doubling cube) and rings are not. Tiny spots are too
# pixelated for a strict test.
_MIN_SOLIDNESS = 0.8
_MIN_SOLIDNESS_TINY = 0.6
_TINY_AREA = 20


@dataclass(frozen=True, slots=True)
class Pip:
    """One dark spot in working coordinates, with its moment ellipse."""

    x: float
    y: float
    area: int
    major: float  # ellipse semi-axes (standard deviations), pixels
    minor: float
    minor_angle: float  # direction of the minor axis, degrees in [0, 180), 90 = vertical
    face_brightness: float = 1.0  # the white around the pip / the die's brightest white

    def covariance(self) -> np.ndarray:
        """The 2x2 second-moment matrix the ellipse came from."""
        t = math.radians(self.minor_angle)
        minor_dir = np.array([math.cos(t), math.sin(t)])
        major_dir = np.array([-minor_dir[1], minor_dir[0]])
        return self.minor**2 * np.outer(minor_dir, minor_dir) + self.major**2 * np.outer(
            major_dir, major_dir
        )

    @property
    def solidness(self) -> float:
        """Area over the area of its moment ellipse: ~1 for a solid spot, low for a digit."""
        return self.area / (4.0 * math.pi * self.major * self.minor)

    @property
    def roundness(self) -> float:
        return self.minor / self.major if self.major > 0 else 1.0


def dark_mask(lum: np.ndarray, blob: DieBlob) -> np.ndarray:
    """bool mask over the blob's box: pixels well below their local white level.

    Computed per blob (with a margin for the local maximum) rather than over the whole frame,
    which is most of the reader's cost otherwise.
    """
    margin = _WHITE_KERNEL // 2
    y0, x0 = max(blob.y - margin, 0), max(blob.x - margin, 0)
    y1 = min(blob.y + blob.height + margin, lum.shape[0])
    x1 = min(blob.x + blob.width + margin, lum.shape[1])
    area = lum[y0:y1, x0:x1]
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (_WHITE_KERNEL, _WHITE_KERNEL))
    white = cv2.dilate(area, kernel)
    dark = area.astype(np.float32) < white.astype(np.float32) * _DARK_RATIO
    return dark[blob.y - y0 : blob.y - y0 + blob.height, blob.x - x0 : blob.x - x0 + blob.width]


def blob_pips(blob: DieBlob, lum: np.ndarray) -> list[Pip]:
    """Dark spots inside the blob's outline, with the brightness of the face around each.

    The lit top face is usually the brightest face, so the white ring around a pip says which
    face it is on; the ring ignores other dark pixels and anything outside the die.
    """
    window = (slice(blob.y, blob.y + blob.height), slice(blob.x, blob.x + blob.width))
    dark = dark_mask(lum, blob)
    dark_crop = dark & blob.mask
    lum_crop = lum[window]
    white_crop = blob.mask & ~dark
    die_white = float(np.percentile(lum_crop[white_crop], 95)) if white_crop.any() else 255.0
    count, labels, stats, _ = components_with_stats(dark_crop.astype(np.uint8))
    # Dark pixels on the outline are shadow, background or grazing side-face pips, not pips
    # of the top face, which always keep a white margin.
    inner = cv2.erode(blob.mask.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    outline = blob.mask & ~inner
    on_outline = set(np.unique(labels[outline]).tolist())
    max_area = _MAX_PIP_AREA_FRACTION * blob.area
    ring_kernel = np.ones((5, 5), np.uint8)
    pips: list[Pip] = []
    for i in range(1, count):
        x, y, w, h, area = (int(v) for v in stats[i])
        if area < _MIN_PIP_AREA or area > max_area or i in on_outline:
            continue
        ys, xs = np.nonzero(labels[y : y + h, x : x + w] == i)
        y0, x0 = max(y - 2, 0), max(x - 2, 0)
        near = (slice(y0, y + h + 2), slice(x0, x + w + 2))
        spot = (labels[near] == i).astype(np.uint8)
        ring = cv2.dilate(spot, ring_kernel).astype(bool) & white_crop[near]
        surround = float(np.median(lum_crop[near][ring])) if ring.any() else 0.0
        pip = _moment_ellipse(xs + x + blob.x, ys + y + blob.y)
        if pip.solidness < (_MIN_SOLIDNESS_TINY if area < _TINY_AREA else _MIN_SOLIDNESS):
            continue
        pips.append(replace(pip, face_brightness=surround / max(die_white, 1.0)))
    return pips


def _moment_ellipse(xs: np.ndarray, ys: np.ndarray) -> Pip:
    # The 1/12 term is the variance of one pixel, so tiny blobs do not look like lines.
    cov = np.cov(np.vstack([xs, ys]).astype(np.float64)) + np.eye(2) / 12.0
    values, vectors = np.linalg.eigh(cov)
    minor_dir = vectors[:, 0]
    angle = math.degrees(math.atan2(minor_dir[1], minor_dir[0])) % 180.0
    return Pip(
        x=float(xs.mean()),
        y=float(ys.mean()),
        area=len(xs),
        major=math.sqrt(max(values[1], 1e-6)),
        minor=math.sqrt(max(values[0], 1e-6)),
        minor_angle=angle,
    )
