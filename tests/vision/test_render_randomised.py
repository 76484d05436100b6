"""The domain-randomised renderer: deterministic, truthful, varied, and held-out styles stay
held out."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from nardy_pi.vision.render.randomised import (
    HELDOUT_RADIUS,
    HELDOUT_STYLES,
    BoardPosition,
    near_heldout,
    nearest_heldout,
    render_random,
    sample_train_style,
)

SMALL = (640, 480)


def _surface_to_image(truth) -> np.ndarray:
    src = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])
    return cv2.getPerspectiveTransform(src, np.float32(truth.corners))


def test_same_seed_same_image_and_truth():
    a, b = render_random(11, "train", SMALL), render_random(11, "train", SMALL)
    assert np.array_equal(a.image, b.image)
    assert a.truth.points == b.truth.points and a.truth.corners == b.truth.corners
    c = render_random(12, "train", SMALL)
    assert not np.array_equal(a.image, c.image)


def test_image_shape_and_type():
    r = render_random(3, "heldout", SMALL)
    assert r.image.shape == (480, 640, 3) and r.image.dtype == np.uint8
    assert len(r.truth.corners) == 4 and len(r.truth.point_u) == 24


def test_fifteen_a_side_everywhere():
    for seed in range(25):
        t = render_random(seed, "train", (320, 240)).truth
        white = sum(c for c in t.points if c > 0) + t.bar_white + t.off_white
        black = -sum(c for c in t.points if c < 0) + t.bar_black + t.off_black
        assert (white, black) == (15, 15), seed
        assert min(t.bar_white, t.bar_black, t.off_white, t.off_black) >= 0


def test_bad_position_is_refused_clearly():
    with pytest.raises(ValueError, match="15 checkers a side"):
        BoardPosition((1,) * 24)
    with pytest.raises(ValueError, match="split"):
        render_random(1, "test")  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", [5, 21, 40])
def test_checkers_are_drawn_where_the_truth_says(seed):
    """Bear five checkers off from point 8: on the playing surface the picture changes only
    over point 8's column as the truth corners and geometry place it (the borne-off ones may
    appear in a tray, outside the surface)."""
    with_stack = [0] * 24
    with_stack[7], with_stack[18] = 5, -5
    without = list(with_stack)
    without[7] = 0
    a = render_random(seed, "train", SMALL, position=with_stack)
    b = render_random(seed, "train", SMALL, position=without)
    diff = np.abs(a.image.astype(int) - b.image.astype(int)).sum(axis=2) > 40
    t = a.truth
    u0, u1 = t.point_u[7]
    v_tip = 1.0 - t.point_length_v
    pad = 0.6 * (u1 - u0)  # shadows, sloppy offsets, the checkers' height
    column = np.float32([[u0 - pad, v_tip - 0.08], [u1 + pad, v_tip - 0.08],
                         [u1 + pad, 1.04], [u0 - pad, 1.04]])
    poly = cv2.perspectiveTransform(column.reshape(-1, 1, 2), _surface_to_image(t))
    region = np.zeros(diff.shape, np.uint8)
    cv2.fillPoly(region, [np.round(poly.reshape(-1, 2)).astype(np.int32)], 1)
    region = cv2.dilate(region, np.ones((17, 17), np.uint8)).astype(bool)  # JPEG blocks
    surface = np.zeros(diff.shape, np.uint8)
    cv2.fillPoly(surface, [np.round(np.array(t.corners)).astype(np.int32)], 1)
    diff &= surface.astype(bool)
    assert diff.sum() > 200, "taking a stack away must change the picture"
    assert diff[region].sum() / diff.sum() > 0.97


def test_geometry_truth_varies_and_is_consistent():
    bars, lengths, aspects = [], [], []
    for seed in range(30):
        t = render_random(seed, "train", (160, 120)).truth
        u0, u1 = t.bar_u
        width = t.point_u[0][1] - t.point_u[0][0]
        bars.append((u1 - u0) / width)
        lengths.append(t.point_length_v)
        aspects.append(t.surface_aspect)
        # Points 7 and 6 touch the bar on either side; 12 and 13 start the left edge.
        assert t.point_u[6][1] == pytest.approx(u0) and t.point_u[5][0] == pytest.approx(u1)
        assert t.point_u[11] == t.point_u[12]
    assert min(bars) < 0.7 and max(bars) > 1.3
    assert min(lengths) < 0.38 and max(lengths) > 0.45
    assert np.ptp(aspects) > 0.2


def test_points_off_the_picture_are_not_visible():
    seen_hidden = False
    for seed in range(40):
        t = render_random(seed, "train", (160, 120)).truth
        h_map = _surface_to_image(t)
        for i, (u0, u1) in enumerate(t.point_u):
            v = 0.5 * t.point_length_v if i >= 12 else 1 - 0.5 * t.point_length_v
            (x, y), = cv2.perspectiveTransform(np.float32([[[(u0 + u1) / 2, v]]]), h_map)[0]
            inside = 0 <= x < 160 and 0 <= y < 120
            if not t.visible[i]:
                seen_hidden = True
            if not inside:  # the middle of the point is off the picture
                assert t.visible_fraction[i] < 0.8
    assert seen_hidden, "some renders must cut points off the picture"


def test_heldout_split_uses_only_heldout_styles():
    names = {render_random(s, "heldout", (160, 120)).truth.style_name for s in range(20)}
    assert names <= set(HELDOUT_STYLES) and len(names) >= 3
    assert len(HELDOUT_STYLES) >= 4


def test_train_styles_never_come_near_a_heldout_style():
    rng = np.random.default_rng(2024)
    closest = min(nearest_heldout(sample_train_style(rng))[1] for _ in range(1500))
    assert closest >= HELDOUT_RADIUS


def test_the_distance_catches_a_lightly_changed_heldout_style():
    """The exclusion is not vacuous: a held-out board with nudged colours is still 'near'."""
    from dataclasses import replace

    for style in HELDOUT_STYLES.values():
        nudged = replace(style, field=tuple(min(255, c + 12) for c in style.field),
                         light=tuple(max(0, c - 10) for c in style.light), name="nudged")
        assert near_heldout(nudged)
