"""A still camera's frames keep the last dice search while nothing changes (vision/still.py);
a die thrown, a refresh or another frame size searches again. Real renders, the real dice
finder (counted by a wrapper kept here under tests/)."""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np

from nardy_pi.vision.calibrate import calibrate
from nardy_pi.vision.dice_board import BoardDiceFinder
from nardy_pi.vision.observe import Observer
from nardy_pi.vision.render import Scene, render_scene
from nardy_pi.vision.render.scene import DiePlacement
from nardy_pi.vision.render.styles import STYLES
from nardy_pi.vision.start_positions import start_board
from nardy_pi.vision.still import REFRESH, StillFrames
from tests.vision.scenes import CAMERA

START = start_board("backgammon")
DICE = (DiePlacement(3, 3.0, 5.2, angle_deg=10.0), DiePlacement(5, 4.2, 5.6, angle_deg=-20.0))


@cache
def shots() -> tuple[np.ndarray, np.ndarray, object]:
    """The start position without dice, the same with two dice thrown, and the calibration."""
    style = STYLES["tournament"]
    empty = render_scene(style, CAMERA, Scene(points=START.points, seed=3))
    thrown = render_scene(style, CAMERA, Scene(points=START.points, dice=DICE, seed=3))
    return empty.image, thrown.image, calibrate(empty.image, empty.corners, START)


def _noisy(image: np.ndarray, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    out = np.clip(image + rng.normal(0, 2.5, image.shape), 0, 255).astype(np.uint8)
    _ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, 85])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


class CountingFinder:
    """The real board dice finder, counting its searches."""

    uses_board = True

    def __init__(self) -> None:
        self.finder = BoardDiceFinder()
        self.searches = 0

    def __call__(self, image: np.ndarray, h_board: np.ndarray):
        self.searches += 1
        return self.finder(image, h_board)


def test_noise_is_still_a_thrown_die_is_not() -> None:
    empty, thrown, _ = shots()
    still = StillFrames()
    assert still.changed(empty)  # the first frame is always searched
    assert not any(still.changed(_noisy(empty, k)) for k in range(3))
    assert still.changed(thrown)
    assert not still.changed(_noisy(thrown, 9))


def test_a_refresh_comes_round_and_a_new_size_is_searched() -> None:
    empty, _, _ = shots()
    still = StillFrames(refresh=3)
    assert [still.changed(empty) for _ in range(6)] == [True, False, False, False, True, False]
    assert still.changed(cv2.resize(empty, (320, 240)))
    assert 2 <= REFRESH <= 15


def test_the_observer_searches_for_dice_only_when_the_frame_changed() -> None:
    empty, thrown, cal = shots()
    finder = CountingFinder()
    observer = Observer(cal, finder)
    frames = [empty, _noisy(empty, 1), _noisy(empty, 2), thrown, _noisy(thrown, 3)]
    seen = [observer.observe(f).observation for f in frames]
    assert finder.searches == 2  # the empty board once, the throw once
    assert [len(o.dice) for o in seen] == [0, 0, 0, 2, 2]
    assert sorted(d.value for d in seen[4].dice) == [3, 5]
    # Observed afresh every frame, the same frames read the same.
    every = CountingFinder()
    fresh = [Observer(cal, every, reuse_unchanged=False).observe(f).observation
             for f in frames]
    assert every.searches == len(frames)
    def dice(o):  # centres move by a tenth of a pixel with the noise
        return [(d.value, d.flat, d.on_board, d.half, d.on_checker) for d in o.dice]

    assert [dice(o) for o in fresh] == [dice(o) for o in seen]
    for a, b in zip(fresh[4].dice, seen[4].dice, strict=True):
        assert np.hypot(a.center[0] - b.center[0], a.center[1] - b.center[1]) < 1.0
    assert [o.roll for o in fresh] == [o.roll for o in seen]
