"""Fitting and cross-validating the top-face pip model on labelled photos.

Per-pip targets come from the labels: where a label box covers only the top face, the pips
inside it are top-face pips and the die's other pips are not (whole-die boxes are skipped).
Cross-validation splits by photo, so each fold's model reads dice only in photos it never saw.
Used by bench/train_dice_model.py, bench/bench_dice_photos.py and the tests; never at runtime.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from nardy_pi.vision.dice import die_candidates, find_dice
from nardy_pi.vision.dice_labels import LabelledPhoto, Tally, score_photo
from nardy_pi.vision.dice_topface import FEATURE_NAMES, TopFaceModel, pip_features

_TOP_ONLY_BOX = 0.6  # label box smaller than this share of the die's box: top face only
_L2 = 1e-3
_LEARNING_RATE = 0.01


@dataclass(frozen=True, slots=True)
class PipExamples:
    """Features (one row per pip) and 1.0 / 0.0 top-face targets of one photo."""

    features: np.ndarray
    targets: np.ndarray


def pip_examples(photo: LabelledPhoto, image: np.ndarray) -> PipExamples:
    """Training rows for the pips of the photo's dice that have top-face-only label boxes."""
    scale, candidates = die_candidates(image)
    rows, targets = [], []
    for label in photo.labels:
        cx, cy = label.center[0] * scale, label.center[1] * scale
        hw, hh = label.size[0] * scale / 2 + 1, label.size[1] * scale / 2 + 1
        for blob, pips in candidates:
            inside = blob.x <= cx <= blob.x + blob.width and blob.y <= cy <= blob.y + blob.height
            if not inside:
                continue
            if 4 * hw * hh <= _TOP_ONLY_BOX * blob.width * blob.height:
                rows.append(pip_features(blob, pips))
                targets.extend(float(abs(p.x - cx) <= hw and abs(p.y - cy) <= hh) for p in pips)
            break
    if not rows:
        return PipExamples(np.zeros((0, len(FEATURE_NAMES))), np.zeros(0))
    return PipExamples(np.vstack(rows), np.asarray(targets))


def fit_model(examples: Sequence[PipExamples], hidden: int = 12, seed: int = 0,
              steps: int = 2000) -> TopFaceModel:
    """Full-batch Adam on the logistic loss of a one-hidden-layer tanh perceptron."""
    x = np.vstack([e.features for e in examples])
    y = np.concatenate([e.targets for e in examples])
    rng = np.random.default_rng(seed)
    mean, std = x.mean(axis=0), x.std(axis=0) + 1e-6
    z = (x - mean) / std
    params = [
        rng.normal(0, 1 / np.sqrt(z.shape[1]), (z.shape[1], hidden)),
        np.zeros(hidden),
        rng.normal(0, 1 / np.sqrt(hidden), hidden),
        np.zeros(1),
    ]
    moments = [np.zeros_like(p) for p in params]
    squares = [np.zeros_like(p) for p in params]
    for step in range(1, steps + 1):
        w1, b1, w2, b2 = params
        h = np.tanh(z @ w1 + b1)
        p = 1.0 / (1.0 + np.exp(-np.clip(h @ w2 + b2[0], -30, 30)))
        d_out = (p - y) / len(y)
        d_h = np.outer(d_out, w2) * (1 - h**2)
        grads = [z.T @ d_h + _L2 * w1, d_h.sum(axis=0), h.T @ d_out + _L2 * w2,
                 np.array([d_out.sum()])]
        for i, g in enumerate(grads):
            moments[i] = 0.9 * moments[i] + 0.1 * g
            squares[i] = 0.999 * squares[i] + 0.001 * g**2
            m_hat = moments[i] / (1 - 0.9**step)
            v_hat = squares[i] / (1 - 0.999**step)
            params[i] = params[i] - _LEARNING_RATE * m_hat / (np.sqrt(v_hat) + 1e-8)
    w1, b1, w2, b2 = params
    return TopFaceModel(mean=mean, std=std, w1=w1, b1=b1, w2=w2, b2=float(b2[0]))


def evaluate(photos: Sequence[LabelledPhoto], images: Sequence[np.ndarray],
             model: TopFaceModel | None = None) -> Tally:
    """Read every photo and tally against its labels (model None: the shipped one)."""
    tally = Tally()
    for photo, image in zip(photos, images, strict=True):
        tally.add(photo.labels, score_photo(photo.labels, find_dice(image, model=model)))
    return tally


def cross_validate(photos: Sequence[LabelledPhoto], images: Sequence[np.ndarray],
                   folds: int = 5, seed: int = 0, hidden: int = 12) -> Tally:
    """k-fold by photo: every photo is read by a model that was fitted without it."""
    examples = [pip_examples(p, im) for p, im in zip(photos, images, strict=True)]
    order = np.random.default_rng(seed).permutation(len(photos))
    fold_of = np.empty(len(photos), dtype=int)
    fold_of[order] = np.arange(len(photos)) % folds
    held_out = Tally()
    for k in range(folds):
        model = fit_model([examples[i] for i in np.flatnonzero(fold_of != k)], hidden, seed)
        test = np.flatnonzero(fold_of == k)
        held_out.merge([evaluate([photos[i] for i in test], [images[i] for i in test], model)])
    return held_out
