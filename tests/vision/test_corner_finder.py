"""The learned surface finder's plain parts (board/corner_finder.py): the canvas, the corner
order, the heat maps' expected positions and the sides snapped to the edges; and the shipped
model through cv2.dnn on held-out renders."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from nardy_pi.vision.board.corner_finder import (
    CANVAS,
    STRIDE,
    canvas_to_picture,
    expected_positions,
    picture_order,
    picture_to_canvas,
    snap_sides,
    to_canvas,
)

SURFACE = np.array([[150.0, 90.0], [560.0, 110.0], [545.0, 420.0], [130.0, 400.0]])


def drawn_surface() -> np.ndarray:
    """A light surface inside a dark frame on a mid-grey table, 640x480."""
    image = np.full((480, 640, 3), 110, np.uint8)
    frame = SURFACE + np.array([[-25, -25], [25, -25], [25, 25], [-25, 25]])
    cv2.fillConvexPoly(image, np.int32(np.rint(frame)), (40, 50, 60))
    cv2.fillConvexPoly(image, np.int32(np.rint(SURFACE)), (170, 200, 215))
    return image


def test_the_canvas_keeps_the_picture_and_maps_points_both_ways() -> None:
    image = drawn_surface()
    canvas, place = to_canvas(image)
    assert canvas.shape == (CANVAS, CANVAS, 3)
    back = canvas_to_picture(picture_to_canvas(SURFACE, place), place)
    assert np.abs(back - SURFACE).max() < 1e-9
    # the surface's centre lands on the canvas where the picture's does
    cx, cy = picture_to_canvas(SURFACE.mean(axis=0, keepdims=True), place)[0]
    assert canvas[round(cy), round(cx)].tolist() == [170, 200, 215]


@pytest.mark.parametrize("shift", [0, 1, 2, 3])
def test_corners_come_clockwise_from_the_pictures_top_left(shift: int) -> None:
    ordered, order = picture_order(np.roll(SURFACE, shift, axis=0))
    assert np.array_equal(ordered, SURFACE)
    assert np.array_equal(np.roll(SURFACE, shift, axis=0)[order], SURFACE)


def test_a_peaked_map_gives_its_peak_and_a_flat_one_the_middle() -> None:
    cells = CANVAS // STRIDE
    heat = np.zeros((4, cells, cells), np.float32)
    heat[0, 10, 30] = 50.0  # cell (x 30, y 10)
    pos, peaks = expected_positions(heat)
    assert np.allclose(pos[0], [(30 + 0.5) * STRIDE - 0.5, (10 + 0.5) * STRIDE - 0.5], atol=1e-3)
    assert peaks[0] > 0.99
    assert np.allclose(pos[1], [CANVAS / 2 - 0.5] * 2) and peaks[1] < 0.01


def test_sides_a_few_percent_off_snap_to_the_surface_edges() -> None:
    image = drawn_surface()
    rng = np.random.default_rng(3)
    off = SURFACE + rng.normal(0, 8, SURFACE.shape)  # about 1.5% of the diagonal
    assert np.abs(off - SURFACE).max() > 5
    snapped = snap_sides(image, off)
    assert np.abs(snapped - SURFACE).max() < 2.5


def test_a_side_outside_the_picture_stays_where_it_was() -> None:
    image = drawn_surface()[:, :400]  # the right side of the surface is cut off
    quad = SURFACE.copy()
    snapped = snap_sides(image, quad)
    assert np.abs(snapped[[0, 3]] - SURFACE[[0, 3]]).max() < 2.5  # left side on its edge
    assert np.abs(snapped[[1, 2], 0] - SURFACE[[1, 2], 0]).max() < 1.0  # right side kept


def _within(truth, found, share: float = 0.03) -> bool:
    """All four corners within `share` of the diagonal, in whichever order they come."""
    from nardy_pi.vision.board.find_surface import corner_errors

    return found is not None and bool(corner_errors(truth, found.corners).max() <= share)


def test_the_shipped_model_finds_held_out_boards_the_outline_misses() -> None:
    from nardy_pi.vision.board.corner_finder import shipped_corner_model
    from nardy_pi.vision.board.find_surface import find_surface
    from nardy_pi.vision.render.randomised import render_random

    assert shipped_corner_model() is not None  # loaded through cv2.dnn from the package
    learned = outline = 0
    for seed in range(20_000, 20_012):  # board sets the model never saw
        shot = render_random(seed, split="heldout", size=(640, 480), occluder=False)
        learned += _within(shot.truth.corners, find_surface(shot.image, use_markers=False))
        outline += _within(shot.truth.corners,
                           find_surface(shot.image, use_markers=False, learned=False))
    assert learned >= 3 and learned > outline, (learned, outline)  # measured: 4 and 0
