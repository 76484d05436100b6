"""Shared generated setups for the vision tests: one calibrated camera per board style."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from nardy_pi.vision.calibrate import calibrate
from nardy_pi.vision.calibration import Calibration
from nardy_pi.vision.render import Camera, Scene, render_scene
from nardy_pi.vision.render.styles import STYLES, BoardStyle
from nardy_pi.vision.start_positions import start_board

# A camera with everything a real one does: tilt, rotation, uneven light, noise, blur, JPEG.
CAMERA = Camera(width=640, height=480, perspective=0.04, rotation_deg=2.5,
                light_gradient=(0.15, -0.12), noise_sigma=3.0, blur_sigma=0.6,
                jpeg_quality=85, seed=11)


@dataclass(frozen=True)
class Setup:
    style: BoardStyle
    camera: Camera
    calibration: Calibration


@cache
def setup(style: str, variant: str = "backgammon", camera: Camera = CAMERA) -> Setup:
    board = start_board(variant)
    st = STYLES[style]
    shot = render_scene(st, camera, Scene(points=board.points, seed=3))
    return Setup(st, camera, calibrate(shot.image, shot.corners, board))


def points(**stacks: int) -> tuple[int, ...]:
    """`points(p6=5, p13=-15)` -> a 24-tuple."""
    out = [0] * 24
    for key, count in stacks.items():
        out[int(key[1:]) - 1] = count
    return tuple(out)


def rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)
