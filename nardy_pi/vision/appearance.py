"""Colour classes learned at calibration (board field, each point colour, bar, checkers...).

A pixel is classified by Mahalanobis distance to each class; a 64-level-per-channel lookup
table makes that a single indexing operation per frame. A pixel far from every class is
"unexplained": a hand, a die, a sleeve.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

_LEVELS = 64
_STEP = 256 // _LEVELS
UNEXPLAINED_DISTANCE = 5.0
RELATIVE_FLOOR = 0.04  # Mahalanobis units; beyond this no learned class fits


@dataclass(frozen=True, slots=True)
class ColourClass:
    name: str
    mean: tuple[float, float, float]
    cov: tuple[tuple[float, float, float], ...]


def fit_class(name: str, pixels: np.ndarray, keep_share: float = 0.9,
              floor: float = 9.0) -> ColourClass:
    """Robust mean and covariance of N x 3 BGR samples, trimmed to the `keep_share` nearest
    the median (lower when the samples are known to hold rims)."""
    pix = np.asarray(pixels, np.float64).reshape(-1, 3)
    if len(pix) < 20:
        raise ValueError(f"calibration found too few pixels of {name!r} to learn its colour")
    med = np.median(pix, axis=0)
    dist = np.linalg.norm(pix - med, axis=1)
    keep = pix[dist <= np.quantile(dist, keep_share)]
    mean = keep.mean(axis=0)
    # Floors: camera noise never goes away, and lighting is never corrected perfectly (a few
    # percent of the level), which matters most when a class was sampled in one spot only.
    cov = np.cov(keep.T) + np.diag(floor + (RELATIVE_FLOOR * mean) ** 2)
    return ColourClass(name, tuple(mean), tuple(map(tuple, cov)))


@dataclass(frozen=True)
class ColourModel:
    classes: tuple[ColourClass, ...]
    _lut: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.classes)

    def index(self, name: str) -> int:
        return self.names.index(name)

    def _tables(self) -> tuple[np.ndarray, np.ndarray]:
        if "labels" not in self._lut:
            self._lut["labels"], self._lut["dist"] = _colour_tables(self.classes)
        return self._lut["labels"], self._lut["dist"]

    def classify(self, bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per pixel: class index and distance to that class."""
        labels, dist = self._tables()
        q = (bgr // _STEP).astype(np.int32)
        idx = (q[..., 0] * _LEVELS + q[..., 1]) * _LEVELS + q[..., 2]
        return labels[idx], dist[idx]

    def alike(self, limit: float = 3.0) -> np.ndarray:
        """K x K: classes whose colours a pixel cannot tell apart (the two cream point
        colours of the two rows, field and tray...)."""
        k = len(self.classes)
        out = np.eye(k, dtype=bool)
        for i, a in enumerate(self.classes):
            for j, b in enumerate(self.classes[:i]):
                diff = np.array(a.mean) - np.array(b.mean)
                cov = np.array(a.cov) + np.array(b.cov)
                out[i, j] = out[j, i] = float(diff @ np.linalg.solve(cov, diff)) < limit**2
        return out

    def to_json(self) -> dict:
        return {c.name: {"mean": list(c.mean), "cov": [list(r) for r in c.cov]}
                for c in self.classes}

    @staticmethod
    def from_json(data: dict) -> ColourModel:
        return ColourModel(tuple(
            ColourClass(name, tuple(v["mean"]), tuple(tuple(r) for r in v["cov"]))
            for name, v in data.items()
        ))


@lru_cache(maxsize=8)
def _colour_tables(classes: tuple[ColourClass, ...]) -> tuple[np.ndarray, np.ndarray]:
    """The lookup table over the 64^3 colour grid: nearest class and its distance.

    Built once per process for a set of classes (an Observer per frame size, a calibration
    tried on several outlines, `analyze` right after `calibrate`). The quadratic form is
    expanded over the three axes and broadcast, ~30x faster than a per-cell product; the
    first class wins a tie, as argmin would have it.
    """
    centres = (np.arange(_LEVELS) * _STEP + _STEP / 2).astype(np.float64)
    best = labels = None
    for k, cls in enumerate(classes):
        inv = np.linalg.inv(np.array(cls.cov))
        b, g, r = (centres - m for m in cls.mean)
        b, g, r = b[:, None, None], g[None, :, None], r[None, None, :]
        d2 = ((inv[0, 0] * b * b + inv[1, 1] * g * g) + inv[2, 2] * r * r
              + (inv[0, 1] + inv[1, 0]) * b * g + (inv[0, 2] + inv[2, 0]) * b * r
              + (inv[1, 2] + inv[2, 1]) * g * r).reshape(-1)
        if best is None or labels is None:
            best, labels = d2, np.zeros(d2.shape, np.uint8)
        else:
            closer = d2 < best
            best[closer] = d2[closer]
            labels[closer] = k
    if best is None or labels is None:
        raise ValueError("a colour model needs at least one class")
    labels.setflags(write=False)
    dist = np.sqrt(best).astype(np.float32)
    dist.setflags(write=False)
    return labels, dist
