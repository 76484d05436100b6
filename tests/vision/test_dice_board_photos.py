"""The learned board dice finder on real board photos (../shared/data/board-photos with the hand
labels of vision/train/data/board_photos.json): the die size comes from the labelled surface
corners, as it would from a calibration. The shipped models saw these photos in training, so
this is only a regression floor, far below the issue's target (95%): the learned finder
finds about one boxed die in ten on these photos today. Held-out figures:
bench/bench_dice_board.py."""

from __future__ import annotations

import pytest

from nardy_pi.vision.dice_board import find_board_dice
from nardy_pi.vision.dice_samples import labelled_board_photo_samples
from nardy_pi.vision.train.board_photos import PhotosMissing


@pytest.fixture(scope="module")
def samples():
    try:
        pairs = labelled_board_photo_samples()
    except PhotosMissing as exc:
        pytest.skip(f"../shared/data/board-photos is missing: {exc}")
    return [s for s, _ in pairs][::3]  # every third photo: a bounded run


def test_boxed_dice_are_found_and_readable_faces_read(samples) -> None:
    found = dice = readable = right = 0
    for s in samples:
        result = find_board_dice(s.image, s.die_px)
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
    assert dice > 50
    assert found >= FOUND_FLOOR * dice, (found, dice)
    assert right >= READ_FLOOR * readable, (right, readable)


FOUND_FLOOR = 0.07  # measured 12/118 on this third
READ_FLOOR = 0.04  # measured 7/82
