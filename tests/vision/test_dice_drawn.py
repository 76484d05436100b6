"""The dice reader on dice drawn here with OpenCV, where the true top face is known by design.

Each die is a white square (its top face) with black pips in the standard layouts, rotated,
on a wooden-looking table with noise; some also show a shaded side face with its own pips
below the top, as a camera slightly to the side sees it. The reader must count the top only.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from nardy_pi.vision.dice import find_dice

# Pip centres in face units (-1..1 square): the standard layouts.
LAYOUT = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}


def table(width: int = 640, height: int = 480, seed: int = 0) -> np.ndarray:
    """A brown, grainy, unevenly lit surface."""
    rng = np.random.default_rng(seed)
    img = np.zeros((height, width, 3), np.float32)
    img[:] = (70, 110, 150)
    grain = np.sin(np.linspace(0, 40, height))[:, None] * 8
    img += grain[..., None] + rng.normal(0, 4, img.shape)
    img *= np.linspace(0.9, 1.1, width)[None, :, None]
    return np.clip(img, 0, 255).astype(np.uint8)


def draw_die(img: np.ndarray, centre: tuple[float, float], side: float, value: int,
             angle_deg: float, side_value: int | None = None) -> None:
    """A top face (value), optionally above a shaded front face showing side_value."""
    a = np.radians(angle_deg)
    u = np.array([np.cos(a), np.sin(a)]) * side / 2
    v = np.array([-np.sin(a), np.cos(a)]) * side / 2
    c = np.asarray(centre, float)
    top = np.array([c - u - v, c + u - v, c + u + v, c - u + v])
    if side_value is not None:
        drop = np.array([0.0, 0.55 * side])
        low = top[np.argsort(top[:, 1])[-2:]]  # the two corners nearest the camera
        low = low[np.argsort(low[:, 0])]
        front = np.array([low[0], low[1], low[1] + drop, low[0] + drop])
        cv2.fillConvexPoly(img, np.round(front).astype(np.int32), (165, 170, 172))
        fu, fv = (front[1] - front[0]) / 2, (front[3] - front[0]) / 2
        fc = front.mean(axis=0)
        for px, py in LAYOUT[side_value]:
            p = fc + 0.5 * px * fu + 0.5 * py * fv
            axes = (max(1, round(0.09 * side)), max(1, round(0.05 * side)))
            cv2.ellipse(img, tuple(np.round(p).astype(int)), axes, 0, 0, 360, (30, 30, 30), -1)
    cv2.fillConvexPoly(img, np.round(top).astype(np.int32), (238, 242, 244))
    for px, py in LAYOUT[value]:
        p = c + 0.55 * px * u + 0.55 * py * v
        cv2.circle(img, tuple(np.round(p).astype(int)), max(2, round(0.09 * side)), (20, 20, 20),
                   -1, cv2.LINE_AA)


def read_one(img: np.ndarray):
    found = find_dice(img)
    assert len(found) == 1, found
    return found[0]


@pytest.mark.parametrize("value", range(1, 7))
@pytest.mark.parametrize("angle", [0.0, 22.0, -35.0])
def test_reads_each_face_seen_from_above(value: int, angle: float) -> None:
    img = table(seed=value)
    draw_die(img, (300, 220), 56, value, angle)
    die = read_one(img)
    assert die.value == value
    assert die.flat
    x0, y0, x1, y1 = die.box
    assert x0 < 300 < x1 and y0 < 220 < y1


@pytest.mark.parametrize(("value", "side_value"), [(1, 5), (2, 6), (3, 4), (5, 3), (6, 2)])
def test_side_face_pips_are_not_counted(value: int, side_value: int) -> None:
    img = table(seed=10 + value)
    draw_die(img, (320, 200), 60, value, 8.0, side_value=side_value)
    assert read_one(img).value == value


def test_two_dice_in_one_frame_are_both_read_left_to_right() -> None:
    img = table(seed=3)
    draw_die(img, (420, 300), 50, 2, 15.0)
    draw_die(img, (200, 180), 50, 5, -10.0)
    assert [d.value for d in find_dice(img)] == [5, 2]


def test_no_phantoms_on_an_empty_table_or_a_blank_white_card() -> None:
    img = table(seed=4)
    assert find_dice(img) == []
    cv2.rectangle(img, (200, 150), (280, 230), (240, 242, 244), -1)  # white, but no pips
    assert find_dice(img) == []


def test_grey_and_bgra_images_are_accepted() -> None:
    img = table(seed=5)
    draw_die(img, (320, 240), 56, 4, 5.0)
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    assert [d.value for d in find_dice(grey)] == [4]
    assert [d.value for d in find_dice(cv2.cvtColor(img, cv2.COLOR_BGR2BGRA))] == [4]


@pytest.mark.parametrize(
    "bad",
    [np.zeros((8, 8, 3), np.uint8), np.zeros((100, 100, 3), np.float32),
     np.zeros((100, 100, 2), np.uint8), np.zeros(100, np.uint8)],
)
def test_unusable_arrays_raise_value_error(bad: np.ndarray) -> None:
    with pytest.raises(ValueError):
        find_dice(bad)
