"""The train-style sampler: boards of many families, with hard colour pairs on purpose.

About a third of the styles force a near-identical pair (dark checkers on dark points, light
on light, checkers the colour of the field). Any draw that lands near a held-out style is
thrown away and drawn again.
"""

from __future__ import annotations

import colorsys

import numpy as np

from nardy_pi.vision.render.randomised.style import (
    CHECKER_FINISHES,
    ORNAMENTS,
    POINT_SHAPES,
    TRAYS,
    Style,
)
from nardy_pi.vision.render.randomised.styles_heldout import near_heldout

BGR = tuple[int, int, int]


def _hsv(h: float, s: float, v: float) -> BGR:
    r, g, b = colorsys.hsv_to_rgb(h % 1.0, float(np.clip(s, 0, 1)), float(np.clip(v, 0, 1)))
    return int(b * 255), int(g * 255), int(r * 255)


def _near(rng: np.random.Generator, c: BGR, amount: float) -> BGR:
    jitter = rng.normal(0, amount, 3)
    return tuple(int(np.clip(v + j, 0, 255)) for v, j in zip(c, jitter, strict=True))


def _wood(rng: np.random.Generator, lo: float = 0.15, hi: float = 0.95) -> BGR:
    return _hsv(rng.uniform(0.05, 0.11), rng.uniform(0.35, 0.8), rng.uniform(lo, hi))


def _any_colour(rng: np.random.Generator) -> BGR:
    return _hsv(rng.random(), rng.uniform(0.2, 0.95), rng.uniform(0.2, 0.95))


def _light(rng: np.random.Generator) -> BGR:
    kind = rng.integers(6)
    if kind == 0:  # white / ivory / cream
        return _hsv(rng.uniform(0.08, 0.16), rng.uniform(0.0, 0.25), rng.uniform(0.85, 1.0))
    if kind == 1:  # light wood / tan / gold
        return _hsv(rng.uniform(0.07, 0.14), rng.uniform(0.3, 0.7), rng.uniform(0.7, 0.95))
    if kind == 2:  # light grey / pearl
        return _hsv(rng.random(), rng.uniform(0.0, 0.1), rng.uniform(0.7, 0.95))
    if kind == 3:  # red (the lighter side of a red/black set)
        return _hsv(rng.uniform(-0.03, 0.03), rng.uniform(0.6, 0.95), rng.uniform(0.6, 0.95))
    if kind == 4:  # pastel of any hue
        return _hsv(rng.random(), rng.uniform(0.2, 0.5), rng.uniform(0.75, 1.0))
    return _hsv(rng.uniform(0.1, 0.17), rng.uniform(0.5, 0.9), rng.uniform(0.75, 1.0))  # yellow


def _dark(rng: np.random.Generator) -> BGR:
    kind = rng.integers(5)
    if kind == 0:  # black / charcoal
        return _hsv(rng.random(), rng.uniform(0, 0.3), rng.uniform(0.04, 0.25))
    if kind == 1:  # dark wood / brown
        return _wood(rng, 0.12, 0.45)
    if kind == 2:  # deep red / burgundy
        return _hsv(rng.uniform(-0.03, 0.03), rng.uniform(0.6, 0.95), rng.uniform(0.25, 0.55))
    if kind == 3:  # navy / green
        return _hsv(rng.choice([0.62, 0.35, 0.55]), rng.uniform(0.5, 0.9), rng.uniform(0.2, 0.5))
    return _hsv(rng.random(), rng.uniform(0.3, 0.9), rng.uniform(0.15, 0.45))


def _board_palette(rng: np.random.Generator) -> dict:
    family = str(rng.choice(["wood", "inlay", "felt", "painted", "leather", "cork"],
                            p=[0.3, 0.15, 0.25, 0.12, 0.12, 0.06]))
    if family in ("wood", "inlay"):
        field = _wood(rng, 0.3, 0.95)
        pa, pb = _wood(rng, 0.1, 0.45), _wood(rng, 0.6, 1.0)
        if rng.random() < 0.3:
            pa, pb = _any_colour(rng), _wood(rng, 0.6, 1.0)
        frame = _wood(rng, 0.1, 0.7)
        material = "wood"
    elif family == "felt":
        field = _hsv(rng.choice([0.33, 0.0, 0.6, 0.08, 0.9, 0.5]) + rng.normal(0, 0.03),
                     rng.uniform(0.1, 0.8), rng.uniform(0.1, 0.75))
        pa, pb = _any_colour(rng), _hsv(rng.random(), rng.uniform(0, 0.3), rng.uniform(0.7, 1))
        frame = _hsv(rng.random(), rng.uniform(0, 0.6), rng.uniform(0.05, 0.5))
        material = "felt"
    elif family == "leather":
        field = _hsv(rng.random(), rng.uniform(0.2, 0.8), rng.uniform(0.15, 0.7))
        pa, pb = _any_colour(rng), _any_colour(rng)
        frame = _hsv(rng.random(), rng.uniform(0.2, 0.8), rng.uniform(0.08, 0.4))
        material = "leather"
    elif family == "cork":
        field = _hsv(rng.uniform(0.07, 0.1), rng.uniform(0.35, 0.55), rng.uniform(0.5, 0.8))
        pa, pb = _dark(rng), _light(rng)
        frame = _wood(rng, 0.1, 0.6)
        material = "cork"
    else:  # painted / printed: anything goes
        field = _any_colour(rng)
        pa, pb = _any_colour(rng), _any_colour(rng)
        frame = _any_colour(rng)
        material = "painted"
    if rng.random() < 0.5:
        pa, pb = pb, pa
    return dict(field=field, point_a=pa, point_b=pb, frame=frame, field_material=material,
                point_material="inlay" if family == "inlay" else
                str(rng.choice(["solid", "printed", "inlay"], p=[0.6, 0.25, 0.15])),
                frame_material="leather" if family == "leather" else
                str(rng.choice(["wood", "painted", "leather"], p=[0.7, 0.15, 0.15])))


def _luma(c: BGR) -> float:
    return 0.114 * c[0] + 0.587 * c[1] + 0.299 * c[2]


def _checker_palette(rng: np.random.Generator, board: dict) -> tuple[BGR, BGR]:
    light, dark = _light(rng), _dark(rng)
    hard = rng.random()
    points = sorted([board["point_a"], board["point_b"]], key=_luma)
    if hard < 0.12:  # dark checkers on (nearly) the dark point colour
        dark = _near(rng, points[0], 10)
    elif hard < 0.24:  # light checkers on (nearly) the light point colour
        light = _near(rng, points[1], 10)
    elif hard < 0.32:  # checkers the colour of the field
        if _luma(board["field"]) > 128:
            light = _near(rng, board["field"], 12)
        else:
            dark = _near(rng, board["field"], 12)
    elif hard < 0.38:  # both sides close to each other in brightness (gold on tan...)
        dark = _near(rng, light, 45)
    if _luma(light) < _luma(dark):
        light, dark = dark, light
    return light, dark


def sample_train_style(rng: np.random.Generator, max_tries: int = 200) -> Style:
    """One random board set, never near a held-out style."""
    for _ in range(max_tries):
        style = _draw(rng)
        if not near_heldout(style):
            return style
    raise RuntimeError("could not draw a train style away from the held-out styles")


def _draw(rng: np.random.Generator) -> Style:
    board = _board_palette(rng)
    light, dark = _checker_palette(rng, board)
    bar_kind = rng.random()
    bar = board["frame"] if bar_kind < 0.6 else _near(rng, board["field"], 20) \
        if bar_kind < 0.85 else _any_colour(rng)
    die_kind = rng.integers(6)
    die_body, die_pips = [
        ((240, 242, 245), (20, 20, 20)), ((205, 230, 240), (25, 25, 30)),
        ((40, 40, 200), (245, 245, 245)), ((25, 25, 25), (240, 240, 240)),
        (_any_colour(rng), (245, 245, 245)), ((235, 235, 235), _any_colour(rng)),
    ][die_kind]
    cube_body = _light(rng) if rng.random() < 0.7 else _dark(rng)
    cube_ink = (20, 20, 20) if _luma(cube_body) > 110 else (235, 235, 235)
    shape = str(rng.choice(POINT_SHAPES, p=[0.45, 0.15, 0.1, 0.1, 0.08, 0.12]))
    return Style(
        name=f"train-{int(rng.integers(1 << 31)):08x}",
        field=board["field"], field_material=board["field_material"],
        point_a=board["point_a"], point_b=board["point_b"],
        point_material=board["point_material"], point_shape=shape,
        point_outline=_any_colour(rng) if shape == "outlined" or rng.random() < 0.15 else None,
        frame=board["frame"], frame_material=board["frame_material"],
        bar=bar, bar_material=str(rng.choice(["wood", "felt", "leather", "painted"])),
        hinges=bool(rng.random() < 0.5),
        ornament=str(rng.choice(ORNAMENTS, p=[0.45, 0.15, 0.1, 0.12, 0.1, 0.08])),
        ornament_colour=_any_colour(rng) if rng.random() < 0.5 else _near(rng, board["frame"], 30),
        grain_strength=float(rng.uniform(0.0, 1.0)),
        wear=float(rng.uniform(0, 1) ** 2),
        bar_width=float(rng.uniform(0.5, 1.5)),
        outer_margin=float(rng.uniform(0.0, 0.35)),
        aspect=float(rng.uniform(1.0, 1.45)),
        point_length=float(rng.uniform(0.35, 0.48)),
        frame_width=float(rng.uniform(0.25, 1.4)),
        frame_height=float(rng.uniform(0.05, 0.4)),
        trays=str(rng.choice(TRAYS, p=[0.5, 0.25, 0.1, 0.15])),
        light=light, dark=dark,
        checker_diameter=float(rng.uniform(0.8, 1.0)),
        checker_thickness=float(rng.uniform(0.12, 0.3)),
        checker_finish=str(rng.choice(CHECKER_FINISHES)),
        gloss=float(rng.uniform(0, 1)),
        stack_compress=float(rng.uniform(0, 1)),
        stack_layers=float(rng.uniform(0, 1)),
        sloppiness=float(rng.uniform(0, 1)),
        die_body=die_body, die_pips=die_pips, die_translucent=bool(rng.random() < 0.15),
        cube_body=cube_body, cube_ink=cube_ink,
        table=_any_colour(rng) if rng.random() < 0.5 else _wood(rng, 0.1, 0.8),
        table_material=str(rng.choice(["wood", "cloth", "plain"])),
        glare=float(rng.uniform(0, 1) ** 2),
    )
