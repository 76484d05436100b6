"""What the synthetic renderer draws: the board setup (style, camera) and the scene on it."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True, slots=True)
class Camera:
    """Image size and how the camera sees the board; the same camera can shoot many scenes."""

    width: int = 640
    height: int = 480
    fill: float = 0.78  # share of the image width the board (with frame) takes
    perspective: float = 0.05  # corner jitter, as a share of the image size
    rotation_deg: float = 0.0
    light_gradient: tuple[float, float] = (0.0, 0.0)  # brightness slope across x and y
    noise_sigma: float = 3.0
    blur_sigma: float = 0.6
    jpeg_quality: int | None = 90
    seed: int = 0  # fixes the corner jitter, so scenes of one setup share the board corners


@dataclass(frozen=True, slots=True)
class DiePlacement:
    """A die at board-unit coordinates (outside 0..13 x 0..11 means off the surface)."""

    value: int
    x: float
    y: float
    flat: bool = True
    on_checker: bool = False
    angle_deg: float = 0.0


@dataclass(frozen=True, slots=True)
class CubePlacement:
    value: int
    position: str  # center | top | bottom | off


@dataclass(frozen=True, slots=True)
class HandPlacement:
    """An arm reaching from an image edge (0 top, 1 right, 2 bottom, 3 left) to a board spot."""

    edge: int
    x: float
    y: float
    skin: tuple[int, int, int] = (120, 160, 210)
    sleeve: tuple[int, int, int] = (90, 60, 40)


@dataclass(frozen=True, slots=True)
class Scene:
    points: tuple[int, ...]
    bar_white: int = 0
    bar_black: int = 0
    off_white: int = 0
    off_black: int = 0
    dice: tuple[DiePlacement, ...] = ()
    cube: CubePlacement | None = None
    hands: tuple[HandPlacement, ...] = ()
    stack_style: str = "rows"
    seed: int = 0  # texture jitter, noise


@dataclass(frozen=True, slots=True)
class Rendered:
    """A generated image and its ground truth in the `analyze --json` shape."""

    image: np.ndarray  # BGR uint8
    truth: dict = field(default_factory=dict)
    corners: tuple[tuple[float, float], ...] = ()  # surface corners: TL, TR, BR, BL
