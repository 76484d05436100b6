"""A still camera's unchanged strips keep their model outputs (board/reuse.py): the camera
loop reads only what changed, and reads the same as reading everything. Real renders of a
held-out style, the shipped strip model through OpenCV's dnn."""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np

from nardy_pi.vision.board.layout import SurfaceLayout
from nardy_pi.vision.board.model import shipped_model
from nardy_pi.vision.board.reader import BoardReader
from nardy_pi.vision.board.reuse import REFRESH, StripReuse
from nardy_pi.vision.board.strips import normalise
from nardy_pi.vision.calibrate_board import calibrate_board
from nardy_pi.vision.observe import Observer
from nardy_pi.vision.render.randomised import render_random
from nardy_pi.vision.start_positions import start_board

SEED = 20000  # a held-out board style
SIZE = (640, 480)
START = start_board("backgammon")


def _render(position) -> np.ndarray:
    return render_random(SEED, "heldout", SIZE, position=position, dice="none", cube="none",
                         occluder=False, scene_seed=0).image


@cache
def frames() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The start position, the same with one white checker moved from point 1 to point 2,
    and the board's corners."""
    moved = list(START.points)
    moved[0] -= 1 if moved[0] > 0 else -1
    moved[1] += 1 if moved[0] > 0 else -1
    first = render_random(SEED, "heldout", SIZE, position=START.points, dice="none",
                          cube="none", occluder=False, scene_seed=0)
    return first.image, _render(moved), np.asarray(first.truth.corners, np.float64)


def _noisy(image: np.ndarray, sd: float, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    out = np.clip(image + rng.normal(0, sd, image.shape), 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


def _strips(image: np.ndarray, corners: np.ndarray) -> np.ndarray:
    return normalise(BoardReader(corners, SurfaceLayout(), SIZE).cutter.cut(image))


def test_the_same_strips_are_not_read_twice() -> None:
    start, _, corners = frames()
    x = _strips(start, corners)
    reuse = StripReuse(shipped_model())
    first = reuse.predict(x)
    assert reuse.strips_read == 26
    again = reuse.predict(x.copy())
    assert reuse.strips_read == 26
    np.testing.assert_array_equal(again.count, first.count)
    np.testing.assert_array_equal(again.embedding, first.embedding)


def test_only_the_changed_points_are_read_again_and_the_result_is_a_fresh_reading() -> None:
    start, moved, corners = frames()
    model = shipped_model()
    reuse = StripReuse(model)
    reuse.predict(_strips(start, corners))
    x = _strips(moved, corners)
    changed = reuse.changed(x)
    assert changed[0] and changed[1]  # points 1 and 2, where the checker went
    assert changed.sum() < 26
    got = reuse.predict(x)
    assert reuse.strips_read == 26 + changed.sum()
    fresh = model.predict(x)
    np.testing.assert_allclose(got.count[changed], fresh.count[changed], atol=1e-5)
    # The kept strips' outputs came from the other frame, whose strips looked the same.
    assert (got.count.argmax(axis=1) == fresh.count.argmax(axis=1)).all()


def test_camera_noise_reads_as_it_would_afresh_and_a_refresh_comes_round() -> None:
    start, _, corners = frames()
    model = shipped_model()
    refresh = 4
    reuse = StripReuse(model, refresh=refresh)
    reuse.predict(_strips(start, corners))
    read = [reuse.strips_read]
    for k in range(refresh + 1):
        x = _strips(_noisy(start, 2.0, k), corners)
        got, fresh = reuse.predict(x), model.predict(x)
        # Where the model is sure, the kept outputs say what it says afresh (a strip it is
        # unsure of, 0.57 against 0.43, flips with the noise itself, kept or not).
        sure = fresh.count.max(axis=1) > 0.8
        assert sure.sum() >= 20
        assert (got.count.argmax(axis=1) == fresh.count.argmax(axis=1))[sure].all()
        assert np.abs(got.count - fresh.count).sum(axis=1).mean() < 0.1
        read.append(reuse.strips_read)
    per_frame = np.diff(read)
    assert per_frame[:refresh].mean() < 13  # noise mostly stays under the tolerance
    assert per_frame[refresh] == 26  # then every strip is read afresh


def test_the_shipped_refresh_is_a_few_frames() -> None:
    assert 2 <= REFRESH <= 15  # at 5 frames a second a faint change waits 3 s at most


def test_the_camera_loop_reuses_strips_and_observes_what_a_fresh_reader_reads() -> None:
    start, moved, corners = frames()
    result = calibrate_board(start, corners, START)
    assert result.accepted and result.calibration.reader == "learned"
    observer = Observer(result.calibration)
    seq = [start, _noisy(start, 2.0, 1), moved, _noisy(moved, 2.0, 2), _noisy(moved, 2.0, 3)]
    every = Observer(result.calibration, reuse_unchanged=False)
    seen = [observer.observe(image).observation for image in seq]
    fresh = [every.observe(image).observation for image in seq]
    assert [o.points for o in seen] == [o.points for o in fresh]
    _, _, reader = observer._learned_for_size(*SIZE)
    assert reader._reuse is not None and reader._reuse.strips_read < 26 * len(seq) / 2
    assert every._learned_for_size(*SIZE)[2]._reuse is None
