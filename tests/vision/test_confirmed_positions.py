"""The learned reader keeps learning its board from positions the referee confirmed
(vision/board/confirmed.py through Observer.confirm). Real renders of a held-out style, the
shipped strip model, real OpenCV; the gain on frames not learned from is
bench/bench_calibrated_reader.py --learn's figure."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from nardy_pi.app.loop import LearningObserve
from nardy_pi.app.vision_feed import ObserverFeed
from nardy_pi.vision.board.confirmed import ConfirmedFrames, confirmed_slots
from nardy_pi.vision.board.heads import Heads
from nardy_pi.vision.board.layout import BAR_LOWER, BAR_UPPER
from nardy_pi.vision.board.model import shipped_model
from nardy_pi.vision.calibrate_board import calibrate_board
from nardy_pi.vision.observe import Observer
from nardy_pi.vision.render import Scene, render_scene
from nardy_pi.vision.render.scene import HandPlacement
from nardy_pi.vision.render.styles import STYLES
from tests.vision.scenes import CAMERA
from tests.vision.test_calibrated_reader import (
    POSITION,
    START,
    heldout,
    heldout_camera,
    ours,
    with_camera_model,
)


def wrong_slots(points, truth) -> int:
    return sum(a != b for a, b in zip(points, truth, strict=True))


def test_a_confirmed_frame_refits_the_heads_and_reads_itself_no_worse() -> None:
    frames, _ = heldout()
    observer = Observer(heldout_camera())
    assert observer.confirmed is not None and len(observer.confirmed) == 0
    before_heads = observer.confirmed.heads
    frame = frames[1]
    before = observer.observe(frame.image).observation.points
    truth = frame.truth
    assert observer.confirm(truth.points, (truth.bar_white, truth.bar_black))
    assert observer.confirmed.learned == 1 and len(observer.confirmed) == 1
    assert not np.allclose(observer.confirmed.heads.count_w, before_heads.count_w)
    # One observed frame, one confirmation: a second one has no frame to learn from.
    assert not observer.confirm(truth.points, (truth.bar_white, truth.bar_black))
    assert observer.confirmed.learned == 1
    after = observer.observe(frame.image).observation.points
    assert wrong_slots(after, truth.points) <= wrong_slots(before, truth.points)
    # A frame size first seen after the lesson reads with the learned heads too.
    half = cv2.resize(frame.image, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    observer.observe(half)
    readers = [entry[2] for entry in observer._cache.values()]
    assert len(readers) == 2 and all(r.heads is observer.confirmed.heads for r in readers)


def test_a_position_far_from_the_frame_is_not_learned() -> None:
    frames, _ = heldout()
    observer = Observer(heldout_camera())
    observer.observe(frames[1].image)  # a mid-game position, confirmed as the start
    assert not observer.confirm(START.points, (0, 0))
    assert observer.confirmed.refused == 1 and len(observer.confirmed) == 0
    assert observer.confirmed.heads is observer.confirmed.base


def test_a_covered_frame_and_the_colour_reader_learn_nothing() -> None:
    wood = render_scene(STYLES["wood"], CAMERA, Scene(points=START.points, seed=3))
    cal = replace(calibrate_board(wood.image, wood.corners, START).calibration, reader="learned")
    observer = Observer(with_camera_model(wood.image, cal))
    hand = render_scene(STYLES["wood"], CAMERA,
                        Scene(points=POSITION, hands=(HandPlacement(2, 3.0, 8.0),), seed=9))
    assert observer.observe(hand.image).observation.occluded
    assert not observer.confirm(POSITION, (0, 0))
    assert observer.confirmed is not None and observer.confirmed.learned == 0
    image, colour = ours()
    assert colour.calibration.reader == "colour"
    plain = Observer(colour.calibration)
    plain.observe(image)
    assert plain.confirmed is None and not plain.confirm(START.points, (0, 0))


def test_the_first_look_pair_has_nothing_to_learn() -> None:
    frames, result = heldout()
    assert result.calibration.learned.strips == "pair"
    observer = Observer(result.calibration)
    truth = frames[1].truth
    observer.observe(frames[1].image)
    assert observer.confirmed is None
    assert not observer.confirm(truth.points, (truth.bar_white, truth.bar_black))
    feed = ObserverFeed(observer)
    feed(frames[1].image)
    assert not feed.confirm(truth.points, (truth.bar_white, truth.bar_black))


def test_the_bar_halves_are_labelled_only_when_the_bar_is_empty() -> None:
    counts, labelled = confirmed_slots(POSITION, (0, 0))
    assert list(counts[:24]) == list(POSITION) and labelled.all()
    assert counts[BAR_LOWER] == counts[BAR_UPPER] == 0
    _, labelled = confirmed_slots(POSITION, (1, 0))  # which half holds it is not known
    assert labelled[:24].all() and not labelled[BAR_LOWER] and not labelled[BAR_UPPER]


def test_the_pool_keeps_only_the_newest_frames() -> None:
    heads = Heads.from_model(shipped_model())
    pool = ConfirmedFrames(heads, max_frames=2)
    width = heads.count_w.shape[1]
    rng = np.random.default_rng(0)
    for _ in range(3):
        embedding = rng.normal(size=(26, width))
        count, light = heads.apply(embedding)
        read = [int(np.argmax(c)) * (1 if li > 0.5 else -1)
                for c, li in zip(count, light, strict=True)]
        counts, labelled = confirmed_slots(read[:24], (0, 0))
        counts[24:] = read[24:]
        assert pool.add(embedding, read, counts, labelled)  # it agrees with its own reading
    assert len(pool) == 2 and pool.learned == 3


def test_miscounted_stacks_are_learned_and_other_checkers_refused() -> None:
    """The guard: a reading that counts stacks wrong is what there is to learn; one that
    sees points empty or of the other colour is another frame, and nothing is learned."""
    heads = Heads.from_model(shipped_model())
    pool = ConfirmedFrames(heads)
    embedding = np.random.default_rng(1).normal(size=(26, heads.count_w.shape[1]))
    counts, labelled = confirmed_slots(START.points, (0, 0))
    miscounted = [c + (1 if c > 0 else -1 if c < 0 else 0) for c in counts]  # every stack
    assert pool.add(embedding, miscounted, counts, labelled)
    assert pool.learned == 1 and pool.heads is not heads
    occupied = [s for s in range(24) if counts[s]]
    other = [int(c) for c in counts]
    for s in occupied[:3]:  # three of the eight stacks seen as the other colour's
        other[s] = -other[s]
    assert not pool.add(embedding, other, counts, labelled)
    assert pool.refused == 1 and pool.learned == 1 and len(pool) == 1


def test_the_loop_feed_can_be_taught() -> None:
    frames, _ = heldout()
    feed = ObserverFeed(Observer(heldout_camera()))
    assert isinstance(feed, LearningObserve)
    assert feed(frames[1].image).points == feed.observer.observe(frames[1].image
                                                                  ).observation.points
    truth = frames[1].truth
    board = truth.points, (truth.bar_white, truth.bar_black)
    assert feed.confirm(*board)
    assert feed.observer.confirmed is not None and feed.observer.confirmed.learned == 1
    quiet = ObserverFeed(feed.observer, learns=False)  # [camera] learn = false
    quiet(frames[1].image)
    assert not quiet.confirm(*board) and feed.observer.confirmed.learned == 1
