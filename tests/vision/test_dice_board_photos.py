"""The learned board dice finder on real board photos (../shared/data/board-photos with the hand
labels of vision/train/data/board_photos.json): the die size comes from the labelled surface
corners, as it would from a calibration. The shipped models saw these photos in training, so
this is only a regression floor, below the issue's target (95%), for both reads: the camera's
(the plain check) and analyze's (the fine check for the likely dice). Held out by board the
proposal net proposes 93% of the boxed dice, and the checks accept 57% and 59%:
bench/bench_dice_board.py."""

from __future__ import annotations

import numpy as np
import pytest

from nardy_pi.vision.dice_board import find_board_dice, proposals
from nardy_pi.vision.dice_crops import foreshortening
from nardy_pi.vision.dice_net import default_nets
from nardy_pi.vision.dice_samples import labelled_board_photo_samples
from nardy_pi.vision.train.board_photos import PhotosMissing


@pytest.fixture(scope="module")
def samples():
    try:
        pairs = labelled_board_photo_samples()
    except PhotosMissing as exc:
        pytest.skip(f"../shared/data/board-photos is missing: {exc}")
    return [s for s, _ in pairs][::3]  # every third photo: a bounded run


def _tally(samples, fine: bool) -> tuple[int, int, int, int, int, int]:
    """(found, dice, right, readable, flat dice read cocked, flat dice found)."""
    found = dice = readable = right = flat_found = flat_cocked = 0
    for s in samples:
        result = find_board_dice(s.image, s.die_px, view=foreshortening(s.homography),
                                 fine=fine)
        for t in s.things:
            if t.is_cube:
                continue
            near = [d for d in result.dice
                    if abs(d.center[0] - t.x) < 0.8 * s.die_px
                    and abs(d.center[1] - t.y) < 0.8 * s.die_px]
            dice += 1
            found += bool(near)
            if 1 <= t.cls <= 6:
                readable += 1
                right += bool(near) and near[0].value == t.cls
                flat_found += bool(near)
                flat_cocked += bool(near) and not near[0].flat
    return found, dice, right, readable, flat_cocked, flat_found


@pytest.mark.parametrize("fine", [False, True], ids=["as the camera reads", "as analyze reads"])
def test_boxed_dice_are_found_and_readable_faces_read(samples, fine: bool) -> None:
    found, dice, right, readable, flat_cocked, flat_found = _tally(samples, fine)
    found_floor, read_floor = FINE_FLOORS if fine else FLOORS
    assert dice > 50
    assert found >= found_floor * dice, (found, dice)
    assert right >= read_floor * readable, (right, readable)
    # The photos are taken from the side (foreshortening 0.5-0.9), where every flat die shows
    # its side faces: those must not make it cocked (measured 0 of 68 and of 77).
    assert flat_cocked <= 0.03 * flat_found, (flat_cocked, flat_found)


def test_the_proposal_net_puts_a_peak_on_nearly_every_boxed_die(samples) -> None:
    """The first proposal net trained flat and proposed one boxed die in four; the check net
    can only accept what is proposed."""
    hit = dice = 0
    for s in samples:
        peaks = proposals(default_nets(), s.image, s.die_px)
        for t in s.things:
            if t.is_cube:
                continue
            dice += 1
            hit += bool(len(peaks)) and np.hypot(peaks[:, 0] - t.x, peaks[:, 1] - t.y).min() < (
                0.7 * s.die_px)
    assert dice > 50
    assert hit >= PROPOSED_FLOOR * dice, (hit, dice)


PROPOSED_FLOOR = 0.85  # held out by board: 330/354 (93%); the first net: 89/354 (25%)
# found, values read right; the camera's plain check measured 92/118 and 63/83 on this third
# (54/118 and 37/82 at the first floors, 12/118 and 7/82 before the proposal net's fix)
FLOORS = (0.7, 0.65)
FINE_FLOORS = (0.85, 0.8)  # analyze's fine check: measured 107/118, 75/83
