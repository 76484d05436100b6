"""Checkers as 3-D cylinders: a side wall from the projected bottom and top circles, and a
top face textured (rims, rings, grooves, grain, marble, a glossy highlight) and warped into
place through the homography of its own height, so stacked layers show real parallax."""

from __future__ import annotations

import cv2
import numpy as np

from nardy_pi.vision.render.randomised import textures
from nardy_pi.vision.render.randomised.camera import Camera
from nardy_pi.vision.render.randomised.stacks import PlacedChecker

TEX = 72  # checker top texture side, pixels
_ANGLES = np.linspace(0, 2 * np.pi, 28, endpoint=False)
_CIRCLE = np.column_stack([np.cos(_ANGLES), np.sin(_ANGLES)])


def _shade(c, f: float) -> np.ndarray:
    return np.clip(np.asarray(c, np.float32) * f, 0, 255)


def top_texture(colour, finish: str, gloss: float, rng: np.random.Generator) -> np.ndarray:
    """A checker's top face: BGRA uint8, TEX x TEX, alpha 0 outside the disc."""
    n = TEX
    yy, xx = (np.mgrid[0:n, 0:n].astype(np.float32) + 0.5) / n * 2 - 1
    r = np.sqrt(xx**2 + yy**2)
    base = np.asarray(colour, np.float32)
    dark = float(base.mean()) < 110
    field = np.ones((n, n), np.float32)
    contrast = rng.uniform(0.05, 0.2)
    if finish == "rim":
        width = rng.uniform(0.12, 0.25)
        field += np.where(r > 1 - width, contrast * (1 if dark else -1), 0)
    elif finish == "rings":
        for ring in rng.uniform(0.3, 0.9, int(rng.integers(1, 4))):
            field -= contrast * np.exp(-((r - ring) / 0.03) ** 2)
    elif finish == "grooves":
        field += contrast * 0.6 * np.sin(r * rng.uniform(18, 40)) * (r > 0.2)
    elif finish == "wood":
        field += textures.wood(n, n, n / 2.0, rng) * 1.5
    elif finish == "marble":
        veins = np.abs(textures.smooth_noise(n, n, n / 4, rng)) < 0.12
        field += textures.smooth_noise(n, n, n / 6, rng) * 0.05 - 0.15 * veins
    field -= 0.06 * r**2  # the edge rounds off
    img = base[None, None, :] * field[..., None]
    if gloss > 0.05:  # a soft highlight on the lamp side
        hx, hy = rng.uniform(-0.5, 0.5, 2)
        spot = np.exp(-(((xx - hx) ** 2 + (yy - hy) ** 2) / rng.uniform(0.03, 0.12)))
        img += (255 - img) * (gloss * 0.7 * spot)[..., None]
    alpha = np.clip((1.0 - r) * n / 2.0, 0, 1)
    return np.dstack([np.clip(img, 0, 255), alpha * 255]).astype(np.uint8)


def paste(img: np.ndarray, tex: np.ndarray, h_tex: np.ndarray, quad: np.ndarray,
          mask: np.ndarray | None = None) -> None:
    """Warp the BGRA `tex` into `img` where `h_tex` (texture px -> image px) puts it;
    `quad` (image points) bounds it. `mask` gets True where it covers."""
    hgt, wid = img.shape[:2]
    x0 = max(0, int(np.floor(quad[:, 0].min())) - 1)
    y0 = max(0, int(np.floor(quad[:, 1].min())) - 1)
    x1 = min(wid, int(np.ceil(quad[:, 0].max())) + 2)
    y1 = min(hgt, int(np.ceil(quad[:, 1].max())) + 2)
    if x1 <= x0 or y1 <= y0:
        return
    shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], float)
    m = shift @ h_tex
    size = (x1 - x0, y1 - y0)
    patch = cv2.warpPerspective(tex, m, size, flags=cv2.INTER_LINEAR)
    a = patch[..., 3:].astype(np.float32) * (1 / 255.0)
    roi = img[y0:y1, x0:x1]
    roi[:] = (roi * (1 - a) + patch[..., :3] * a).astype(np.uint8)
    if mask is not None:
        mask[y0:y1, x0:x1] |= patch[..., 3] > 127


class CheckerPainter:
    def __init__(self, style, diameter: float, thickness: float, rng: np.random.Generator):
        self.r = diameter / 2
        self.t = thickness
        self.tex = {
            True: top_texture(style.light, style.checker_finish, style.gloss, rng),
            False: top_texture(style.dark, style.checker_finish, style.gloss, rng),
        }
        self.colour = {True: np.asarray(style.light, np.float32),
                       False: np.asarray(style.dark, np.float32)}
        self.wall_shade = float(rng.uniform(0.55, 0.8))

    def shadow_polygon(self, c: PlacedChecker, light_dir: np.ndarray) -> np.ndarray:
        """The checker's cast shadow on the surface (board units), for a light from
        `light_dir` (x, y per unit of height)."""
        top = c.z + (self.r * 2 if c.on_edge else self.t)
        ring = _CIRCLE * self.r + (c.x, c.y)
        pts = np.vstack([ring + light_dir * c.z, ring + light_dir * top])
        return cv2.convexHull(pts.astype(np.float32)).reshape(-1, 2)

    def draw(self, img: np.ndarray, cam: Camera, c: PlacedChecker) -> None:
        if c.on_edge:
            self._draw_on_edge(img, cam, c)
            return
        colour = self.colour[c.white]
        ring = _CIRCLE * self.r + (c.x, c.y)
        bottom = cam.project(np.column_stack([ring, np.full(len(ring), c.z)]))
        top_z = c.z + self.t
        top = cam.project(np.column_stack([ring, np.full(len(ring), top_z)]))
        hull = cv2.convexHull(np.vstack([bottom, top]).astype(np.float32)).reshape(-1, 2)
        wall = _shade(colour, self.wall_shade)
        cv2.fillPoly(img, [np.round(hull * 16).astype(np.int32)], wall.tolist(), cv2.LINE_AA, 4)
        # A thin dark seam where this checker rests on another or on the board.
        cv2.polylines(img, [np.round(bottom * 16).astype(np.int32)], True,
                      _shade(wall, 0.6).tolist(), 1, cv2.LINE_AA, 4)
        tex = self.tex[c.white]
        a = c.turn
        ca, sa = np.cos(a), np.sin(a)
        s = 2 * self.r / TEX
        tex_to_board = np.array([[ca * s, -sa * s, c.x - self.r * (ca - sa)],
                                 [sa * s, ca * s, c.y - self.r * (sa + ca)], [0, 0, 1]])
        paste(img, tex, cam.homography(top_z) @ tex_to_board, top)

    def _draw_on_edge(self, img: np.ndarray, cam: Camera, c: PlacedChecker) -> None:
        """Standing on its rim across the tray: a disc in the x-z plane, `t` thick along y."""
        colour = self.colour[c.white]
        disc = np.column_stack([c.x + _CIRCLE[:, 0] * self.r, np.zeros(len(_CIRCLE)),
                                self.r + _CIRCLE[:, 1] * self.r])
        near = disc + np.array([0, c.y + self.t / 2, 0])
        far = disc + np.array([0, c.y - self.t / 2, 0])
        pn, pf = cam.project(near), cam.project(far)
        hull = cv2.convexHull(np.vstack([pn, pf]).astype(np.float32)).reshape(-1, 2)
        cv2.fillPoly(img, [np.round(hull * 16).astype(np.int32)],
                     _shade(colour, self.wall_shade).tolist(), cv2.LINE_AA, 4)
        face = pn if cam.depth(near[:1])[0] < cam.depth(far[:1])[0] else pf
        cv2.fillPoly(img, [np.round(face * 16).astype(np.int32)], _shade(colour, 0.9).tolist(),
                     cv2.LINE_AA, 4)
        cv2.polylines(img, [np.round(face * 16).astype(np.int32)], True,
                      _shade(colour, 0.6).tolist(), 1, cv2.LINE_AA, 4)

    def top_centre(self, c: PlacedChecker) -> np.ndarray:
        return np.array([c.x, c.y, c.z + (2 * self.r if c.on_edge else self.t)])
