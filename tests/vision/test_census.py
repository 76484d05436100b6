"""Checkers counted through the real pipeline (render -> calibrate -> observe) on every style.

Floors here are requirements, not the benchmark: a calibrated board with nothing on it but
checkers must be read exactly, including 15-stacks piled both ways, the bar and the trays.
"""

from __future__ import annotations

import numpy as np
import pytest

from nardy_pi.vision.observe import Observer
from nardy_pi.vision.render import Scene, render_scene
from nardy_pi.vision.render.random_scenes import random_position
from tests.vision.scenes import points, setup

STYLE_NAMES = ("wood", "felt", "tournament", "walnut")


def observe(style: str, scene: Scene, variant: str = "backgammon"):
    s = setup(style, variant)
    image = render_scene(s.style, s.camera, scene).image
    return Observer(s.calibration).observe(image).observation


@pytest.mark.parametrize("style", STYLE_NAMES)
@pytest.mark.parametrize("stack_style", ["rows", "layers"])
def test_big_stacks_bar_and_trays(style: str, stack_style: str) -> None:
    pts = points(p1=15, p24=-13, p6=6, p19=-7, p8=9, p12=-11, p13=3, p17=-1)
    scene = Scene(points=pts, bar_white=2, bar_black=1, off_white=4, off_black=2,
                  stack_style=stack_style, seed=7)
    obs = observe(style, scene)
    assert obs.points == pts
    assert (obs.bar_white, obs.bar_black) == (2, 1)
    if setup(style).style.trays:
        assert (obs.off_white, obs.off_black) == (4, 2)
    else:
        assert (obs.off_white, obs.off_black) == (None, None)
    assert not obs.occluded


def test_dark_on_dark_and_light_on_light() -> None:
    # Tournament board: points 1, 3, 5... of the bottom row are near-black, the others white.
    pts = points(p1=-3, p3=-5, p2=4, p4=2, p13=-2, p14=5, p24=3, p23=-4)
    for style in ("tournament", "wood", "walnut"):
        assert observe(style, Scene(points=pts, seed=2)).points == pts, style


@pytest.mark.parametrize("style", STYLE_NAMES)
def test_random_positions(style: str) -> None:
    rng = np.random.default_rng(sum(map(ord, style)))
    s = setup(style)
    right = total = 0
    for k in range(5):
        pos = random_position(rng, s.style.trays)
        scene = Scene(points=pos["points"], bar_white=pos["bar_white"],
                      bar_black=pos["bar_black"], off_white=pos["off_white"],
                      off_black=pos["off_black"], stack_style=("rows", "layers")[k % 2], seed=k)
        obs = observe(style, scene)
        right += sum(a == b for a, b in zip(obs.points, pos["points"], strict=True))
        right += (obs.bar_white == pos["bar_white"]) + (obs.bar_black == pos["bar_black"])
        total += 26
    assert right == total


def test_long_nardy_calibration_reads_other_positions() -> None:
    pts = points(p24=9, p20=3, p15=3, p12=-10, p3=-4, p7=-1)
    assert observe("felt", Scene(points=pts, seed=4), variant="long").points == pts


def test_a_frame_at_another_resolution_uses_the_same_calibration() -> None:
    import cv2

    s = setup("wood")
    pts = points(p6=5, p8=3, p13=-5, p24=-2)
    image = render_scene(s.style, s.camera, Scene(points=pts, seed=8)).image
    half = cv2.resize(image, None, fx=0.75, fy=0.75, interpolation=cv2.INTER_AREA)
    assert Observer(s.calibration).observe(half).observation.points == pts
    squashed = cv2.resize(image, (640, 360))
    with pytest.raises(ValueError, match="aspect ratio"):
        Observer(s.calibration).observe(squashed)
