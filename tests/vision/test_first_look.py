"""`nardy-pi analyze` without a calibration: the learned reader on a board it never saw
(board-frame.md §4), through a real subprocess and on the real photos."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from nardy_pi.rules.position import Position
from nardy_pi.vision.board.first_look import read_unseen_board
from nardy_pi.vision.render import Camera, Scene, render_scene
from nardy_pi.vision.render.styles import STYLES
from tests.vision.test_cli import corners_arg, nardy, one_line_error

START = Position.start("backgammon").points
CAMERA = Camera(width=800, height=600, perspective=0.02, rotation_deg=-1.5, seed=5)


def test_analyze_without_calibration_prints_the_contract_with_confidence(tmp_path) -> None:
    style = next(iter(STYLES.values()))
    frame = render_scene(style, CAMERA, Scene(points=START, seed=3))
    image = tmp_path / "board.png"
    cv2.imwrite(str(image), frame.image)
    out = nardy("analyze", str(image), "--corners", corners_arg(frame.corners), "--json",
                "--overlay", str(tmp_path / "seen.png"))
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert set(data) >= {"points", "bar", "off", "dice", "cube", "roll", "occluded",
                         "confidence", "point_confidence"}
    assert len(data["points"]) == 24 and len(data["point_confidence"]) == 24
    assert 0.0 <= data["confidence"] <= 1.0
    right = sum(a == b for a, b in zip(data["points"], START, strict=True))
    assert right >= 20, data["points"]  # the model never saw this renderer's look as such
    assert (tmp_path / "seen.png").stat().st_size > 0


def test_a_blank_picture_without_corners_says_the_board_was_not_found(tmp_path) -> None:
    image = tmp_path / "blank.png"
    cv2.imwrite(str(image), np.full((480, 640, 3), 128, np.uint8))
    line = one_line_error(nardy("analyze", str(image), "--json"))
    assert "could not find the board" in line and "--corners" in line


def test_points_outside_the_picture_are_null() -> None:
    style = next(iter(STYLES.values()))
    frame = render_scene(style, CAMERA, Scene(points=START, seed=4))
    corners = np.asarray(frame.corners, dtype=np.float64)
    shift = np.array([corners[:, 0].max() * 0.45, 0.0])  # the right half leaves the picture
    moved = np.zeros_like(frame.image)
    m = np.float32([[1, 0, shift[0]], [0, 1, 0]])
    moved = cv2.warpAffine(frame.image, m, (frame.image.shape[1], frame.image.shape[0]))
    look = read_unseen_board(moved, corners + shift)
    obs = look.observation
    assert obs.points[0] is None  # point 1, bottom right, is out of view
    assert obs.off_white is None and obs.off_black is None
    assert obs.points[11] is not None  # point 12, bottom left, is in view


def test_a_point_half_outside_the_picture_is_read() -> None:
    """A point whose strip the picture's edge cuts about in half still has a count (and the
    right one here): held-out renders whose camera pushes the surface past an edge."""
    from nardy_pi.vision.board.reader import SEEN_SHARE
    from nardy_pi.vision.board.strips import cached_cutter
    from nardy_pi.vision.render.randomised import render_random

    for seed, point in ((20_113, 1), (20_252, 1), (20_278, 12), (20_278, 13)):
        shot = render_random(seed, split="heldout", size=(640, 480), dice="none", cube="none",
                             occluder=False)
        corners = np.asarray(shot.truth.corners)
        look = read_unseen_board(shot.image, corners)
        share = cached_cutter(corners, look.reading.layout, (640, 480)).visible[point - 1]
        assert SEEN_SHARE <= share < 0.6, (seed, point, share)  # about half of it in view
        assert look.observation.points[point - 1] == shot.truth.points[point - 1], (seed, point)


def test_real_photos_read_without_calibration() -> None:
    """Each board read as analyze reads it, by the fold models (the first look's pair) that
    never saw it (the shipped models are fine-tuned on every photo, so
    their figure on them would not be a held-out one). Every checked photo, copies included:
    on the 26 reference copies alone the pair and its Lite0 member read within a slot of
    each other, too few to tell them apart."""
    from nardy_pi.vision.train.board_photos import load_board_photos
    from nardy_pi.vision.train.held_out import (
        FIRST_FOLD_MODELS,
        held_out_score,
        with_second_opinion,
    )
    from tests.shared_data import shared_dir

    root = shared_dir("data", "board-photos")
    labels = load_board_photos(root)

    def make_reader(model, both: bool = True):
        chosen = with_second_opinion(model) if both else model

        def reader(image, corners):
            o = read_unseen_board(image, corners, model=chosen).observation
            return o.points, (o.bar_white, o.bar_black)
        return reader

    score = held_out_score(make_reader, FIRST_FOLD_MODELS, labels=labels, root=root)
    alone = held_out_score(lambda m: make_reader(m, both=False), FIRST_FOLD_MODELS,
                           labels=labels, root=root)
    assert score.overall.slots >= 20 * 25
    assert len(score.per_board) == len({lab.board for lab in labels if lab.checked})
    # Floors under today's figures (see bench/bench_board_reader.py), to catch a regression,
    # and the second opinion must not lose what the first model alone reads.
    print(f"real photos, held out: {score.overall.per_slot:.1%} per slot "
          f"(the first model alone {alone.overall.per_slot:.1%})")
    assert score.overall.per_slot >= 0.95
    assert score.overall.slots_right >= alone.overall.slots_right


def _randomised_shot(seed: int, tmp_path, blur: float = 0.0) -> str:
    from nardy_pi.vision.render.randomised import render_random

    image = render_random(seed, split="heldout", size=(640, 480), occluder=False).image
    if blur:
        image = cv2.GaussianBlur(image, (0, 0), blur)
    path = tmp_path / f"board{seed}.png"
    cv2.imwrite(str(path), image)
    return str(path)


def test_a_surface_that_is_only_a_guess_is_not_read(tmp_path) -> None:
    # out of focus, the likeliest surface scores about 0.4: reading it would be a guess too
    shot = _randomised_shot(10_000, tmp_path, blur=9.0)
    line = one_line_error(nardy("analyze", shot, "--json"))
    assert "could not find the board" in line and "only a guess" in line
    assert "--corners" in line


def test_a_found_surface_that_reads_unsure_is_not_read(tmp_path) -> None:
    # a held-out board whose find is trusted (confidence 0.85) but 9% off: the strips cut
    # from it read unsure, so analyze asks for the corners instead of printing a guess
    out = nardy("analyze", _randomised_shot(10_040, tmp_path), "--json")
    line = one_line_error(out)
    assert "could not find the board surely" in line and "reads unsure" in line
    assert "--corners" in line and "corners found automatically" not in out.stderr


def test_sureness_is_the_mean_log_of_each_seen_slots_likeliest_count() -> None:
    from nardy_pi.vision.board.layout import SLOTS, SurfaceLayout
    from nardy_pi.vision.board.reader import BoardReading

    probs = np.full((SLOTS, 31), 0.01)
    probs[:, 15] = 0.5
    probs[3, 15], probs[3, 20] = 0.2, 0.6  # slot 3 likeliest 0.6
    seen = np.ones(SLOTS, bool)
    seen[7] = False
    reading = BoardReading((0,) * SLOTS, probs, (0.5,) * SLOTS, 0.1, np.zeros(SLOTS), seen,
                           SurfaceLayout(), np.eye(3))
    assert reading.sureness == pytest.approx((24 * np.log(0.5) + np.log(0.6)) / 25)
    nothing = BoardReading((None,) * SLOTS, probs, (0.0,) * SLOTS, 0.0, np.zeros(SLOTS),
                           np.zeros(SLOTS, bool), SurfaceLayout(), np.eye(3))
    assert nothing.sureness == float("-inf")


def test_a_trusted_surface_is_read_and_said_to_be_found(tmp_path) -> None:
    out = nardy("analyze", _randomised_shot(10_004, tmp_path), "--json")
    assert out.returncode == 0, out.stderr
    assert len(json.loads(out.stdout)["points"]) == 24  # stdout is the contract alone
    assert "corners found automatically" in out.stderr


def test_calibrate_without_corners_tries_the_found_surface_first(tmp_path) -> None:
    # a held-out board set whose outline candidates never fit the start position: the
    # learned corners do, and the position read back accepts them
    from nardy_pi.vision.render.randomised import render_random
    from nardy_pi.vision.start_positions import start_board

    board = start_board("backgammon")
    shot = render_random(20_005, split="heldout", size=(640, 480), occluder=False,
                         position=board.points, dice="none", cube="none")
    image = tmp_path / "start.png"
    cv2.imwrite(str(image), shot.image)
    out = nardy("calibrate", str(image), "--out", str(tmp_path / "c.json"))
    assert out.returncode == 0, out.stderr
    assert "corners (found surface (learned))" in out.stdout
    found = np.array(json.loads((tmp_path / "c.json").read_text())["corners"])
    truth = np.asarray(shot.truth.corners)
    assert np.abs(found - truth).max() < 0.03 * np.linalg.norm(truth[2] - truth[0])


def test_point_probs_carry_each_sides_bar_not_the_bars_halves() -> None:
    """The observation's point_probs end with white's and black's bar totals (vision/types.py,
    what the referee decodes against), not the reader's two halves, either of which may hold
    either colour: white's row gives no mass to black counts and black's none to white's."""
    style = next(iter(STYLES.values()))
    frame = render_scene(style, CAMERA, Scene(points=START, seed=3))
    probs = np.asarray(read_unseen_board(frame.image, frame.corners).observation.point_probs)
    assert probs.shape == (26, 31)
    assert probs[24, :15].sum() == 0.0 and probs[25, 16:].sum() == 0.0
    assert np.allclose(probs.sum(axis=1), 1.0)


def test_the_first_look_reads_once_by_default_and_three_placements_on_request() -> None:
    """analyze reads the surface at the corners given; `steady` also reads it a little
    larger and smaller (reader.nudged) and averages, which no longer reads the held-out
    photos better with the longer Lite0 base (bench_board_reader's notes)."""
    style = next(iter(STYLES.values()))
    frame = render_scene(style, CAMERA, Scene(points=START, seed=3))
    corners = np.asarray(frame.corners, dtype=np.float64)
    default = read_unseen_board(frame.image, corners).reading
    steady = read_unseen_board(frame.image, corners, steady=True).reading
    once = read_unseen_board(frame.image, corners, steady=False).reading
    assert np.array_equal(default.probs, once.probs)
    assert not np.allclose(default.probs, steady.probs)
    assert default.counts[:24] == START and steady.counts[:24] == START
