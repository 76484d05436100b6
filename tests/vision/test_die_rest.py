"""Whether a die rests on a checker, judged by the learned reader from the image around it
(board/die_rest.py), on a board drawn here: the surface fills the picture, point 6 holds
three light checkers and point 13 five dark ones."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from nardy_pi.vision.board.die_rest import ring_on_checker
from nardy_pi.vision.board.layout import SurfaceLayout

W, H = 650, 550
LAYOUT = SurfaceLayout()
H_SURFACE = np.diag([float(W), float(H), 1.0])  # unit square -> image
D_V = LAYOUT.point_length_v / 5  # a checker's diameter in v
COUNTS = tuple([0] * 5 + [3] + [0] * 6 + [-5] + [0] * 11 + [0, 0])


def _px(u: float, v: float) -> tuple[int, int]:
    return round(u * W), round(v * H)


def _centre_u(point: int) -> float:
    u0, u1 = LAYOUT.point_u(point)
    return (u0 + u1) / 2


def drawn_board(light=(200, 225, 235), dark=(40, 50, 70), field=(90, 140, 170),
                points=((60, 90, 150), (150, 190, 210))) -> np.ndarray:
    image = np.full((H, W, 3), field, np.uint8)
    for p in range(1, 25):
        u0, u1 = LAYOUT.point_u(p)
        base, tip = (0.0, LAYOUT.point_length_v) if p >= 13 else (1.0, 1.0 - LAYOUT.point_length_v)
        tri = np.array([_px(u0, base), _px(u1, base), _px((u0 + u1) / 2, tip)], np.int32)
        cv2.fillConvexPoly(image, tri, points[p % 2])
    radius = round(0.45 * D_V * H)
    for p, count, colour in ((6, 3, light), (13, 5, dark)):
        top = p >= 13
        for k in range(count):
            along = (k + 0.5) * D_V
            centre = _px(_centre_u(p), along if top else 1.0 - along)
            cv2.circle(image, centre, radius, colour, -1, cv2.LINE_AA)
            cv2.circle(image, centre, radius, (0, 0, 0), 1, cv2.LINE_AA)  # the rim
    return image


def with_die(image: np.ndarray, u: float, v: float) -> np.ndarray:
    out = image.copy()
    half = round(0.25 * D_V * H)  # a die is half a checker across
    x, y = _px(u, v)
    cv2.rectangle(out, (x - half, y - half), (x + half, y + half), (250, 250, 250), -1)
    for dx, dy in ((-0.5, -0.5), (0, 0), (0.5, 0.5)):
        cv2.circle(out, (round(x + dx * half), round(y + dy * half)), 2, (20, 20, 20), -1)
    return out


def test_a_die_on_a_stacks_top_checker_rests_on_it() -> None:
    u, v = _centre_u(6) + 0.002, 1.0 - 2.5 * D_V  # on the third checker, a little off centre
    image = with_die(drawn_board(), u, v)
    assert ring_on_checker(image, LAYOUT, H_SURFACE, COUNTS, 5, u, v) is True


@pytest.mark.parametrize("along", [3.4, 3.6])
def test_a_die_past_a_stacks_end_does_not(along: float) -> None:
    # the model counted the die as a fourth checker: the ring around it is the point
    u, v = _centre_u(6), 1.0 - along * D_V
    image = with_die(drawn_board(), u, v)
    counts = (*COUNTS[:5], 4, *COUNTS[6:])
    assert ring_on_checker(image, LAYOUT, H_SURFACE, counts, 5, u, v) is False


def test_a_die_on_a_dark_stack_rests_on_it() -> None:
    u, v = _centre_u(13), 1.5 * D_V
    image = with_die(drawn_board(), u, v)
    assert ring_on_checker(image, LAYOUT, H_SURFACE, COUNTS, 12, u, v) is True


def test_checkers_like_the_board_leave_it_to_the_count() -> None:
    # dark checkers on dark points and a dark field: the references cannot tell them apart
    dark = (40, 50, 70)
    image = drawn_board(light=dark, dark=dark, field=dark, points=(dark, dark))
    u, v = _centre_u(6), 1.0 - 3.4 * D_V
    assert ring_on_checker(with_die(image, u, v), LAYOUT, H_SURFACE, COUNTS, 5, u, v) is None


def test_no_empty_board_in_view_leaves_it_to_the_count() -> None:
    full = (*tuple(3 if c == 0 else c for c in COUNTS[:24]), 0, 0)
    u, v = _centre_u(6), 1.0 - 3.4 * D_V
    image = with_die(drawn_board(), u, v)
    # the only empty board is on the bar, which a die on a point does not compare with
    assert ring_on_checker(image, LAYOUT, H_SURFACE, full, 5, u, v) is None
