"""Dice and the doubling cube as 3-D boxes: every visible face is a textured square warped
through its own projection, so side faces show their pips (opposite faces sum to 7) under
tilt, a cocked die shows two or three faces, and a die on a checker rides at its height."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from nardy_pi.vision.render.pips import PIP_LAYOUT
from nardy_pi.vision.render.randomised.camera import Camera
from nardy_pi.vision.render.randomised.checkers import paste

FACE_TEX = 48
CUBE_FACES = (2, 4, 8, 16, 32, 64)

# Unit-cube faces: (normal, first in-face axis, second in-face axis). Board axes are x right,
# y down, height up, so a face's texture reads unmirrored from outside when a x b = normal.
# A die's face k of this table shows DIE_FACE_VALUES[k]; opposite faces sum to 7.
_FACES = (
    (np.array([0, 0, 1.0]), np.array([1.0, 0, 0]), np.array([0, 1.0, 0])),
    (np.array([0, 0, -1.0]), np.array([1.0, 0, 0]), np.array([0, -1.0, 0])),
    (np.array([1.0, 0, 0]), np.array([0, -1.0, 0]), np.array([0, 0, -1.0])),
    (np.array([-1.0, 0, 0]), np.array([0, 1.0, 0]), np.array([0, 0, -1.0])),
    (np.array([0, 1.0, 0]), np.array([1.0, 0, 0]), np.array([0, 0, -1.0])),
    (np.array([0, -1.0, 0]), np.array([-1.0, 0, 0]), np.array([0, 0, -1.0])),
)
DIE_FACE_VALUES = (1, 6, 2, 5, 3, 4)
CUBE_FACE_VALUES = (2, 64, 4, 32, 8, 16)


def _rot(axis: np.ndarray, angle: float) -> np.ndarray:
    axis = axis / np.linalg.norm(axis)
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    return np.eye(3) + np.sin(angle) * k + (1 - np.cos(angle)) * (k @ k)


def face_up(values: tuple[int, ...], value: int) -> np.ndarray:
    """A rotation that turns the face showing `value` to point up (+height)."""
    n = _FACES[values.index(value)][0]
    up = np.array([0, 0, 1.0])
    if np.allclose(n, up):
        return np.eye(3)
    if np.allclose(n, -up):
        return _rot(np.array([1.0, 0, 0]), np.pi)
    axis = np.cross(n, up)
    return _rot(axis, float(np.arccos(np.clip(np.dot(n, up), -1, 1))))


def _rounded_alpha(n: int, radius: float) -> np.ndarray:
    yy, xx = (np.mgrid[0:n, 0:n].astype(np.float32) + 0.5) / n * 2 - 1
    q = np.maximum(np.abs(np.stack([xx, yy])) - (1 - radius), 0)
    d = np.sqrt((q**2).sum(0)) - radius
    return np.clip(-d * n / 2, 0, 1)


@lru_cache(maxsize=256)
def _die_face_masks(value: int, radius: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(edge shading, pip coverage, rounded-square coverage) of one face, FACE_TEX square."""
    n = FACE_TEX
    yy, xx = (np.mgrid[0:n, 0:n].astype(np.float32) + 0.5) / n * 2 - 1
    shading = 1.0 - 0.12 * (np.maximum(np.abs(xx), np.abs(yy)) ** 6)
    pips = np.zeros((n, n), np.float32)
    pr = 0.17 if value < 6 else 0.15
    for a, b in PIP_LAYOUT[value]:
        d = np.sqrt((xx - a * 0.5) ** 2 + (yy - b * 0.5) ** 2)
        pips = np.maximum(pips, np.clip((pr - d) * n / 2, 0, 1))
    return shading, pips, _rounded_alpha(n, radius)


def die_face(value: int, body, pips, radius: float, translucent: bool) -> np.ndarray:
    """BGRA texture of one die face with `value` pips."""
    shading, pip, body_alpha = _die_face_masks(value, radius)
    p = pip[..., None]
    img = np.asarray(body, np.float32) * shading[..., None] * (1 - p) + np.asarray(
        pips, np.float32) * p
    alpha = np.maximum(body_alpha * (0.72 if translucent else 1.0), pip)
    return np.dstack([np.clip(img, 0, 255), alpha * 255]).astype(np.uint8)


@lru_cache(maxsize=64)
def _cube_face_masks(value: int, radius: float) -> tuple[np.ndarray, np.ndarray]:
    """(ink coverage, rounded-square coverage) of one cube face, 2 * FACE_TEX square."""
    n = FACE_TEX * 2
    ink = np.zeros((n, n), np.uint8)
    text = str(value)
    scale = n / 46.0 * (1.0 if len(text) == 1 else 0.72)
    thick = max(2, n // 22)
    (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
    cv2.putText(ink, text, ((n - tw) // 2, (n + th) // 2), cv2.FONT_HERSHEY_SIMPLEX, scale,
                255, thick, cv2.LINE_AA)
    return ink.astype(np.float32) / 255.0, _rounded_alpha(n, radius)


def cube_face(value: int, body, ink, radius: float) -> np.ndarray:
    cover, alpha = _cube_face_masks(value, radius)
    c = cover[..., None]
    img = np.asarray(body, np.float32) * (1 - c) + np.asarray(ink, np.float32) * c
    return np.dstack([img, alpha * 255]).astype(np.uint8)


@dataclass(frozen=True)
class Box3D:
    """A cube of side `side` with rotation `r` (body -> board axes) and centre `centre`
    (x, y, height)."""

    side: float
    r: np.ndarray
    centre: np.ndarray
    faces: tuple[np.ndarray, ...]  # six BGRA textures, in _FACES order
    edge_colour: tuple[float, float, float]

    def up_index(self) -> int:
        ups = [float((self.r @ n)[2]) for n, _a, _b in _FACES]
        return int(np.argmax(ups))

    def tilt_deg(self) -> float:
        n = self.r @ _FACES[self.up_index()][0]
        return float(np.degrees(np.arccos(np.clip(n[2], -1, 1))))

    def face_quad(self, k: int) -> np.ndarray:
        n, a, b = _FACES[k]
        h = self.side / 2
        local = [n * h - a * h - b * h, n * h + a * h - b * h, n * h + a * h + b * h,
                 n * h - a * h + b * h]
        return np.array([self.centre + self.r @ p for p in local])

    def outline(self) -> np.ndarray:
        """Points on the rounded body, for its silhouette."""
        pts = []
        h = self.side / 2 * 0.97
        for sx in (-1, 1):
            for sy in (-1, 1):
                for sz in (-1, 1):
                    pts.append(self.centre + self.r @ np.array([sx * h, sy * h, sz * h]))
        return np.array(pts)

    def draw(self, img: np.ndarray, cam: Camera, light: np.ndarray) -> tuple[np.ndarray, ...]:
        """Paint the box; returns the image outline points of its silhouette."""
        eye = cam.centre_world()
        sil = cam.project(self.outline())
        hull = cv2.convexHull(sil.astype(np.float32)).reshape(-1, 2)
        cv2.fillPoly(img, [np.round(hull * 16).astype(np.int32)],
                     [float(c) for c in self.edge_colour], cv2.LINE_AA, 4)
        n_tex = self.faces[0].shape[0]
        src = np.float32([[0, 0], [n_tex, 0], [n_tex, n_tex], [0, n_tex]])
        for k, (n, _a, _b) in enumerate(_FACES):
            normal = self.r @ n
            quad3 = self.face_quad(k)
            if float(np.dot(normal, eye - quad3.mean(axis=0))) <= 0:
                continue
            quad = cam.project(quad3)
            shade = 0.55 + 0.45 * max(0.0, float(np.dot(normal, light)))
            tex = self.faces[k].copy()  # cached textures are shared: shade a copy
            tex[..., :3] = (tex[..., :3] * shade).astype(np.uint8)
            paste(img, tex, cv2.getPerspectiveTransform(src, quad.astype(np.float32)), quad)
        return hull


def make_die(value: int, side: float, style, rng: np.random.Generator) -> tuple[np.ndarray,
                                                                              tuple]:
    """The body rotation showing `value` on top (random spin) and the six face textures."""
    radius = round(float(rng.uniform(0.12, 0.3)), 2)  # coarse, so face textures are reused
    faces = tuple(die_face(v, style.die_body, style.die_pips, radius, style.die_translucent)
                  for v in DIE_FACE_VALUES)
    spin = _rot(np.array([0, 0, 1.0]), float(rng.uniform(0, 2 * np.pi)))
    return spin @ face_up(DIE_FACE_VALUES, value), faces


def make_cube(value: int, style, rng: np.random.Generator) -> tuple[np.ndarray, tuple]:
    radius = round(float(rng.uniform(0.08, 0.2)), 2)
    faces = tuple(cube_face(v, style.cube_body, style.cube_ink, radius)
                  for v in CUBE_FACE_VALUES)
    spin = _rot(np.array([0, 0, 1.0]), float(rng.uniform(0, 2 * np.pi)))
    return spin @ face_up(CUBE_FACE_VALUES, value), faces


def tilt(r: np.ndarray, toward: np.ndarray, angle_deg: float) -> np.ndarray:
    """Lean a body rotation by `angle_deg` toward the horizontal direction `toward`."""
    axis = np.cross(np.array([0, 0, 1.0]), np.array([toward[0], toward[1], 0.0]))
    if np.linalg.norm(axis) < 1e-9:
        axis = np.array([1.0, 0, 0])
    return _rot(axis, np.radians(angle_deg)) @ r


def rest_centre(r: np.ndarray, side: float, x: float, y: float, support: float) -> np.ndarray:
    """The centre that puts the body's lowest corner at height `support` over (x, y)."""
    h = side / 2
    corners = np.array([r @ np.array([sx, sy, sz]) * h for sx in (-1, 1) for sy in (-1, 1)
                        for sz in (-1, 1)])
    return np.array([x, y, support - corners[:, 2].min()])
