"""Procedural material fields: multiplicative brightness maps around 0, drawn at low resolution
and resized, so a full canvas costs a few milliseconds."""

from __future__ import annotations

import cv2
import numpy as np


def smooth_noise(h: int, w: int, cell: float, rng: np.random.Generator) -> np.ndarray:
    """Zero-mean, unit-ish noise with features about `cell` pixels across (float32)."""
    gh, gw = max(2, int(h / cell) + 2), max(2, int(w / cell) + 2)
    grid = rng.standard_normal((gh, gw)).astype(np.float32)
    return cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC)


def wood(h: int, w: int, px_per_unit: float, rng: np.random.Generator,
         vertical: bool = False) -> np.ndarray:
    """Wood grain: wavy growth lines along x (or y), with fibres and a little figure."""
    sh, sw = (w, h) if vertical else (h, w)
    small_h, small_w = max(8, sh // 2), max(8, sw // 2)
    ys = np.arange(small_h, dtype=np.float32)[:, None] * (2.0 / px_per_unit)
    warp = smooth_noise(small_h, small_w, small_w / rng.uniform(1.5, 4), rng) * rng.uniform(
        0.3, 1.2)
    warp += smooth_noise(small_h, small_w, small_w / 12, rng) * 0.08
    period = rng.uniform(0.12, 0.45)  # board units between growth lines
    phase = (ys + warp) / period
    lines = np.sin(phase * 2 * np.pi) + 0.5 * np.sin(phase * 4.1 * np.pi + 1.3)
    lines = np.sign(lines) * np.abs(lines) ** 0.6
    fibre = cv2.resize(rng.standard_normal((small_h, max(2, small_w // 8))).astype(np.float32),
                       (small_w, small_h), interpolation=cv2.INTER_LINEAR)
    field = 0.09 * lines + 0.035 * fibre
    field += 0.06 * smooth_noise(small_h, small_w, small_w / 3, rng)
    field = cv2.resize(field, (sw, sh), interpolation=cv2.INTER_LINEAR)
    return field.T.copy() if vertical else field


def felt(h: int, w: int, rng: np.random.Generator) -> np.ndarray:
    fine = cv2.resize(rng.standard_normal((max(2, h // 2), max(2, w // 2))).astype(np.float32),
                      (w, h), interpolation=cv2.INTER_LINEAR)
    return 0.035 * fine + 0.04 * smooth_noise(h, w, max(h, w) / 10, rng)


def leather(h: int, w: int, rng: np.random.Generator) -> np.ndarray:
    cells = smooth_noise(h, w, 5, rng)
    creases = np.abs(cells) < 0.25
    return 0.04 * smooth_noise(h, w, max(h, w) / 8, rng) - 0.07 * creases.astype(np.float32)


def cork(h: int, w: int, rng: np.random.Generator) -> np.ndarray:
    speck = cv2.resize(rng.standard_normal((max(2, h // 3), max(2, w // 3))).astype(np.float32),
                       (w, h), interpolation=cv2.INTER_NEAREST)
    return 0.09 * np.clip(speck, -2, 2) + 0.04 * smooth_noise(h, w, 40, rng)


def material_field(kind: str, h: int, w: int, px_per_unit: float, rng: np.random.Generator,
                   vertical: bool = False) -> np.ndarray:
    if kind == "wood":
        return wood(h, w, px_per_unit, rng, vertical)
    if kind == "felt":
        return felt(h, w, rng)
    if kind == "leather":
        return leather(h, w, rng)
    if kind == "cork":
        return cork(h, w, rng)
    return 0.015 * smooth_noise(h, w, max(h, w) / 6, rng)  # painted: a faint unevenness
