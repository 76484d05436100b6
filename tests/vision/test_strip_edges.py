"""Checkers at a point's base that cross the surface edge, or that the picture cuts in half.

The first look's models read strips that start a little outside the surface edge
(SurfaceLayout.base_margin_v, which each model names in `<model>.strip.json`), so a checker
over the edge shows whole; their training copies sometimes end the picture near that edge
(strip_data.edge_cut), so half a checker at the base is still read as a checker.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from nardy_pi.vision.board.layout import (
    FIRST_LOOK_MARGIN_V,
    SLOTS,
    STRIP_H,
    STRIP_W,
    SurfaceLayout,
)
from nardy_pi.vision.board.strips import StripCutter, map_points, surface_homography
from nardy_pi.vision.train import strip_data
from nardy_pi.vision.train.strip_data import (
    EDGE_CUT_DEPTH,
    SIDE_CUT_DEPTH,
    WALL_DEPTH,
    CopyCuts,
    Frame,
    edge_cut,
    strips_of,
    wall_cut,
)

CORNERS = np.array([[60.0, 50.0], [580.0, 50.0], [580.0, 430.0], [60.0, 430.0]])


MARGIN = FIRST_LOOK_MARGIN_V


def test_a_points_strip_starts_outside_the_surface_edge() -> None:
    layout = SurfaceLayout(base_margin_v=MARGIN)
    for slot in range(24):
        base = layout.slot_quad(slot)[0, 1]
        assert base == pytest.approx(-MARGIN if slot >= 12 else 1.0 + MARGIN)
        assert SurfaceLayout().slot_quad(slot)[0, 1] == (0.0 if slot >= 12 else 1.0)
    for slot in (24, 25):  # the bar's halves start at the middle, as before
        assert layout.slot_quad(slot)[0, 1] == 0.5


def test_a_checker_over_the_edge_shows_whole_in_its_strip() -> None:
    """A disc centred right on the bottom edge under point 6: its strip holds all of it."""
    layout = SurfaceLayout(base_margin_v=MARGIN)
    image = np.full((480, 640, 3), 90, np.uint8)
    h = surface_homography(CORNERS)
    u0, u1 = layout.point_u(6)
    centre = map_points(h, np.array([[(u0 + u1) / 2, 1.0]]))[0]
    radius = 0.4 * (u1 - u0) * (CORNERS[1, 0] - CORNERS[0, 0])
    cv2.circle(image, (round(centre[0]), round(centre[1])), round(radius), (250, 250, 250), -1)
    strip = StripCutter(CORNERS, layout, (640, 480)).cut(image).raw[5, ..., 0]
    bright_rows = np.nonzero((strip > 200).any(axis=1))[0]
    margin_rows = round(MARGIN / (0.5 + MARGIN) * STRIP_H)
    # the outer half, beyond the surface edge, lies in the margin rows; the inner rim below
    assert bright_rows.min() < margin_rows // 2
    assert margin_rows < bright_rows.max() < 2.5 * margin_rows
    # a strip cut at the edge (the camera loop's) starts at the disc's middle
    at_edge = StripCutter(CORNERS, SurfaceLayout(), (640, 480)).cut(image).raw[5, ..., 0]
    assert (at_edge[0] > 200).any() and (at_edge[0] > 200).sum() > (strip[0] > 200).sum()


def _blank_frame(counts: dict[int, int]) -> Frame:
    full = np.zeros(SLOTS, np.int64)
    for slot, n in counts.items():
        full[slot] = n
    rng = np.random.default_rng(0)
    image = rng.integers(60, 200, (480, 640, 3)).astype(np.uint8)
    return Frame(image, CORNERS, SurfaceLayout(), full)


@pytest.mark.parametrize(("cut", "untouched"), [(edge_cut, None), (wall_cut, CORNERS)],
                         ids=["edge", "wall"])
def test_no_cuts_draw_nothing(cut, untouched) -> None:
    """Models trained without edge cuts or near walls (the camera loop's) get the same random
    stream: no picture lost, the corners as given."""
    frame = _blank_frame({})
    rng = np.random.default_rng(7)
    out, second = cut(frame.image, CORNERS, rng, 0.0)
    assert out is frame.image and second is untouched
    assert rng.random() == np.random.default_rng(7).random()


@pytest.mark.parametrize("seed", range(12))
def test_edge_cut_ends_the_picture_near_the_top_or_bottom_edge(seed) -> None:
    frame = _blank_frame({})
    rng = np.random.default_rng(seed)
    out, lost = edge_cut(frame.image, CORNERS, rng, 1.0)
    changed = (out != frame.image).any(axis=2)
    assert changed.any()
    ys = np.nonzero(changed.any(axis=1))[0]
    top, bottom = CORNERS[0, 1], CORNERS[2, 1]
    height = bottom - top
    lo, hi = EDGE_CUT_DEPTH
    if ys.min() == 0:  # cut along the top edge: everything above a line near it
        assert ys.max() <= top + hi * height + 1 and ys.max() >= top + lo * height - 1
    else:
        assert ys.max() == 479
        assert bottom - hi * height - 1 <= ys.min() <= bottom - lo * height + 1
    if lost is not None:
        assert ((lost > 0) == changed).all()  # lost: just what was blanked
        assert (out[lost > 0] == 0).all()


def _draws_before_side_cuts(rng: np.random.Generator, share: float) -> None:
    """What edge_cut drew before side cuts existed: whether to cut, then the depth, the edge,
    whether the picture ends there, and else the fill colour."""
    if rng.random() < share:
        rng.uniform(), rng.random()
        if rng.random() >= 0.5:
            rng.integers(0, 256, 3)


@pytest.mark.parametrize("seed", range(8))
def test_no_side_cuts_draw_nothing_more(seed) -> None:
    """A recipe without side cuts (the shipped models') draws what it drew before."""
    frame = _blank_frame({})
    rng, before = np.random.default_rng(seed), np.random.default_rng(seed)
    edge_cut(frame.image, CORNERS, rng, 0.3, 0.0)
    _draws_before_side_cuts(before, 0.3)
    assert rng.random() == before.random()


@pytest.mark.parametrize("seed", range(12))
def test_side_cut_ends_the_picture_along_the_left_or_right_edge(seed) -> None:
    """Along the surface the picture ends within SIDE_CUT_DEPTH of a side edge, cutting the
    outermost points' stacks lengthwise; the top and bottom edges are left alone."""
    frame = _blank_frame({})
    out, lost = edge_cut(frame.image, CORNERS, np.random.default_rng(seed), 0.0, 1.0)
    changed = (out != frame.image).any(axis=2)
    left, right = CORNERS[0, 0], CORNERS[1, 0]
    width = right - left
    lo, hi = SIDE_CUT_DEPTH
    for row in range(int(CORNERS[0, 1]) + 1, int(CORNERS[2, 1])):
        xs = np.nonzero(changed[row])[0]
        assert len(xs)
        if xs.min() == 0:
            assert left + lo * width - 1 <= xs.max() <= left + hi * width + 1
        else:
            assert xs.max() == 639
            assert right - hi * width - 1 <= xs.min() <= right - lo * width + 1
    if lost is not None:
        assert ((lost > 0) == changed).all()


def test_a_cut_picture_reads_unknown_there_and_keeps_its_counts(monkeypatch) -> None:
    """The lost part of a cut picture is marked unknown in the strips; the counts stay and
    are still trained on (at least half of a base checker remains)."""
    frame = _blank_frame({0: 2, 12: -3})
    real = strip_data.edge_cut
    masks = []

    def recorded(image, corners, rng, share, sides=0.0):
        out, lost = real(image, corners, rng, share, sides)
        masks.append(lost)
        return out, lost

    def forgotten(image, corners, rng, share, sides=0.0):  # the same cut and draws, never unknown
        return real(image, corners, rng, share, sides)[0], None

    for seed in range(40):
        masks.clear()
        monkeypatch.setattr(strip_data, "edge_cut", recorded)
        cut = strips_of(frame, np.random.default_rng(seed), 1, margin=MARGIN,
                        cuts=CopyCuts(edge=1.0))
        if masks[0] is not None:
            break
    else:
        pytest.fail("no seed made a lost-picture cut")
    monkeypatch.setattr(strip_data, "edge_cut", forgotten)
    kept = strips_of(frame, np.random.default_rng(seed), 1, margin=MARGIN, cuts=CopyCuts(edge=1.0))
    assert (cut.count == kept.count).all() and (cut.count_weight == kept.count_weight).all()
    plain = strips_of(frame, None, 1, margin=MARGIN)
    assert (cut.count == plain.count).all() and cut.count_weight[:24].all()
    lost = cut.x[:, 3].astype(bool) & ~kept.x[:, 3].astype(bool)
    assert lost.any()
    # the lost pixels lie at the strips' bases (row 0) of one row of points, not elsewhere
    rows = np.nonzero(lost.any(axis=(0, 2)))[0]
    assert rows.min() == 0 and rows.max() < STRIP_H // 4
    top_row = lost[12:24].any()
    assert lost[:12].any() != top_row and not lost[24:].any()
    assert lost.shape[1:] == (STRIP_H, STRIP_W)


def test_a_model_names_where_its_strips_start(tmp_path) -> None:
    import shutil

    from nardy_pi.vision.board.model import MODEL_PATH, StripEnsemble, StripModel, strip_path

    path = tmp_path / "m.onnx"
    shutil.copy(MODEL_PATH, path)
    plain = StripModel(path)
    assert plain.base_margin_v == 0.0  # no side file: strips cut at the surface edge
    strip_path(path).write_text('{"base_margin_v": 0.04}\n')
    outside = StripModel(path)
    assert outside.base_margin_v == 0.04
    with pytest.raises(ValueError, match="must read the same strips"):
        StripEnsemble([plain, outside])
    for bad in ('{"margin": 1}', "[", '{"base_margin_v": 0.5}', '{"base_margin_v": "x"}'):
        strip_path(path).write_text(bad)
        with pytest.raises(ValueError, match=r"m\.strip\.json"):
            StripModel(path)


def test_each_model_reads_the_strips_it_was_trained_on() -> None:
    """The first look's pair cuts its strips outside the edge, the camera loop's model at it."""
    from nardy_pi.vision.board.first_look import read_unseen_board
    from nardy_pi.vision.board.model import first_look_model, shipped_model
    from nardy_pi.vision.board.reader import BoardReader, fit_reader
    from nardy_pi.vision.render import Camera, Scene, render_scene
    from nardy_pi.vision.render.styles import STYLES
    from nardy_pi.vision.start_positions import start_board

    shot = render_scene(STYLES["tournament"], Camera(seed=3),
                        Scene(points=start_board("backgammon").points, seed=1))
    corners = np.asarray(shot.corners)
    pair = fit_reader(shot.image, corners, first_look_model()).reader
    camera = fit_reader(shot.image, corners, shipped_model()).reader
    assert pair.cutter.layout.base_margin_v == FIRST_LOOK_MARGIN_V
    assert camera.cutter.layout.base_margin_v == 0.0
    direct = BoardReader(corners, SurfaceLayout(), (640, 480), first_look_model())
    assert direct.cutter.layout.base_margin_v == FIRST_LOOK_MARGIN_V  # whoever builds it
    look = read_unseen_board(shot.image, corners)
    assert look.reading.layout.base_margin_v == FIRST_LOOK_MARGIN_V
    assert look.observation.points == start_board("backgammon").points


def test_export_writes_where_the_strips_start(tmp_path) -> None:
    pytest.importorskip("torch", reason="PyTorch is the [train] extra; not installed")
    from nardy_pi.vision.board.model import StripModel, strip_path
    from nardy_pi.vision.train.board_reader import export
    from nardy_pi.vision.train.strip_net import StripNet

    path = tmp_path / "m.onnx"
    export(StripNet((8, 8, 8, 8)).eval(), path, 0.04)
    assert StripModel(path).base_margin_v == 0.04
    export(StripNet((8, 8, 8, 8)).eval(), path)  # retrained at the edge: no stale side file
    assert not strip_path(path).exists() and StripModel(path).base_margin_v == 0.0


def test_a_side_cut_reaches_only_the_outermost_points_strips(monkeypatch) -> None:
    """Training copies cut along a side lose part of points 1, 12, 13 and 24's strips (read as
    unknown), no other strip's, and keep every count. (Unshaken: a shaken copy's glare
    saturates pixels anywhere, and they read as unknown too.)"""
    monkeypatch.setattr(strip_data, "shake", lambda image, rng: image)
    frame = _blank_frame({0: 2, 11: -5, 12: 3, 23: -1, 5: 4})
    plain = strips_of(frame, None, 1, margin=MARGIN)
    outer = {0, 11, 12, 23}
    seen = set()
    for seed in range(30):
        cut = strips_of(frame, np.random.default_rng(seed), 1, margin=MARGIN,
                        cuts=CopyCuts(side=1.0))
        assert (cut.count == plain.count).all()
        unknown = cut.x[:, 3].reshape(len(cut.count), -1).any(axis=1)
        slots = set(np.nonzero(unknown)[0].tolist())
        assert slots <= outer, f"seed {seed}: unknown pixels in slots {sorted(slots - outer)}"
        seen |= slots
    assert seen == outer  # both sides, both rows, over the seeds


@pytest.mark.parametrize("seed", range(12))
def test_a_near_wall_hides_a_band_and_the_corners_mark_its_top(seed) -> None:
    """One edge's corners move inward by WALL_DEPTH's range, the other edge's stay; what lies
    beyond the moved edge is one flat colour, the surface inside the new corners untouched."""
    frame = _blank_frame({})
    out, marked = wall_cut(frame.image, CORNERS, np.random.default_rng(seed), 1.0)
    height = CORNERS[2, 1] - CORNERS[0, 1]
    assert np.allclose(marked[:, 0], CORNERS[:, 0])
    moved = np.abs(marked[:, 1] - CORNERS[:, 1]) > 1e-6
    assert moved.tolist() in ([True, True, False, False], [False, False, True, True])
    depth = np.abs(marked[moved, 1] - CORNERS[moved, 1]) / height
    lo, hi = WALL_DEPTH
    assert ((depth >= lo - 1e-9) & (depth <= hi + 1e-9)).all()
    changed = (out != frame.image).any(axis=2)
    ys = np.nonzero(changed.any(axis=1))[0]
    top, bottom = marked[0, 1], marked[2, 1]
    if moved[0]:
        assert ys.min() == 0 and ys.max() <= top + 1
    else:
        assert ys.max() == 479 and ys.min() >= bottom - 1
    band = out[changed]
    assert (band == band[0]).all()  # one flat wall colour
    inside = out[int(top) + 2:int(bottom) - 1, int(CORNERS[0, 0]):int(CORNERS[1, 0])]
    assert (inside == frame.image[int(top) + 2:int(bottom) - 1,
                                  int(CORNERS[0, 0]):int(CORNERS[1, 0])]).all()


def test_a_wall_cut_copy_keeps_its_counts_and_its_strips_start_at_the_wall(monkeypatch) -> None:
    """Point 1's checker at the base, behind a bottom wall: its count stands, its strip starts
    in the wall's flat colour and the checker's far part follows right after (unshaken)."""
    monkeypatch.setattr(strip_data, "shake", lambda image, rng: image)
    frame = _blank_frame({0: 1, 12: -2})
    image = frame.image.copy()
    layout = SurfaceLayout(base_margin_v=MARGIN)
    u0, u1 = layout.point_u(1)
    h = surface_homography(CORNERS)
    centre = map_points(h, np.array([[(u0 + u1) / 2, 1.0 - 0.045]]))[0]
    radius = round(0.45 * (u1 - u0) * (CORNERS[1, 0] - CORNERS[0, 0]))
    cv2.circle(image, (round(centre[0]), round(centre[1])), radius, (255, 255, 255), -1)
    frame = Frame(image, CORNERS, SurfaceLayout(), frame.counts)
    plain = strips_of(frame, None, 1, margin=MARGIN)
    real, moved = strip_data.wall_cut, []

    def recorded(image, corners, rng, share):
        out, marked = real(image, corners, rng, share)
        moved.append(marked[2, 1] < corners[2, 1] - 1e-6)
        return out, marked

    monkeypatch.setattr(strip_data, "wall_cut", recorded)
    bottoms = 0
    for seed in range(16):
        rng = np.random.default_rng(seed)
        cut = strip_data.cut_copy(frame, rng, jitter=0.0, margin=MARGIN, cuts=CopyCuts(wall=1.0))
        assert (strip_data.labelled(cut, 1).count == plain.count).all()
        if not moved[-1]:
            continue  # the wall stood at the top
        bottoms += 1
        strip = cut.strips.raw[0]
        wall = strip[1, STRIP_W // 2]
        assert (strip[:2] == wall).all()  # the strip starts in the wall
        bright = np.nonzero((strip[..., 0] == 255).any(axis=1))[0]
        assert len(bright) and bright.min() < STRIP_H // 4  # the checker follows right after
    assert bottoms
