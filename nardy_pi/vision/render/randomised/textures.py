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


def _blur1d(x: np.ndarray, sigma: float) -> np.ndarray:
    if sigma < 0.3:
        return x
    return cv2.GaussianBlur(x.reshape(-1, 1).astype(np.float32), (1, 0), sigma).ravel()


def wood(h: int, w: int, px_per_unit: float, rng: np.random.Generator,
         vertical: bool = False) -> np.ndarray:
    """Wood grain: thin growth lines of uneven spacing and darkness running along x (or y),
    gently wavy and a little slanted, with fibre streaks and broad colour variation."""
    sh, sw = (w, h) if vertical else (h, w)
    gh, gw = max(8, sh // 2), max(8, sw // 2)
    ppu = px_per_unit / 2.0
    # The profile across the grain: fine lines on top of wider bands.
    n = gh + 4 * gh
    fine = _blur1d(rng.standard_normal(n), max(0.5, ppu * rng.uniform(0.006, 0.02)))
    bands = _blur1d(rng.standard_normal(n), max(1.0, ppu * rng.uniform(0.05, 0.2)))
    profile = fine / (fine.std() + 1e-6) + 0.8 * bands / (bands.std() + 1e-6)
    profile = np.sign(profile) * np.abs(profile) ** 0.7
    yy = np.arange(gh, dtype=np.float32)[:, None]
    xx = np.arange(gw, dtype=np.float32)[None, :]
    warp = smooth_noise(gh, gw, gw / rng.uniform(1.0, 3.0), rng) * ppu * rng.uniform(0.05, 0.5)
    warp += xx * rng.uniform(-0.04, 0.04) + 2 * gh
    coords = np.clip(yy + warp, 0, n - 1.001)
    field = np.interp(coords.ravel(), np.arange(n), profile).reshape(gh, gw).astype(np.float32)
    streak_w = max(2, int(gw / rng.uniform(8, 30)))
    streaks = cv2.resize(rng.standard_normal((gh, streak_w)).astype(np.float32), (gw, gh),
                         interpolation=cv2.INTER_LINEAR)
    out = 0.055 * field + 0.025 * streaks + 0.06 * smooth_noise(gh, gw, gw / 2.5, rng)
    out = cv2.resize(out, (sw, sh), interpolation=cv2.INTER_LINEAR)
    return out.T.copy() if vertical else out


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
