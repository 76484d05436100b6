"""Synthetic board renderer: a board seen by a camera, with ground truth (analyze JSON shape).

Seeded and deterministic: the same style, camera and scene give the same image.
"""

from __future__ import annotations

import cv2
import numpy as np

from nardy_pi.vision import geometry as g
from nardy_pi.vision.render.board import FRAME, draw_board
from nardy_pi.vision.render.chunks import row_bands
from nardy_pi.vision.render.objects import draw_cube, draw_die, draw_hand
from nardy_pi.vision.render.scene import Camera, Rendered, Scene
from nardy_pi.vision.render.styles import BoardStyle
from nardy_pi.vision.roll import judge_roll
from nardy_pi.vision.types import DieOnBoard

_CUBE_SPOTS = {
    "center": (6.5, 5.5), "top": (6.5, -0.42), "bottom": (6.5, 11.42), "off": (-1.9, 9.0)
}

__all__ = ["Camera", "Rendered", "Scene", "camera_corners", "render_scene"]


def camera_corners(style: BoardStyle, camera: Camera) -> np.ndarray:
    """Where the surface corners (TL, TR, BR, BL) land in the image for this camera."""
    rng = np.random.default_rng(camera.seed)
    x1 = g.TRAY_X1 + 0.2 if style.trays else g.SURFACE_WIDTH + FRAME
    extent_w, extent_h = x1 + FRAME, g.SURFACE_HEIGHT + 2 * FRAME
    k = min(camera.fill * camera.width / extent_w, 0.86 * camera.height / extent_h)
    centre_board = np.array([(x1 - FRAME) / 2, g.SURFACE_HEIGHT / 2])
    centre_img = np.array([camera.width / 2, camera.height / 2])
    a = np.radians(camera.rotation_deg)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    corners = (g.surface_corners() - centre_board) @ rot.T * k + centre_img
    jitter = rng.uniform(-1, 1, (4, 2)) * camera.perspective * np.array(
        [camera.width, camera.height]
    )
    return corners + jitter


def _px_per_unit(h: np.ndarray, x: float, y: float) -> float:
    p = g.apply_homography(h, np.array([[x, y], [x + 1, y], [x, y + 1]]))
    return float((np.linalg.norm(p[1] - p[0]) + np.linalg.norm(p[2] - p[0])) / 2)


def _photometric(img: np.ndarray, camera: Camera, rng: np.random.Generator) -> np.ndarray:
    h, w = img.shape[:2]
    xs = np.linspace(-1, 1, w, dtype=np.float32)[None, :]
    ys = np.linspace(-1, 1, h, dtype=np.float32)[:, None]
    gx, gy = camera.light_gradient
    light = 1.0 + gx * xs + gy * ys - 0.08 * (xs**2 + ys**2)
    out = img.astype(np.float32)
    out *= light[..., None]
    if camera.blur_sigma > 0:
        cv2.GaussianBlur(out, (0, 0), camera.blur_sigma, dst=out)
    if camera.noise_sigma > 0:
        for band in row_bands(h):
            shape = (band.stop - band.start, *out.shape[1:])
            out[band] += rng.normal(0, camera.noise_sigma, shape).astype(np.float32)
    out = np.clip(out, 0, 255, out=out).astype(np.uint8)
    if camera.jpeg_quality:
        _ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, camera.jpeg_quality])
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out


def _edge_point(edge: int, camera: Camera, rng: np.random.Generator) -> np.ndarray:
    w, h = camera.width, camera.height
    t = rng.uniform(0.2, 0.8)
    return np.array([(t * w, -10), (w + 10, t * h), (t * w, h + 10), (-10, t * h)][edge % 4])


def render_scene(
    style: BoardStyle, camera: Camera, scene: Scene, markers: bool = False
) -> Rendered:
    rng = np.random.default_rng(scene.seed)
    corners = camera_corners(style, camera)
    h_board = g.board_to_image_homography(corners)
    scale = max(24.0, _px_per_unit(h_board, 6.5, 5.5) * 1.5)
    canvas = draw_board(style, scene, scale, rng, markers)
    table = np.empty((camera.height, camera.width, 3), np.uint8)
    for band in row_bands(camera.height):
        rows = np.full((band.stop - band.start, camera.width, 3), style.table, np.uint8)
        table[band] = np.clip(rows + rng.normal(0, 4, rows.shape), 0, 255)
    m = h_board @ np.linalg.inv(canvas.board_to_canvas())
    img = cv2.warpPerspective(
        canvas.image, m, (camera.width, camera.height), dst=table,
        flags=cv2.INTER_AREA, borderMode=cv2.BORDER_TRANSPARENT,
    )
    dice_truth: list[DieOnBoard] = []
    for die in scene.dice:
        centre = g.apply_homography(h_board, np.array([[die.x, die.y]]))[0]
        draw_die(img, centre, _px_per_unit(h_board, die.x, die.y), die.value, die.flat,
                 die.angle_deg, rng)
        on_board = g.inside_surface(die.x, die.y)
        dice_truth.append(DieOnBoard(
            value=die.value if die.flat else None, center=(float(centre[0]), float(centre[1])),
            flat=die.flat, on_board=on_board, half=g.half_of(die.x) if on_board else None,
            on_checker=die.on_checker,
        ))
    if scene.cube is not None:
        x, y = _CUBE_SPOTS[scene.cube.position]
        centre = g.apply_homography(h_board, np.array([[x, y]]))[0]
        draw_cube(img, centre, _px_per_unit(h_board, x, y), scene.cube.value)
    occluded = False
    surface = np.zeros(img.shape[:2], np.uint8)
    cv2.fillConvexPoly(surface, np.round(corners).astype(np.int32), 255)
    for hand in scene.hands:
        start = _edge_point(hand.edge, camera, rng)
        end = g.apply_homography(h_board, np.array([[hand.x, hand.y]]))[0]
        mask = draw_hand(img, start, end, _px_per_unit(h_board, hand.x, hand.y), hand.skin,
                         hand.sleeve, rng)
        occluded |= bool(np.count_nonzero(mask & surface) > 0)
    image = _photometric(img, camera, rng)
    verdict = judge_roll(dice_truth)
    truth = {
        "points": list(scene.points),
        "bar": {"white": scene.bar_white, "black": scene.bar_black},
        "off": {"white": scene.off_white if style.trays else None,
                "black": scene.off_black if style.trays else None},
        "dice": [
            {"value": d.value, "center": list(d.center), "flat": d.flat, "on_board": d.on_board,
             "half": d.half, "on_checker": d.on_checker}
            for d in dice_truth
        ],
        "cube": None if scene.cube is None else {"value": scene.cube.value,
                                                 "position": scene.cube.position},
        "roll": {"valid": verdict.valid, "reasons": list(verdict.reasons)},
        "occluded": occluded,
    }
    return Rendered(image=image, truth=truth, corners=tuple(map(tuple, corners.tolist())))

