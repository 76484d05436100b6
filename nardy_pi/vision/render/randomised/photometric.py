"""The camera's and the room's effect on the picture: exposure, white balance, a lamp's
falloff, shadows across the board, vignetting, glare that saturates, blur, noise, JPEG and
sometimes greyscale. Every spatial field is drawn small and resized once."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from nardy_pi.vision.render.randomised import textures

_NOISE_TILE: dict[int, np.ndarray] = {}


def _noise(h: int, w: int, sigma: float, rng: np.random.Generator) -> np.ndarray:
    """h x w x 3 int16 noise: a fixed unit-noise tile, scaled and shifted per image (fresh
    full-size Gaussian noise costs more than the rest of the photo)."""
    if 0 not in _NOISE_TILE:
        _NOISE_TILE[0] = np.random.default_rng(12345).standard_normal((256, 256, 3)).astype(
            np.float32)
    tile = np.round(_NOISE_TILE[0] * sigma).astype(np.int16)
    big = cv2.repeat(tile, h // 256 + 2, w // 256 + 2)
    oy, ox = int(rng.integers(256)), int(rng.integers(256))
    return big[oy:oy + h, ox:ox + w]


@dataclass(frozen=True, slots=True)
class Photo:
    exposure: float
    white_balance: tuple[float, float, float]
    vignette: float
    lamp: tuple[float, float, float]  # x, y (image share), strength of the falloff
    shadow: float  # darkness of a shadow across the board (0 = none)
    glare: tuple[float, float, float, float]  # x, y (image share), radius share, strength
    blur: float
    noise: float
    jpeg: int | None
    grey: bool

    @staticmethod
    def sample(rng: np.random.Generator, glare_bias: float) -> Photo:
        glare = (0.0, 0.0, 0.0, 0.0)
        if rng.random() < 0.2 + 0.7 * glare_bias:
            glare = (float(rng.uniform(0.15, 0.85)), float(rng.uniform(0.15, 0.85)),
                     float(rng.uniform(0.04, 0.18)), float(rng.uniform(0.5, 1.6)))
        return Photo(
            exposure=float(np.exp(rng.normal(0, 0.2))),
            white_balance=tuple(float(v) for v in np.exp(rng.normal(0, 0.07, 3))),
            vignette=float(rng.uniform(0, 0.45)),
            lamp=(float(rng.uniform(-0.3, 1.3)), float(rng.uniform(-0.3, 1.3)),
                  float(rng.uniform(0, 0.5))),
            shadow=float(rng.uniform(0.25, 0.6)) if rng.random() < 0.25 else 0.0,
            glare=glare,
            blur=float(rng.uniform(0, 1.6)) if rng.random() < 0.6 else 0.0,
            noise=float(rng.uniform(0.5, 8.0)),
            jpeg=int(rng.integers(50, 96)) if rng.random() < 0.9 else None,
            grey=bool(rng.random() < 0.12),
        )


def _shadow_mask(h: int, w: int, rng: np.random.Generator) -> np.ndarray:
    """A soft shadow of something off-picture (a head, an arm, a lamp arm): one or two
    random blobs or a band, at low resolution."""
    mask = np.zeros((h, w), np.float32)
    for _ in range(int(rng.integers(1, 3))):
        if rng.random() < 0.5:
            c = rng.uniform(0, 1, 2) * (w, h)
            axes = rng.uniform(0.15, 0.5, 2) * (w, h)
            cv2.ellipse(mask, (int(c[0]), int(c[1])), (int(axes[0]), int(axes[1])),
                        float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
        else:
            p = rng.uniform(0, 1, (4, 2)) * (w, h)
            cv2.fillConvexPoly(mask, p.astype(np.int32), 1.0)
    return cv2.GaussianBlur(mask, (0, 0), max(1.0, rng.uniform(0.02, 0.08) * w))


def apply_photo(img: np.ndarray, photo: Photo, rng: np.random.Generator) -> np.ndarray:
    h, w = img.shape[:2]
    sh, sw = max(4, h // 8), max(4, w // 8)
    ys = (np.arange(sh, dtype=np.float32)[:, None] + 0.5) / sh
    xs = (np.arange(sw, dtype=np.float32)[None, :] + 0.5) / sw
    gain = np.full((sh, sw), photo.exposure, np.float32)
    gain *= 1.0 - photo.vignette * ((xs - 0.5) ** 2 + (ys - 0.5) ** 2) * 2
    lx, ly, strength = photo.lamp
    gain *= 1.0 - strength * np.clip(np.sqrt((xs - lx) ** 2 + (ys - ly) ** 2) - 0.2, 0, 1)
    if photo.shadow > 0:
        gain *= 1.0 - photo.shadow * _shadow_mask(sh, sw, rng)
    gain *= 1.0 + 0.04 * textures.smooth_noise(sh, sw, sw / 3, rng)
    # Gains are applied in 8 bits at 1/64 steps (0..4x); the noise added after dithers them.
    gains = np.stack([gain * wb for wb in photo.white_balance], axis=-1)
    small = np.clip(gains * 64.0, 0, 255).astype(np.uint8)
    out = cv2.multiply(img, cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR),
                       scale=1 / 64.0)
    gx, gy, gr, gs = photo.glare
    if gs > 0:  # a lamp's reflection: saturates in its core
        d2 = (xs - gx) ** 2 + ((ys - gy) * h / w) ** 2
        add = np.clip(255.0 * gs * np.exp(-d2 / (gr * gr)), 0, 255).astype(np.uint8)
        add = cv2.resize(add, (w, h), interpolation=cv2.INTER_LINEAR)
        out = cv2.add(out, cv2.merge([add, add, add]))
    if photo.blur > 0.3:
        out = cv2.GaussianBlur(out, (0, 0), photo.blur)
    if photo.noise > 0.5:
        out = cv2.add(out, _noise(h, w, photo.noise, rng), dtype=cv2.CV_8U)
    if photo.grey:
        out = cv2.cvtColor(cv2.cvtColor(out, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    if photo.jpeg:
        _ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, photo.jpeg])
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out
