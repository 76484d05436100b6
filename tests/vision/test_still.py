"""A still camera's frames keep the last dice search while nothing changes (vision/still.py);
a die thrown, a refresh or another frame size searches again; a scene that holds still is
searched once more with the finder's still read (the fine check net). Real renders, the real
dice finder (counted by a wrapper kept here under tests/)."""

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
    """The real board dice finder, counting its searches (no still read offered)."""

    uses_board = True

    def __init__(self) -> None:
        self.finder = BoardDiceFinder()
        self.searches = 0

    def __call__(self, image: np.ndarray, h_board: np.ndarray):
        self.searches += 1
        return self.finder(image, h_board)


class CountingStillFinder(CountingFinder):
    """The same, offering its still read and noting which searches took it."""

    reads_still = True

    def __init__(self) -> None:
        super().__init__()
        self.fine: list[bool] = []

    def __call__(self, image: np.ndarray, h_board: np.ndarray, fine: bool = False):
        self.searches += 1
        self.fine.append(fine)
        return self.finder(image, h_board, fine=fine)


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


def test_settled_means_the_scene_last_searched_even_at_a_refresh() -> None:
    empty, thrown, _ = shots()
    still = StillFrames(refresh=2)
    looks = []
    for frame in (empty, _noisy(empty, 1), _noisy(empty, 2), _noisy(empty, 3), thrown):
        changed = still.changed(frame)
        looks.append((changed, still.settled))
    # the first frame has nothing to match; then kept, kept, a refresh of the same scene,
    # and a throw, which is a new scene
    assert looks == [(True, False), (False, True), (False, True), (True, True), (True, False)]


def _watched(finder, frames: list[np.ndarray]) -> tuple[Observer, list]:
    """An observer of the calibrated board with `finder`, and what it saw of `frames`."""
    observer = Observer(shots()[2], finder)
    return observer, [observer.observe(f).observation for f in frames]


def test_the_observer_searches_for_dice_only_when_the_frame_changed() -> None:
    empty, thrown, cal = shots()
    finder = CountingFinder()
    frames = [empty, _noisy(empty, 1), _noisy(empty, 2), thrown, _noisy(thrown, 3)]
    _observer, seen = _watched(finder, frames)
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


def test_a_scene_that_holds_still_is_searched_once_more_with_the_still_read() -> None:
    empty, thrown, cal = shots()
    finder = CountingStillFinder()
    frames = [thrown, _noisy(thrown, 1), _noisy(thrown, 2), empty, _noisy(empty, 4)]
    observer, seen = _watched(finder, frames)
    # the throw plainly, then once with the fine net when it holds still, then kept; the
    # dice taken away plainly, and fine once that holds still
    assert finder.fine == [False, True, False, True]
    assert sorted(d.value for d in seen[2].dice) == [3, 5] and seen[4].dice == ()
    # a whole refresh round of a still scene is searched once, with the still read
    for k in range(REFRESH + 1):
        observer.observe(_noisy(empty, 10 + k))
    assert finder.fine == [False, True, False, True, True]
    # without the option, or with a finder that offers none, the camera never asks for it
    plain = CountingStillFinder()
    for f in frames:
        Observer(cal, plain, fine_when_settled=False).observe(f)
    assert plain.fine and not any(plain.fine)
