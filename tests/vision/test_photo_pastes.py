"""Training strips made by moving a photo's own checkers (vision/train/photo_pastes.py).

Drawn boards stand in for the photos here (their checkers' boxes are known exactly); the
real photos' boxes are checked against their labels in test_photo_pastes_real.py."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from nardy_pi.vision.board.layout import SLOTS, STRIP_H, STRIP_W, SurfaceLayout
from nardy_pi.vision.board.strips import StripCutter, map_points, surface_homography
from nardy_pi.vision.train.photo_pastes import (
    edit_strips,
    pasted_strips_of,
    place_checkers,
    read_checker_boxes,
)
from nardy_pi.vision.train.strip_data import Frame, strips_of

CORNERS = np.array([[40.0, 30.0], [600.0, 30.0], [600.0, 450.0], [40.0, 450.0]])
LAYOUT = SurfaceLayout()
LIGHT, DARK = (235, 235, 235), (25, 25, 25)


def test_label_lines_become_checker_boxes(tmp_path: Path) -> None:
    path = tmp_path / "a.txt"
    path.write_text("4 0.5 0.5 0.1 0.2\n"
                    "2 0.1 0.1 0.2 0.2 0.3 0.4 0.1 0.3\n"  # a polygon: its extent
                    "1 0.5 0.5 1 1\n"  # the board
                    "3 0.2 0.2 0.05 0.05\n"  # a die
                    "\n2 0.5\n")  # a broken line is passed over
    boxes = read_checker_boxes(path, 200, 100)
    assert boxes == pytest.approx(np.array([[90, 40, 110, 60, 1], [20, 10, 60, 40, -1.0]]))


def _draw_board(stacks: dict[int, tuple[int, float]]) -> tuple[np.ndarray, np.ndarray, dict]:
    """A board with `stacks` {slot: (signed count, distance of the first checker's centre
    from the base in checker lengths)}; returns the image, the checker boxes and, per slot,
    the checkers' centres in v from the base."""
    rng = np.random.default_rng(1)
    image = rng.integers(110, 140, (480, 640, 3)).astype(np.uint8)
    h = surface_homography(CORNERS)
    boxes, centres = [], {}
    for slot, (count, start) in stacks.items():
        u0, u1 = LAYOUT.point_u(slot + 1)
        size = (u1 - u0) * 0.9  # in u; the surface is about as tall as wide here
        step = size * (CORNERS[2, 0] - CORNERS[0, 0]) / (CORNERS[2, 1] - CORNERS[0, 1])
        for k in range(abs(count)):
            along = (start + k) * step + step / 2
            v = along if slot >= 12 else 1.0 - along
            c = map_points(h, np.array([[(u0 + u1) / 2, v]]))[0]
            r = size / 2 * (CORNERS[1, 0] - CORNERS[0, 0])
            cv2.circle(image, (round(c[0]), round(c[1])), round(r),
                       LIGHT if count > 0 else DARK, -1)
            boxes.append([c[0] - r, c[1] - r, c[0] + r, c[1] + r, np.sign(count)])
            centres.setdefault(slot, []).append(along)
    return image, np.asarray(boxes, float), centres


def test_boxed_checkers_are_placed_in_their_points_strips_base_first() -> None:
    _image, boxes, centres = _draw_board({0: (3, 0.0), 13: (-2, 0.0), 20: (1, 2.0)})
    placed = place_checkers(surface_homography(CORNERS), LAYOUT, boxes[::-1])
    assert sorted(placed) == [0, 13, 20]
    for slot, along in centres.items():
        stack = placed[slot]
        rows = [along_v / 0.5 * STRIP_H for along_v in along]
        assert [p.row for p in stack] == pytest.approx(rows, abs=1.0)
        assert all(abs(p.col - STRIP_W / 2) < 1.0 for p in stack)
        assert all(p.side == (1 if slot in (0, 20) else -1) for p in stack)
        # a checker 0.9 of the pitch wide: 0.75 of the 1.2-pitch strip
        assert all(p.col_radius == pytest.approx(0.75 * STRIP_W / 2, rel=0.05) for p in stack)


def _cut(image: np.ndarray):
    return StripCutter(CORNERS, LAYOUT, (image.shape[1], image.shape[0])).cut(image)


def _discs(strip: np.ndarray, colour: tuple[int, int, int]) -> int:
    """Separate discs of `colour` along a strip's middle column."""
    mid = strip[:, STRIP_W // 2 - 2:STRIP_W // 2 + 3].astype(int)
    hit = (np.abs(mid - colour).max(axis=2) < 40).all(axis=1)
    return int(np.sum(hit[1:] & ~hit[:-1]) + hit[0])


def _spaced_board() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    # stacks with gaps between checkers, so the edits can be counted on the pixels
    stacks = {0: (3, 0.0), 2: (0, 0.0), 4: (0, 0.0), 6: (-2, 0.0), 12: (2, 0.0), 14: (0, 0.0)}
    image = np.random.default_rng(1).integers(110, 140, (480, 640, 3)).astype(np.uint8)
    boxes = []
    h = surface_homography(CORNERS)
    for slot, (count, _start) in stacks.items():
        u0, u1 = LAYOUT.point_u(slot + 1)
        r = 0.35 * (u1 - u0) * (CORNERS[1, 0] - CORNERS[0, 0])
        for k in range(abs(count)):
            along = 0.05 + 0.11 * k
            c = map_points(h, np.array([[(u0 + u1) / 2, along if slot >= 12 else 1 - along]]))[0]
            cv2.circle(image, (round(c[0]), round(c[1])), round(r),
                       LIGHT if count > 0 else DARK, -1)
            boxes.append([c[0] - r, c[1] - r, c[0] + r, c[1] + r, np.sign(count)])
    counts = np.zeros(SLOTS, np.int64)
    for slot, (count, _start) in stacks.items():
        counts[slot] = count
    return image, np.asarray(boxes), counts


@pytest.mark.parametrize("seed", range(8))
def test_every_edit_shows_the_count_it_is_labelled_with(seed: int) -> None:
    image, boxes, counts = _spaced_board()
    strips = _cut(image)
    placed = place_checkers(surface_homography(CORNERS), LAYOUT, boxes)
    clean = np.zeros(SLOTS, bool)
    clean[[0, 2, 4, 6, 12, 14]] = True
    clean[18] = True  # an empty point with no empty partner of its colour in the row
    edited, new, which = edit_strips(strips, counts, clean, placed,
                                     np.random.default_rng(seed), share=1.0)
    assert which.any() and not which[~clean].any()
    assert (new[~which] == counts[~which]).all()
    for slot in np.nonzero(which)[0]:
        n = int(new[slot])
        assert n != counts[slot] and n != 0
        if counts[slot]:  # a stack is cut short or lengthened, never recoloured
            assert np.sign(n) == np.sign(counts[slot]) and abs(n - counts[slot]) >= 1
        colour = LIGHT if n > 0 else DARK
        assert _discs(edited.raw[slot], colour) == abs(n), (slot, counts[slot], n)
    for slot in np.nonzero(~which)[0]:
        assert (edited.raw[slot] == strips.raw[slot]).all()


def test_nothing_is_edited_without_clean_strips() -> None:
    image, boxes, counts = _spaced_board()
    strips = _cut(image)
    placed = place_checkers(surface_homography(CORNERS), LAYOUT, boxes)
    _, new, which = edit_strips(strips, counts, np.zeros(SLOTS, bool), placed,
                                np.random.default_rng(0), share=1.0)
    assert not which.any() and (new == counts).all()


def test_a_pasted_copy_keeps_its_clean_point_strips_with_their_new_counts() -> None:
    image, boxes, counts = _spaced_board()
    frame = Frame(image, CORNERS, LAYOUT, counts, checkers=boxes)
    got = pasted_strips_of(frame, np.random.default_rng(2), group=5, jitter=0.0)
    plain = strips_of(frame, np.random.default_rng(2), group=5, jitter=0.0)
    assert len(got) == 24 and (got.group == 5).all()  # points only, never the bar
    assert len(plain) == SLOTS
    # the same copy, shaken the same way: the counts that differ are the edits
    changed = got.count != plain.count[:24]
    assert changed.any()
    assert (got.count[changed] > 0).all()  # an edit never leaves a point empty
    # without boxes (the renders) nothing is made
    bare = Frame(image, CORNERS, LAYOUT, counts)
    assert len(pasted_strips_of(bare, np.random.default_rng(2), group=5)) == 0

