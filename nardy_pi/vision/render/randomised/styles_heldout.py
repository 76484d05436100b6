"""Named styles kept out of training, and the distance that keeps the train sampler away.

The train sampler re-draws any style that comes within HELDOUT_RADIUS of one of these, so a
figure measured on them is a figure on boards the model has never seen.
"""

from __future__ import annotations

import cv2
import numpy as np

from nardy_pi.vision.render.randomised.style import Style

HELDOUT_RADIUS = 32.0  # style_distance units (mean CIELAB delta-E plus material penalties)

_COMMON = dict(
    point_outline=None, hinges=True, wear=0.0, outer_margin=0.15, frame_height=0.25,
    checker_thickness=0.2, sloppiness=0.4, stack_compress=0.5, stack_layers=0.3,
    die_translucent=False, cube_ink=(30, 30, 30), table_material="wood", glare=0.2,
    split="heldout",
)

HELDOUT_STYLES: dict[str, Style] = {
    # Black checkers on a black felt case: the dark-on-dark extreme.
    "black_felt_case": Style(
        name="black_felt_case", field=(28, 28, 30), field_material="felt",
        point_a=(70, 70, 72), point_b=(18, 18, 20), point_material="solid",
        point_shape="triangle", frame=(22, 22, 24), frame_material="leather",
        bar=(24, 24, 26), bar_material="leather", ornament="none", ornament_colour=(90, 90, 90),
        grain_strength=0.5, bar_width=1.0, aspect=1.22, point_length=0.42, frame_width=0.9,
        trays="right", light=(225, 228, 230), dark=(16, 16, 18), checker_diameter=0.9,
        checker_finish="rim", gloss=0.7, die_body=(235, 235, 235), die_pips=(20, 20, 20),
        cube_body=(240, 240, 240), table=(120, 130, 140), **_COMMON,
    ),
    # Ivory checkers on a maple board with walnut inlay points and a medallion.
    "ivory_maple_inlay": Style(
        name="ivory_maple_inlay", field=(140, 190, 222), field_material="wood",
        point_a=(40, 70, 110), point_b=(200, 228, 240), point_material="inlay",
        point_shape="dotted", frame=(60, 100, 150), frame_material="wood", bar=(70, 115, 160),
        bar_material="wood", ornament="medallion", ornament_colour=(35, 60, 95),
        grain_strength=0.8, bar_width=0.62, aspect=1.3, point_length=0.40, frame_width=0.7,
        trays="none", light=(200, 232, 246), dark=(35, 55, 85), checker_diameter=0.86,
        checker_finish="grooves", gloss=0.3, die_body=(230, 240, 245), die_pips=(30, 30, 120),
        cube_body=(220, 235, 245), table=(70, 75, 80), **_COMMON,
    ),
    # A red and white tournament felt with cup-shaped points.
    "red_white_cups": Style(
        name="red_white_cups", field=(50, 60, 150), field_material="felt",
        point_a=(235, 235, 235), point_b=(30, 30, 170), point_material="solid",
        point_shape="cup", frame=(30, 40, 70), frame_material="leather", bar=(35, 45, 80),
        bar_material="leather", ornament="none", ornament_colour=(200, 200, 200),
        grain_strength=0.4, bar_width=1.2, aspect=1.15, point_length=0.45, frame_width=1.0,
        trays="both", light=(240, 240, 240), dark=(25, 25, 140), checker_diameter=0.95,
        checker_finish="rings", gloss=0.5, die_body=(40, 40, 200), die_pips=(245, 245, 245),
        cube_body=(240, 240, 240), table=(40, 40, 45), **_COMMON,
    ),
    # A worn café board, stained dark, faded orange points, strong lamp glare.
    "worn_cafe_glare": Style(
        name="worn_cafe_glare", field=(60, 95, 130), field_material="wood",
        point_a=(60, 140, 210), point_b=(25, 45, 70), point_material="solid",
        point_shape="rounded", frame=(25, 45, 70), frame_material="wood", bar=(30, 55, 85),
        bar_material="wood", ornament="border", ornament_colour=(120, 170, 210),
        grain_strength=1.0, bar_width=0.9, aspect=1.25, point_length=0.38, frame_width=0.6,
        trays="none", light=(150, 195, 225), dark=(30, 35, 45), checker_diameter=0.82,
        checker_finish="wood", gloss=0.1, die_body=(200, 225, 235), die_pips=(20, 20, 20),
        cube_body=(200, 220, 230), table=(50, 60, 70), **{**_COMMON, "glare": 1.0, "wear": 0.9},
    ),
    # Navy leather travel set with light blue and white points.
    "navy_leather_travel": Style(
        name="navy_leather_travel", field=(80, 40, 20), field_material="leather",
        point_a=(235, 215, 190), point_b=(245, 245, 245), point_material="printed",
        point_shape="thin", frame=(50, 25, 15), frame_material="leather", bar=(60, 30, 15),
        bar_material="leather", ornament="none", ornament_colour=(200, 200, 200),
        grain_strength=0.5, bar_width=0.55, aspect=1.4, point_length=0.47, frame_width=0.5,
        trays="left", light=(240, 225, 200), dark=(70, 35, 20), checker_diameter=1.0,
        checker_finish="plain", gloss=0.6, die_body=(245, 245, 245), die_pips=(90, 40, 20),
        cube_body=(245, 245, 245), table=(150, 160, 170), **_COMMON,
    ),
}


def _lab(colours: list[tuple[int, int, int]]) -> np.ndarray:
    arr = np.array(colours, np.float32).reshape(1, -1, 3) / 255.0
    return cv2.cvtColor(arr, cv2.COLOR_BGR2Lab).reshape(-1, 3)


def _palette(style: Style) -> list[tuple[int, int, int]]:
    return [style.field, style.point_a, style.point_b, style.frame, style.light, style.dark]


def _palette_distance(la: np.ndarray, lb: np.ndarray) -> float:
    """Mean delta-E over the six slots; point colours compared both ways round (a board
    with its two point colours swapped is the same board)."""
    direct = np.linalg.norm(la - lb, axis=1).mean()
    swapped = np.linalg.norm(la - lb[[0, 2, 1, 3, 4, 5]], axis=1).mean()
    return float(min(direct, swapped))


def _material_penalty(a: Style, b: Style) -> float:
    return (25.0 * (a.field_material != b.field_material)
            + 8.0 * (a.point_shape != b.point_shape)
            + 6.0 * (a.checker_finish != b.checker_finish))


def style_distance(a: Style, b: Style) -> float:
    """Mean delta-E over the six palette colours, plus penalties for different materials."""
    return _palette_distance(_lab(_palette(a)), _lab(_palette(b))) + _material_penalty(a, b)


_NAMES = tuple(HELDOUT_STYLES)
_HELDOUT_LAB = np.stack([_lab(_palette(HELDOUT_STYLES[n])) for n in _NAMES])  # (k, 6, 3)
_SWAP = [0, 2, 1, 3, 4, 5]


def nearest_heldout(style: Style) -> tuple[str, float]:
    """The held-out style closest to `style`, and its distance (all at once, vectorised)."""
    lab = _lab(_palette(style))[None]
    direct = np.sqrt(((_HELDOUT_LAB - lab) ** 2).sum(-1)).mean(-1)
    swapped = np.sqrt(((_HELDOUT_LAB[:, _SWAP] - lab) ** 2).sum(-1)).mean(-1)
    dist = np.minimum(direct, swapped) + np.array(
        [_material_penalty(style, HELDOUT_STYLES[n]) for n in _NAMES])
    k = int(np.argmin(dist))
    return _NAMES[k], float(dist[k])


def near_heldout(style: Style, radius: float = HELDOUT_RADIUS) -> bool:
    return nearest_heldout(style)[1] < radius
