"""Things that hide part of the board: an arm and hand reaching in from an image edge, a
phone lying on the board, a cup or a dice cup standing on it. Each returns its mask and
casts a soft shadow first."""

from __future__ import annotations

import cv2
import numpy as np

from nardy_pi.vision.render.randomised.camera import Camera
from nardy_pi.vision.render.randomised.layout import BoardLayout

OCCLUDERS = ("hand", "phone", "cup", "dice_cup")
_SKINS = ((190, 215, 245), (150, 185, 230), (120, 160, 210), (90, 130, 185), (60, 90, 140),
          (45, 65, 105))


def _pix(p) -> tuple[int, int]:
    return round(float(p[0])), round(float(p[1]))


def _shade_inside(img: np.ndarray, mask: np.ndarray, colour: np.ndarray, roundness: float,
                  rng: np.random.Generator) -> None:
    """Fill `mask` with `colour`, brighter along its middle so it looks round, not flat."""
    ys, xs = np.nonzero(mask)
    if not len(ys):
        return
    y0, y1, x0, x1 = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
    m = mask[y0:y1, x0:x1]
    q = 4
    small = cv2.resize(m, (max(1, (x1 - x0) // q), max(1, (y1 - y0) // q)),
                       interpolation=cv2.INTER_AREA)
    dist = cv2.distanceTransform((small > 127).astype(np.uint8), cv2.DIST_L2, 3)
    dist = dist / max(1.0, float(dist.max()))
    dist = cv2.resize(dist, (x1 - x0, y1 - y0), interpolation=cv2.INTER_LINEAR)
    shade = (1 - roundness) + roundness * np.sqrt(np.clip(dist, 0, 1)) * 1.15
    grain = 1 + 0.03 * rng.standard_normal(shade.shape).astype(np.float32)
    body = np.clip(colour[None, None, :] * (shade * grain)[..., None], 0, 255)
    a = (m.astype(np.float32) / 255.0)[..., None]
    roi = img[y0:y1, x0:x1]
    roi[:] = (roi * (1 - a) + body * a).astype(np.uint8)


def _shadow(img: np.ndarray, mask: np.ndarray, offset: np.ndarray, blur: float,
            darkness: float) -> None:
    m = np.float32([[1, 0, offset[0]], [0, 1, offset[1]]])
    moved = cv2.warpAffine(mask, m, (mask.shape[1], mask.shape[0]))
    q = 4
    small = cv2.resize(moved, (mask.shape[1] // q, mask.shape[0] // q),
                       interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), max(0.8, blur / q))
    soft = cv2.resize(small, (mask.shape[1], mask.shape[0]), interpolation=cv2.INTER_LINEAR)
    shade = 255 - (soft.astype(np.float32) * darkness).astype(np.uint8)
    img[:] = cv2.multiply(img, cv2.merge([shade, shade, shade]), scale=1 / 255.0)


def _edge_start(size: tuple[int, int], end: np.ndarray, rng: np.random.Generator,
                ) -> np.ndarray:
    w, h = size
    edge = int(rng.choice(4, p=[0.15, 0.25, 0.35, 0.25]))
    t = rng.uniform(0.1, 0.9)
    pad = 0.1 * max(w, h)
    return np.array([(t * w, -pad), (w + pad, t * h), (t * w, h + pad), (-pad, t * h)][edge])


def hand(img: np.ndarray, cam: Camera, layout: BoardLayout, rng: np.random.Generator,
         light_px: np.ndarray) -> np.ndarray:
    """An arm from an image edge to a hand over the board; returns its mask (uint8)."""
    h, w = img.shape[:2]
    tip_board = np.array([rng.uniform(0.5, layout.width - 0.5),
                          rng.uniform(0.5, layout.height - 0.5), 0.0])
    end = cam.project(tip_board[None])[0]
    unit = float(np.linalg.norm(cam.project((tip_board + np.array([1.0, 0, 0]))[None])[0] - end))
    unit *= rng.uniform(1.0, 1.3)  # the hand is above the board, so a little larger
    start = _edge_start((w, h), end, rng)
    direction = (end - start) / max(1.0, float(np.linalg.norm(end - start)))
    normal = np.array([-direction[1], direction[0]])
    palm_len, palm_w = unit * rng.uniform(1.9, 2.4), unit * rng.uniform(1.7, 2.2)
    finger_len = unit * rng.uniform(1.4, 2.0)
    wrist = end - direction * (finger_len + palm_len)
    arm_w = palm_w * rng.uniform(0.8, 1.0)
    mask = np.zeros((h, w), np.uint8)
    skin_mask = np.zeros((h, w), np.uint8)
    sleeve_at = float(rng.uniform(0.0, 0.7))  # share of the forearm covered by a sleeve
    arm_poly = np.array([start + normal * arm_w * 0.65, wrist + normal * arm_w / 2,
                         wrist - normal * arm_w / 2, start - normal * arm_w * 0.65])
    cv2.fillConvexPoly(skin_mask, np.round(arm_poly).astype(np.int32), 255, cv2.LINE_AA)
    palm = wrist + direction * palm_len / 2
    cv2.ellipse(skin_mask, _pix(palm), (int(palm_len / 2), int(palm_w / 2)),
                float(np.degrees(np.arctan2(direction[1], direction[0]))), 0, 360, 255, -1,
                cv2.LINE_AA)
    spread = rng.uniform(0.8, 1.2)
    for k in range(4):
        base = wrist + direction * palm_len * 0.85 + normal * (k - 1.5) * palm_w * 0.22 * spread
        bend = rng.normal(0, 0.15)
        d = direction * np.cos(bend) + normal * np.sin(bend + (k - 1.5) * 0.08)
        length = finger_len * (0.85 if k in (0, 3) else 1.0) * rng.uniform(0.8, 1.05)
        cv2.line(skin_mask, _pix(base), _pix(base + d * length), 255,
                 max(2, int(unit * 0.38)), cv2.LINE_AA)
    thumb_base = wrist + direction * palm_len * 0.35 + normal * palm_w * 0.45 * rng.choice(
        [-1, 1])
    cv2.line(skin_mask, _pix(thumb_base), _pix(thumb_base + (direction + normal * 0.6) *
                                               finger_len * 0.6), 255, max(2, int(unit * 0.42)),
             cv2.LINE_AA)
    mask |= skin_mask
    sleeve_mask = np.zeros((h, w), np.uint8)
    if sleeve_at > 0.05:
        cuff = wrist - direction * (1 - sleeve_at) * float(np.linalg.norm(wrist - start))
        sleeve_w = arm_w * rng.uniform(1.1, 1.4)
        poly = np.array([start + normal * sleeve_w * 0.7, cuff + normal * sleeve_w / 2,
                         cuff - normal * sleeve_w / 2, start - normal * sleeve_w * 0.7])
        cv2.fillConvexPoly(sleeve_mask, np.round(poly).astype(np.int32), 255, cv2.LINE_AA)
        mask |= sleeve_mask
    _shadow(img, mask, light_px * unit * rng.uniform(2, 5), unit * 0.8, rng.uniform(0.3, 0.55))
    skin = np.asarray(_SKINS[int(rng.integers(len(_SKINS)))], np.float32) * rng.uniform(
        0.9, 1.1)
    _shade_inside(img, skin_mask, skin, 0.35, rng)
    if sleeve_at > 0.05:
        sleeve = rng.uniform(20, 235, 3).astype(np.float32)
        _shade_inside(img, sleeve_mask, sleeve, 0.45, rng)
    return mask


def _cylinder(cam: Camera, x: float, y: float, radius: float, z0: float, z1: float,
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    a = np.linspace(0, 2 * np.pi, 40, endpoint=False)
    ring = np.column_stack([x + radius * np.cos(a), y + radius * np.sin(a)])
    bottom = cam.project(np.column_stack([ring, np.full(len(a), z0)]))
    top = cam.project(np.column_stack([ring, np.full(len(a), z1)]))
    hull = cv2.convexHull(np.vstack([bottom, top]).astype(np.float32)).reshape(-1, 2)
    return hull, top, bottom


def cup(img: np.ndarray, cam: Camera, layout: BoardLayout, rng: np.random.Generator,
        light_px: np.ndarray, dice_cup: bool) -> np.ndarray:
    h, w = img.shape[:2]
    x = rng.uniform(0.5, layout.width - 0.5)
    y = rng.uniform(0.5, layout.height - 0.5)
    radius = rng.uniform(0.8, 1.2) if dice_cup else rng.uniform(0.9, 1.5)
    height = rng.uniform(2.0, 3.0) if dice_cup else rng.uniform(2.0, 3.5)
    hull, top, _bottom = _cylinder(cam, x, y, radius, 0.0, height)
    mask = np.zeros((h, w), np.uint8)
    cv2.fillPoly(mask, [np.round(hull).astype(np.int32)], 255, cv2.LINE_AA)
    unit = float(np.linalg.norm(cam.project(np.array([[x + 1, y, 0.0]]))[0] -
                                cam.project(np.array([[x, y, 0.0]]))[0]))
    _shadow(img, mask, light_px * unit * height * 0.6, unit * 0.6, rng.uniform(0.3, 0.5))
    if dice_cup:  # leather: brown, black or red
        body = np.array([(30, 50, 90), (20, 20, 25), (30, 30, 120)][int(rng.integers(3))],
                        np.float32) * rng.uniform(0.8, 1.3)
        inside = body * 0.35
    else:
        body = rng.uniform(40, 245, 3).astype(np.float32)
        inside = np.array([20, 40, 70], np.float32) * rng.uniform(0.6, 1.4)  # coffee
    _shade_inside(img, mask, body, 0.5, rng)
    cv2.fillPoly(img, [np.round(top * 16).astype(np.int32)], (body * 0.8).tolist(), cv2.LINE_AA,
                 4)
    centre = top.mean(axis=0)
    inner = centre + (top - centre) * 0.88
    cv2.fillPoly(img, [np.round(inner * 16).astype(np.int32)], inside.tolist(), cv2.LINE_AA, 4)
    return mask


def phone(img: np.ndarray, cam: Camera, layout: BoardLayout, rng: np.random.Generator,
          light_px: np.ndarray) -> np.ndarray:
    h, w = img.shape[:2]
    cx = rng.uniform(0.5, layout.width - 0.5)
    cy = rng.uniform(0.5, layout.height - 0.5)
    a = rng.uniform(0, np.pi)
    u = np.array([np.cos(a), np.sin(a)]) * rng.uniform(1.6, 1.9) / 2
    v = np.array([-np.sin(a), np.cos(a)]) * rng.uniform(3.4, 3.9) / 2
    lift = layout.thickness * 2 + 0.2  # resting on stacks, roughly
    mid = np.array([cx, cy])
    corners = np.array([mid - u - v, mid + u - v, mid + u + v, mid - u + v])
    top = cam.project(np.column_stack([corners, np.full(4, lift)]))
    bottom = cam.project(np.column_stack([corners, np.full(4, lift - 0.18)]))
    hull = cv2.convexHull(np.vstack([top, bottom]).astype(np.float32)).reshape(-1, 2)
    mask = np.zeros((h, w), np.uint8)
    cv2.fillPoly(mask, [np.round(hull).astype(np.int32)], 255, cv2.LINE_AA)
    unit = float(np.linalg.norm(top[1] - top[0])) / (2 * np.linalg.norm(u))
    _shadow(img, mask, light_px * unit * 0.5, unit * 0.3, rng.uniform(0.3, 0.5))
    case = rng.uniform(10, 230, 3)
    cv2.fillPoly(img, [np.round(hull * 16).astype(np.int32)], (case * 0.7).tolist(),
                 cv2.LINE_AA, 4)
    cv2.fillPoly(img, [np.round(top * 16).astype(np.int32)], case.tolist(), cv2.LINE_AA, 4)
    centre = top.mean(axis=0)
    screen = centre + (top - centre) * 0.9
    cv2.fillPoly(img, [np.round(screen * 16).astype(np.int32)], (18, 18, 20), cv2.LINE_AA, 4)
    if rng.random() < 0.6:  # a reflection across the glass
        band = np.array([screen[0], screen[0] * 0.4 + screen[1] * 0.6,
                         screen[3] * 0.3 + screen[2] * 0.7, screen[3]])
        overlay = img.copy()
        cv2.fillPoly(overlay, [np.round(band).astype(np.int32)], (90, 90, 95), cv2.LINE_AA)
        cv2.addWeighted(overlay, 0.5, img, 0.5, 0, dst=img)
    return mask


def draw_occluders(img: np.ndarray, cam: Camera, layout: BoardLayout,
                   rng: np.random.Generator, light_dir: np.ndarray,
                   kinds: list[str]) -> np.ndarray:
    """Draw each occluder of `kinds`; returns the union of their masks (bool)."""
    h0 = cam.homography(0.0)
    c = cv2.perspectiveTransform(np.float64([[[layout.width / 2, layout.height / 2]]]), h0)[0, 0]
    d = cv2.perspectiveTransform(np.float64([[[layout.width / 2 + light_dir[0],
                                               layout.height / 2 + light_dir[1]]]]), h0)[0, 0]
    light_px = (d - c) / max(1e-6, float(np.linalg.norm(d - c))) * float(
        np.linalg.norm(light_dir))
    mask = np.zeros(img.shape[:2], np.uint8)
    for kind in kinds:
        if kind == "hand":
            mask |= hand(img, cam, layout, rng, light_px)
        elif kind == "phone":
            mask |= phone(img, cam, layout, rng, light_px)
        elif kind in ("cup", "dice_cup"):
            mask |= cup(img, cam, layout, rng, light_px, kind == "dice_cup")
        else:
            raise ValueError(f"unknown occluder {kind!r}; known: {', '.join(OCCLUDERS)}")
    return mask > 127
