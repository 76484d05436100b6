"""Training frames from the randomised renderer: what each strip is labelled with."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from nardy_pi.vision.board.layout import BAR_LOWER, BAR_UPPER
from nardy_pi.vision.board.strips import map_points, surface_homography
from nardy_pi.vision.render.randomised import render_random
from nardy_pi.vision.train.render_frames import bar_halves, frame_from_random


def _render(seed: int):
    return render_random(seed, split="train", size=(640, 480))


def test_each_bar_half_is_labelled_with_the_checkers_drawn_in_it() -> None:
    """Both sides on the bar (seed 7: three white, one black): each half holds one side, the
    halves add up to the truth, and each checker's drawn centre lies in its half."""
    shot = _render(7)
    t = shot.truth
    assert (t.bar_white, t.bar_black) == (3, 1)
    frame = frame_from_random(shot, bar_labels=True)
    lower, upper = int(frame.counts[BAR_LOWER]), int(frame.counts[BAR_UPPER])
    assert frame.known[BAR_LOWER] and frame.known[BAR_UPPER]
    assert sorted([lower, upper]) == [-1, 3]
    to_surface = np.linalg.inv(surface_homography(t.corners))
    for c in (c for c in t.checkers if c.point == 0):
        v = map_points(to_surface, [c.center])[0][1]
        half = lower if v >= 0.5 else upper
        assert (half > 0) == c.white


def test_a_single_bar_checker_leaves_the_other_half_empty() -> None:
    frame = frame_from_random(_render(6), bar_labels=True)  # one black checker on the bar
    assert sorted([int(frame.counts[BAR_LOWER]), int(frame.counts[BAR_UPPER])]) == [-1, 0]


def test_a_half_holding_both_sides_stays_unlabelled() -> None:
    """The renderer never draws it, but a truth that did would not teach a wrong count."""
    shot = _render(7)
    t = shot.truth
    on_bar = [c for c in t.checkers if c.point == 0]
    lower_white = next(c for c in on_bar if c.white)
    to_image = surface_homography(t.corners)
    down = replace(lower_white, center=tuple(map_points(to_image, [[0.5, 0.7]])[0]))
    dark = replace(next(c for c in on_bar if not c.white),
                   center=tuple(map_points(to_image, [[0.5, 0.8]])[0]))
    mixed = replace(t, checkers=(*[c for c in t.checkers if c.point != 0], down, dark,
                                 *[c for c in on_bar if c.white and c is not lower_white]))
    assert bar_halves(mixed) is None
    frame = frame_from_random(replace(shot, truth=mixed), bar_labels=True)
    assert not frame.known[BAR_LOWER] and not frame.known[BAR_UPPER]


def test_the_shipped_recipe_leaves_occupied_bar_halves_unlabelled() -> None:
    """Without --bar-labels (how the shipped models were trained) an occupied bar teaches
    nothing, so the recipe in the repository still makes the shipped models."""
    frame = frame_from_random(_render(7), bar_labels=False)
    assert not frame.known[BAR_LOWER] and not frame.known[BAR_UPPER]
    assert frame.known[:BAR_LOWER].all()  # the points are labelled as ever
