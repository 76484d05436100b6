"""What the learned dice models see: images scaled so a die has a fixed size in pixels.

Training (bench/train_dice_net.py) and the runtime finder (dice_board.py) both go through
these functions, so a model always sees pixels prepared exactly as in training.

- The proposal net reads the whole frame scaled so a die's side is HEAT_DIE_PX pixels and
  answers, every HEAT_STRIDE pixels, "is a die (channel 0) / the cube (channel 1) centred here".
- The check net reads CROP_PX-square crops, CROP_DIES die sides wide, around each proposal.
"""

from __future__ import annotations

import cv2
import numpy as np

from nardy_pi.vision import geometry as g

# Nominal die side in board units (a point is 1 wide). Real dice are 0.35-0.45 (16-20 mm on
# a 45 mm point), rendered ones 0.45-0.8; the nets are trained on dice 0.7-1.4x this size.
DIE_SIDE_UNITS = 0.55
HEAT_DIE_PX = 6.0
HEAT_STRIDE = 2
CROP_PX = 32
CROP_DIES = 2.0  # a crop spans two die sides: the die, its side faces, shadow and the cube
CROP_DIE_PX = CROP_PX / CROP_DIES

# The check net's classes: background, a flat die showing 1..6, a cocked die, the cube by face.
CLASSES = ("none", "die1", "die2", "die3", "die4", "die5", "die6", "cocked",
           "cube2", "cube4", "cube8", "cube16", "cube32", "cube64")
CUBE_FACES = (2, 4, 8, 16, 32, 64)
COCKED = CLASSES.index("cocked")


def class_of_die(value: int | None, flat: bool) -> int:
    return COCKED if not flat or value is None else value


def class_of_cube(face: int) -> int:
    return CLASSES.index(f"cube{face}")


def die_side_px(h_board: np.ndarray) -> float:
    """A die's side in image pixels at the board's centre (board -> image homography)."""
    c = np.array([[6.5, 5.5], [7.5, 5.5], [6.5, 6.5]])
    p = g.apply_homography(h_board, c)
    per_unit = (np.linalg.norm(p[1] - p[0]) + np.linalg.norm(p[2] - p[0])) / 2
    return float(per_unit * DIE_SIDE_UNITS)


def foreshortening(h_board: np.ndarray) -> float:
    """How squarely the camera looks at the board, at its centre: the shorter over the longer
    side of a board unit square's image (1.0 straight down, about cos(tilt) when tilted)."""
    c = np.array([[6.5, 5.5], [7.5, 5.5], [6.5, 6.5]])
    p = g.apply_homography(h_board, c)
    low, high = sorted(np.linalg.svd(np.column_stack([p[1] - p[0], p[2] - p[0]]),
                                     compute_uv=False))
    return float(low / max(high, 1e-9))


def to_blob(images_bgr: np.ndarray) -> np.ndarray:
    """uint8 (N, h, w, 3) -> float32 (N, 3, h, w) in [-0.5, 0.5], as the nets were trained."""
    return (np.ascontiguousarray(images_bgr.transpose(0, 3, 1, 2)).astype(np.float32) / 255.0
            - 0.5)


def heat_image(image_bgr: np.ndarray, die_px: float) -> tuple[np.ndarray, float]:
    """The frame scaled for the proposal net (sides a multiple of the stride), and the factor."""
    f = HEAT_DIE_PX / max(die_px, 1.0)
    h, w = image_bgr.shape[:2]
    out_w = max(HEAT_STRIDE * 4, round(w * f / HEAT_STRIDE) * HEAT_STRIDE)
    out_h = max(HEAT_STRIDE * 4, round(h * f / HEAT_STRIDE) * HEAT_STRIDE)
    small = cv2.resize(image_bgr, (out_w, out_h), interpolation=cv2.INTER_AREA)
    return small, out_w / w


def cut_crops(image_bgr: np.ndarray, die_px: float, centres: np.ndarray) -> np.ndarray:
    """uint8 (N, CROP_PX, CROP_PX, 3) crops around image-pixel `centres`, scaled so a die is
    CROP_DIE_PX wide. Each crop is one small affine warp; a frame whose dice are much larger
    is first halved (pyrDown) so the warp never skips pixels."""
    source, die, shrink = image_bgr, max(die_px, 1.0), 1.0
    while die * 0.5 >= CROP_DIE_PX / 0.75 and min(source.shape[:2]) >= 2 * CROP_PX:
        source, die, shrink = cv2.pyrDown(source), die * 0.5, shrink * 0.5
    s = CROP_DIE_PX / die
    out = np.empty((len(centres), CROP_PX, CROP_PX, 3), np.uint8)
    half = (CROP_PX - 1) / 2
    for i, (x, y) in enumerate(np.asarray(centres, np.float64)):
        # pyrDown maps pixel centre x to (x + 0.5) / 2 - 0.5.
        sx, sy = (x + 0.5) * shrink - 0.5, (y + 0.5) * shrink - 0.5
        m = np.array([[s, 0.0, half - s * sx], [0.0, s, half - s * sy]])
        out[i] = cv2.warpAffine(source, m, (CROP_PX, CROP_PX), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REPLICATE)
    return out


def image_to_cell(xy: np.ndarray, factor: float) -> np.ndarray:
    """Image pixel coordinates -> proposal-map cell coordinates (a stride-2 first layer
    centres output cell j on scaled pixel 2j)."""
    return ((np.asarray(xy, np.float64) + 0.5) * factor - 0.5) / HEAT_STRIDE


def cell_to_image(cells: np.ndarray, factor: float) -> np.ndarray:
    return (np.asarray(cells, np.float64) * HEAT_STRIDE + 0.5) / factor - 0.5
