"""Things drawn over the warped board in image space: dice, the doubling cube, hands.

Dice are white cubes with black pips seen slightly from the side, so a side face and its pips
show too; a cocked die leans, its top face foreshortened and a side face large.
"""

from __future__ import annotations

import cv2
import numpy as np

from nardy_pi.vision.render.pips import PIP_LAYOUT

DIE_SIDE = 0.45  # board units (a 20 mm die on a 45 mm point)
CUBE_SIDE = 0.62


def _face_pips(img, quad: np.ndarray, value: int, pip_colour, radius: float) -> None:
    """Pips of `value` on a face given by its four image corners (TL, TR, BR, BL order)."""
    o, u, v = quad[0], quad[1] - quad[0], quad[3] - quad[0]
    for a, b in PIP_LAYOUT[value]:
        p = o + u * (0.5 + 0.28 * a) + v * (0.5 + 0.28 * b)
        r = radius * np.sqrt(max(abs(float(u[0] * v[1] - u[1] * v[0])), 1.0)) / max(
            float(np.linalg.norm(u)), 1.0)
        cv2.ellipse(
            img, (int(p[0] * 16), int(p[1] * 16)),
            (int(radius * 16), int(max(r, 1.0) * 16)),
            float(np.degrees(np.arctan2(u[1], u[0]))), 0, 360, pip_colour, -1, cv2.LINE_AA, 4,
        )


def _poly(img, pts: np.ndarray, colour) -> None:
    cv2.fillPoly(img, [np.round(pts * 16).astype(np.int32)], colour, cv2.LINE_AA, shift=4)


def draw_die(
    img, center: np.ndarray, px_per_unit: float, value: int, flat: bool, angle_deg: float,
    rng: np.random.Generator,
) -> tuple[float, float, float, float]:
    """Draw one die; returns its box (x0, y0, x1, y1) in image pixels."""
    s = DIE_SIDE * px_per_unit * rng.uniform(0.92, 1.08)
    a = np.radians(angle_deg)
    u = np.array([np.cos(a), np.sin(a)]) * s
    v = np.array([-np.sin(a), np.cos(a)]) * s
    if not flat:  # leaning: the top face shrinks along v and the die rises
        v = v * rng.uniform(0.45, 0.65)
    top = np.array([center - u / 2 - v / 2, center + u / 2 - v / 2,
                    center + u / 2 + v / 2, center - u / 2 + v / 2])
    drop = np.array([0.12 * s, 0.28 * s]) if flat else np.array([0.15 * s, 0.75 * s])
    bottom = top + drop
    hull = cv2.convexHull(np.vstack([top, bottom]).astype(np.float32)).reshape(-1, 2)
    _poly(img, hull + np.array([0.1 * s, 0.12 * s]), (40, 40, 40))  # contact shadow
    _poly(img, hull, (150, 155, 160))
    # The side face toward the camera's offset (downwards in the image) with its own pips.
    faces = [(top[3], top[2]), (top[2], top[1]), (top[0], top[3]), (top[1], top[0])]
    side_values = [n for n in range(1, 7) if n not in (value, 7 - value)]
    for (p, q), side_value in zip(faces, side_values, strict=False):
        normal = np.array([(q - p)[1], -(q - p)[0]])
        if np.dot(normal, drop) <= 0:
            continue
        quad = np.array([p, q, q + drop, p + drop])
        shade = 175 if flat else 200
        _poly(img, quad, (shade, shade + 3, shade + 6))
        if np.linalg.norm(drop) > 0.2 * s:
            _face_pips(img, quad, side_value, (25, 25, 25), 0.07 * s)
    _poly(img, top, (238, 242, 245))
    _face_pips(img, top, value, (15, 15, 15), 0.085 * s)
    allpts = np.vstack([top, bottom])
    return (float(allpts[:, 0].min()), float(allpts[:, 1].min()),
            float(allpts[:, 0].max()), float(allpts[:, 1].max()))


def draw_cube(img, center: np.ndarray, px_per_unit: float, value: int) -> None:
    s = CUBE_SIDE * px_per_unit
    top = np.array([center + np.array(d) * s / 2 for d in ((-1, -1), (1, -1), (1, 1), (-1, 1))])
    drop = np.array([0.1 * s, 0.3 * s])
    hull = cv2.convexHull(np.vstack([top, top + drop]).astype(np.float32)).reshape(-1, 2)
    _poly(img, hull, (160, 165, 170))
    _poly(img, top, (235, 240, 240))
    text = str(value)
    scale = s / 42.0 * (1.0 if len(text) == 1 else 0.75)
    (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, max(1, int(s / 16)))
    org = (int(center[0] - tw / 2), int(center[1] + th / 2))
    cv2.putText(img, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, (20, 20, 20),
                max(1, int(s / 16)), cv2.LINE_AA)


def draw_hand(img, start: np.ndarray, end: np.ndarray, px_per_unit: float, skin, sleeve,
              rng: np.random.Generator) -> np.ndarray:
    """An arm from `start` (image edge) to a hand at `end`; returns its mask."""
    mask = np.zeros(img.shape[:2], np.uint8)
    direction = (end - start) / max(np.linalg.norm(end - start), 1.0)
    wrist = end - direction * 1.2 * px_per_unit
    arm_w = int(1.4 * px_per_unit)
    layer = img.copy()
    cv2.line(layer, tuple(int(v) for v in start), tuple(int(v) for v in wrist), sleeve, arm_w,
             cv2.LINE_AA)
    cv2.line(mask, tuple(int(v) for v in start), tuple(int(v) for v in wrist), 255, arm_w)
    palm = (wrist + end) / 2
    axes = (int(0.9 * px_per_unit), int(0.6 * px_per_unit))
    angle = float(np.degrees(np.arctan2(direction[1], direction[0])))
    cv2.ellipse(layer, tuple(int(v) for v in palm), axes, angle, 0, 360, skin, -1, cv2.LINE_AA)
    cv2.ellipse(mask, tuple(int(v) for v in palm), axes, angle, 0, 360, 255, -1)
    normal = np.array([-direction[1], direction[0]])
    for k in range(4):  # fingers
        base = end - direction * 0.3 * px_per_unit + normal * (k - 1.5) * 0.28 * px_per_unit
        tip = base + direction * rng.uniform(0.5, 0.8) * px_per_unit
        width = max(2, int(0.22 * px_per_unit))
        cv2.line(layer, tuple(int(v) for v in base), tuple(int(v) for v in tip), skin, width,
                 cv2.LINE_AA)
        cv2.line(mask, tuple(int(v) for v in base), tuple(int(v) for v in tip), 255, width)
    # Shading across the arm makes it look round rather than like a painted sticker. Only
    # the arm's box (and the blur's reach around it, where the mask is empty as it is
    # beyond) is blurred and shaded: the same pixels as over the whole frame, less memory.
    x, y, w, h = cv2.boundingRect(mask)
    if w == 0 or h == 0:
        return mask
    sigma = px_per_unit * 0.3
    reach = int(np.ceil(4 * sigma)) + 2  # past OpenCV's kernel radius (3 or 4 sigma)
    box = (slice(max(y - reach, 0), min(y + h + reach, mask.shape[0])),
           slice(max(x - reach, 0), min(x + w + reach, mask.shape[1])))
    shade = cv2.GaussianBlur(mask[box], (0, 0), sigma).astype(np.float32) / 255.0
    shaded = layer[box].astype(np.float32) * (0.75 + 0.3 * shade[..., None])
    arm = mask[box] > 0
    img[box][arm] = np.clip(shaded[arm], 0, 255).astype(np.uint8)
    return mask
