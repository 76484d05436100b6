"""The camera's and the room's effect on the picture: exposure, white balance, a lamp's
falloff, shadows across the board, vignetting, glare that saturates, blur, noise, JPEG and
sometimes greyscale. Every spatial field is drawn small and resized once."""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from nardy_pi.vision.render.randomised import textures

_NOISE: dict[tuple[int, int], np.ndarray] = {}
_NOISE_SIGMA = 32.0  # the cached noise is uint8 around 128 with this spread


def _add_noise(img: np.ndarray, sigma: float, rng: np.random.Generator) -> np.ndarray:
    """Gaussian-looking sensor noise: a per-size cached noise field, cropped at a random
    offset and scaled (fresh full-size noise costs more than the rest of the photo)."""
    h, w = img.shape[:2]
    key = (h, w)
    if key not in _NOISE:
        field = np.random.default_rng(12345).standard_normal((h + 64, w + 64, 3))
        _NOISE[key] = np.clip(128 + field * _NOISE_SIGMA, 0, 255).astype(np.uint8)
    oy, ox = int(rng.integers(64)), int(rng.integers(64))
    noise = _NOISE[key][oy:oy + h, ox:ox + w]
    k = sigma / _NOISE_SIGMA
    return cv2.addWeighted(img, 1.0, noise, k, -128.0 * k)


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
    glare_shape: tuple[float, float] = (1.0, 0.0)  # axis ratio, angle: lamps are not round
    watermark: int = 0  # seed of a stock-photo watermark, 0 = none
    tone: tuple[float, float] = (1.0, 1.0)  # gamma, contrast: the camera's tone curve

    def perturbed(self, rng: np.random.Generator) -> Photo:
        """The same camera a moment later: light drifts by a few percent, nothing else."""
        gx, gy, gr, gs = self.glare
        lx, ly, strength = self.lamp
        return replace(
            self,
            exposure=self.exposure * float(np.exp(rng.normal(0, 0.05))),
            white_balance=tuple(float(v * np.exp(rng.normal(0, 0.015)))
                                for v in self.white_balance),
            lamp=(lx, ly, float(np.clip(strength + rng.normal(0, 0.05), 0, 0.6))),
            glare=(gx, gy, gr, gs * float(rng.uniform(0.85, 1.15))),
        )

    @staticmethod
    def sample(rng: np.random.Generator, glare_bias: float) -> Photo:
        glare = (0.0, 0.0, 0.0, 0.0)
        if rng.random() < 0.2 + 0.7 * glare_bias:
            glare = (float(rng.uniform(0.15, 0.85)), float(rng.uniform(0.15, 0.85)),
                     float(rng.uniform(0.02, 0.12)), float(rng.uniform(0.5, 1.6)))
        return Photo(
            exposure=float(np.exp(rng.normal(0, 0.2))),
            white_balance=tuple(float(v) for v in np.exp(rng.normal(0, 0.07, 3))),
            vignette=float(rng.uniform(0, 0.45)),
            lamp=(float(rng.uniform(-0.3, 1.3)), float(rng.uniform(-0.3, 1.3)),
                  float(rng.uniform(0, 0.5))),
            shadow=float(rng.uniform(0.25, 0.6)) if rng.random() < 0.25 else 0.0,
            glare=glare,
            glare_shape=(float(rng.uniform(0.4, 1.0)), float(rng.uniform(0, np.pi))),
            blur=float(rng.uniform(0, 1.6)) if rng.random() < 0.6 else 0.0,
            noise=float(rng.uniform(0.5, 8.0)),
            jpeg=int(rng.integers(50, 96)) if rng.random() < 0.9 else None,
            grey=bool(rng.random() < 0.12),
            watermark=int(rng.integers(1, 1 << 30)) if rng.random() < 0.1 else 0,
            tone=(float(np.exp(rng.normal(0, 0.15))), float(np.exp(rng.normal(0, 0.15)))),
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


_WORDS = ("Stock", "PHOTO", "preview", "sample", "(c) images", "watermark", "Adobe Stock")


def _watermark(img: np.ndarray, rng: np.random.Generator) -> None:
    """Semi-transparent repeated text across the picture, as stock photos carry."""
    h, w = img.shape[:2]
    layer = np.zeros((h, w), np.uint8)
    text = str(rng.choice(_WORDS))
    scale = rng.uniform(0.8, 2.2) * w / 1280
    step_x, step_y = int(w * rng.uniform(0.25, 0.5)), int(h * rng.uniform(0.2, 0.4))
    for y in range(int(rng.integers(step_y)), h + step_y, step_y):
        for x in range(-step_x + int(rng.integers(step_x)), w, step_x):
            cv2.putText(layer, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, scale, 255,
                        max(1, int(2 * scale)), cv2.LINE_AA)
    angle = float(rng.uniform(-35, 35))
    m = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    layer = cv2.warpAffine(layer, m, (w, h))
    alpha = float(rng.uniform(0.15, 0.45))
    text = cv2.merge([layer, layer, layer])
    if rng.random() < 0.8:  # light text brightens, dark text darkens (saturating, one pass)
        cv2.addWeighted(img, 1.0, text, alpha, 0.0, dst=img)
    else:
        cv2.addWeighted(img, 1.0, text, -alpha, 0.0, dst=img)


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
        ratio, angle = photo.glare_shape
        dx, dy = xs - gx, (ys - gy) * h / w
        along = dx * np.cos(angle) + dy * np.sin(angle)
        across = -dx * np.sin(angle) + dy * np.cos(angle)
        d2 = along**2 * ratio + across**2 / ratio
        add = np.clip(255.0 * gs * np.exp(-d2 / (gr * gr)), 0, 255).astype(np.uint8)
        add = cv2.resize(add, (w, h), interpolation=cv2.INTER_LINEAR)
        out = cv2.add(out, cv2.merge([add, add, add]))
    if photo.tone != (1.0, 1.0):  # gamma and an S-curve about mid-grey, as one lookup
        gamma, contrast = photo.tone
        x = np.arange(256, dtype=np.float32) / 255.0
        y = 0.5 + (x**gamma - 0.5) * contrast
        out = cv2.LUT(out, np.clip(y * 255.0 + 0.5, 0, 255).astype(np.uint8))
    if photo.blur > 0.3:
        out = cv2.GaussianBlur(out, (0, 0), photo.blur)
    if photo.noise > 0.5:
        out = _add_noise(out, photo.noise, rng)
    if photo.watermark:
        _watermark(out, np.random.default_rng(photo.watermark))
    if photo.grey:
        out = cv2.cvtColor(cv2.cvtColor(out, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    if photo.jpeg:
        _ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, photo.jpeg])
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out
