"""Which pips belong to the top face.

Seen from above and a little from the side, a flat die's silhouette is its top face swept
down by the projected height of a vertical edge. With an affine camera the top face's vertical
extent is the silhouette width times sin(elevation), and the elevation shows in the top face's
pips: a circle on a horizontal face looks flattened by exactly sin(elevation). So each column's
near top edge lies one side-face height above the silhouette bottom, and pips above it are on
the top face. Pips of one face share one shape and size, the lit top face is usually the
brightest, and side-face pips look flatter than the top's when the camera is high. A small
perceptron (12 tanh units, weights in models/dice_top_face.npz, fitted on the real photos by
bench/train_dice_model.py) weighs these cues per pip.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from nardy_pi.vision.dice_pips import Pip
from nardy_pi.vision.dice_segment import DieBlob

MODEL_PATH = Path(__file__).with_name("models") / "dice_top_face.npz"
FEATURE_NAMES = (
    "above_near_edge",  # (height above silhouette bottom - side height) / width
    "below_top_edge",  # (y - silhouette top in that column) / width
    "roundness",  # minor / major axis of the pip
    "roundness_change",  # |log(roundness / roundness of the die's topmost pip)|
    "shape_difference",  # moment-ellipse distance from the topmost pip (same face: same shape)
    "area_change",  # |log(area / area of the topmost pip)|
    "below_topmost",  # (y - topmost pip's y) / width
    "beside_topmost",  # |x - topmost pip's x| / width
    "tilt",  # angle of the minor axis from the vertical / 90 degrees
    "pip_count",  # pips found on the die / 6
    "face_brightness",  # white around the pip / the die's brightest white
)


@dataclass(frozen=True, slots=True)
class TopFaceModel:
    """A one-hidden-layer perceptron over standardised FEATURE_NAMES.

    A pip is on the top face when the score is > 0. Small enough to run in numpy per frame.
    """

    mean: np.ndarray
    std: np.ndarray
    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: float

    def scores(self, features: np.ndarray) -> np.ndarray:
        hidden = np.tanh(((features - self.mean) / self.std) @ self.w1 + self.b1)
        return hidden @ self.w2 + self.b2

    def save(self, path: Path, **extra: object) -> None:
        np.savez(path, mean=self.mean, std=self.std, w1=self.w1, b1=self.b1, w2=self.w2,
                 b2=np.float64(self.b2), feature_names=np.array(FEATURE_NAMES), **extra)


@cache
def default_model() -> TopFaceModel:
    return load_model(MODEL_PATH)


def load_model(path: Path) -> TopFaceModel:
    with np.load(path) as data:
        names = tuple(str(n) for n in data["feature_names"])
        if names != FEATURE_NAMES:
            raise ValueError(f"{path.name} was trained on other features: {names}")
        return TopFaceModel(
            mean=data["mean"], std=data["std"], w1=data["w1"], b1=data["b1"], w2=data["w2"],
            b2=float(data["b2"]),
        )


def pip_features(blob: DieBlob, pips: list[Pip]) -> np.ndarray:
    """One row of FEATURE_NAMES per pip."""
    mask = blob.mask
    columns = mask.any(axis=0)
    top = np.where(columns, mask.argmax(axis=0), 0)
    bottom = np.where(columns, mask.shape[0] - 1 - mask[::-1].argmax(axis=0), 0)
    width = float(max(int(columns.sum()), 1))
    height = float((bottom - top + 1)[columns].max()) if columns.any() else 1.0
    topmost = min(pips, key=lambda p: p.y)
    top_roundness = max(topmost.roundness, 0.05)
    side_height = height - width * top_roundness
    rows = []
    for pip in pips:
        col = int(np.clip(round(pip.x) - blob.x, 0, mask.shape[1] - 1))
        y = pip.y - blob.y
        rows.append(
            (
                ((bottom[col] - y) - side_height) / width,
                (y - top[col]) / width,
                pip.roundness,
                abs(float(np.log(max(pip.roundness, 0.05) / top_roundness))),
                _shape_difference(pip, topmost),
                abs(float(np.log(pip.area / topmost.area))),
                (pip.y - topmost.y) / width,
                abs(pip.x - topmost.x) / width,
                abs(pip.minor_angle - 90.0) / 90.0,
                len(pips) / 6.0,
                pip.face_brightness,
            )
        )
    return np.asarray(rows, dtype=np.float64)


def _shape_difference(pip: Pip, anchor: Pip) -> float:
    """Frobenius distance of the two moment ellipses, relative to the anchor's size."""
    a, b = pip.covariance(), anchor.covariance()
    return float(np.linalg.norm(a - b) / max(np.trace(b), 1e-6))


def top_face_pips(blob: DieBlob, pips: list[Pip], model: TopFaceModel) -> tuple[list[Pip], float]:
    """The pips the model places on the top face (the topmost pip always is), and the
    probability that every pip of the die was placed right."""
    if not pips:
        return [], 0.0
    scores = model.scores(pip_features(blob, pips))
    chosen = [p for p, s in zip(pips, scores, strict=True) if s > 0]
    sure = float(np.prod(1.0 / (1.0 + np.exp(-np.abs(np.clip(scores, -30, 30))))))
    return (chosen or [min(pips, key=lambda p: p.y)]), sure
