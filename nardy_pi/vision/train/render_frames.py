"""Training frames from the project's renderers.

`classic_frames`: the first renderer (vision/render) with board styles drawn at random (any
colours, near-identical checker/point pairs, wood/felt/plain), so no named style is trained on.
`randomised_frames`: the domain-randomised renderer (vision/render/randomised), train split.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from nardy_pi.vision.board.layout import BAR_LOWER, BAR_UPPER, SLOTS, SurfaceLayout
from nardy_pi.vision.train.strip_data import Frame


def _colour(rng: np.random.Generator, lo: int = 0, hi: int = 256) -> tuple[int, int, int]:
    return tuple(int(c) for c in rng.integers(lo, hi, 3))


def _near(rng: np.random.Generator, c, spread: int) -> tuple[int, int, int]:
    return tuple(int(np.clip(v + rng.integers(-spread, spread + 1), 0, 255)) for v in c)


def random_style(rng: np.random.Generator):
    from nardy_pi.vision.render.styles import BoardStyle

    light = _colour(rng, 150, 256)
    dark = _colour(rng, 0, 110)
    point_a, point_b = _colour(rng), _colour(rng)
    if rng.random() < 0.35:  # the hard cases: checkers the colour of a point
        point_a = _near(rng, dark, 25)
    if rng.random() < 0.35:
        point_b = _near(rng, light, 25)
    field = _colour(rng)
    return BoardStyle(
        "random", frame=_colour(rng), field=field, point_a=point_a, point_b=point_b,
        bar=_colour(rng) if rng.random() < 0.5 else field, white=light, black=dark,
        texture=str(rng.choice(["wood", "felt", "plain"])), trays=bool(rng.random() < 0.4),
        table=_colour(rng),
    )


def slot_counts(points, bar_white: int, bar_black: int) -> np.ndarray:
    counts = np.zeros(SLOTS, np.int64)
    counts[:24] = points
    counts[BAR_LOWER], counts[BAR_UPPER] = bar_white, -bar_black  # the first renderer's habit
    return counts


def classic_frames(n: int, seed: int, group: int = 1000) -> Iterator[tuple[Frame, int]]:
    from dataclasses import replace

    from nardy_pi.vision.render import render_scene
    from nardy_pi.vision.render.random_scenes import random_camera, random_scene
    from nardy_pi.vision.start_positions import start_board

    rng = np.random.default_rng(seed)
    for k in range(n):
        style = random_style(rng)
        camera = random_camera(rng, *((640, 480) if rng.random() < 0.7 else (1280, 960)))
        camera = replace(camera, perspective=float(rng.uniform(0.0, 0.08)),
                         rotation_deg=float(rng.uniform(-8, 8)))
        scene = random_scene(rng, style.trays)
        if rng.random() < 0.2:
            scene = replace(scene, points=start_board("backgammon").points, bar_white=0,
                            bar_black=0, off_white=0, off_black=0)
        shot = render_scene(style, camera, scene)
        occluder = None
        if scene.hands:
            clean = render_scene(style, camera, replace(scene, hands=()))
            diff = np.abs(shot.image.astype(np.int16) - clean.image.astype(np.int16)).max(2)
            occluder = diff > 40
        yield Frame(shot.image, np.array(shot.corners), SurfaceLayout(),
                    slot_counts(scene.points, scene.bar_white, scene.bar_black),
                    occluder), group + k % 97


def randomised_frames(n: int, seed: int, group: int = 2000, loose_stacks: bool = False,
                      bar_labels: bool = False) -> Iterator[tuple[Frame, int]]:
    from nardy_pi.vision.render.randomised import render_random

    rng = np.random.default_rng(seed)
    for k in range(n):
        size = (640, 480) if rng.random() < 0.7 else (1280, 960)
        r = render_random(seed * 100003 + k, split="train", size=size,
                          loose_stacks=loose_stacks, loose_bar=bar_labels)
        yield frame_from_random(r, bar_labels), group + k % 97


def frame_from_random(r, bar_labels: bool = False) -> Frame:
    """The randomised renderer's truth as a training frame. With `bar_labels` each bar half is
    labelled with the checkers whose drawn centre lies in it (a half holding both sides,
    which the renderer never draws, stays unlabelled); without, as the shipped models were
    trained, bar strips are labelled only when the bar is empty, so bar checkers are taught
    by the first renderer's look alone (held-out styles: 14 of 51 occupied bars read right;
    bench_calibrated_reader's docstring has the figures with the labels)."""
    t = r.truth
    layout = SurfaceLayout(float(t.bar_u[0]), float(t.bar_u[1]), float(t.point_length_v))
    counts = slot_counts(t.points, 0, 0)
    known = np.ones(SLOTS, bool)  # strips outside the image are dropped when cut
    if t.bar_white or t.bar_black:
        halves = bar_halves(t) if bar_labels else None
        if halves is None:
            known[BAR_LOWER] = known[BAR_UPPER] = False
        else:
            counts[BAR_LOWER], counts[BAR_UPPER] = halves
    occ = None if t.occluder_mask is None else np.asarray(t.occluder_mask, bool)
    return Frame(r.image, np.asarray(t.corners, float), layout, counts, occ, known)


def bar_halves(t) -> tuple[int, int] | None:
    """Signed checker counts of the bar's lower and upper halves (white +, black -) from where
    the renderer drew each bar checker, or None when a half holds both sides or the truth
    does not place its checkers."""
    from nardy_pi.vision.board.strips import map_points, surface_homography

    on_bar = [c for c in t.checkers if c.point == 0]
    if len(on_bar) != t.bar_white + t.bar_black:
        return None
    to_surface = np.linalg.inv(surface_homography(t.corners))
    sides: dict[bool, list[int]] = {True: [], False: []}  # lower half: signs of its checkers
    for c in on_bar:
        v = float(map_points(to_surface, [c.center])[0][1])
        sides[v >= 0.5].append(1 if c.white else -1)
    out = []
    for lower in (True, False):
        signs = sides[lower]
        if len(set(signs)) > 1:
            return None
        out.append(sum(signs))
    return out[0], out[1]
