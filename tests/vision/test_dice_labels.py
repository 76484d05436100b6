"""YOLO label parsing and centre matching, which every dice figure in bench/ relies on."""

from __future__ import annotations

from pathlib import Path

import pytest

from nardy_pi.vision.dice_labels import DieLabel, read_yolo_labels, score_photo
from nardy_pi.vision.types import DieReading


def test_yolo_lines_become_pixel_labels_with_face_values(tmp_path: Path) -> None:
    path = tmp_path / "a.txt"
    path.write_text("0 0.5 0.25 0.1 0.2\n\n5 0.25 0.75 0.05 0.05\n")
    labels = read_yolo_labels(path, 640, 480)
    assert labels == (
        DieLabel(1, (320.0, 120.0), (64.0, 96.0)),
        DieLabel(6, (160.0, 360.0), (32.0, 24.0)),
    )


@pytest.mark.parametrize("line", ["0 0.5 0.5 0.1", "6 0.5 0.5 0.1 0.1", "x 0.5 0.5 0.1 0.1"])
def test_malformed_label_lines_are_rejected(tmp_path: Path, line: str) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(line + "\n")
    with pytest.raises(ValueError):
        read_yolo_labels(path, 640, 480)


def die(value: int | None, box: tuple[float, float, float, float]) -> DieReading:
    x0, y0, x1, y1 = box
    return DieReading(value, ((x0 + x1) / 2, (y0 + y1) / 2), box)


def test_a_label_matches_the_detection_holding_its_centre_not_the_overlapping_one() -> None:
    # The label box covers only the top face (upper part of the die); the detection box
    # covers the whole die. A second, phantom detection lies elsewhere.
    labels = [DieLabel(3, (100.0, 90.0), (20.0, 12.0))]
    found = [die(3, (85.0, 80.0, 115.0, 125.0)), die(2, (300.0, 300.0, 330.0, 330.0))]
    score = score_photo(labels, found)
    assert score.pairs == ((3, 3),)
    assert score.missed == 0 and score.phantoms == 1


def test_each_detection_serves_one_label_nearest_centre_first() -> None:
    labels = [DieLabel(4, (100.0, 100.0), (10.0, 10.0)), DieLabel(5, (112.0, 100.0), (10.0, 10.0))]
    found = [die(5, (90.0, 90.0, 125.0, 115.0))]  # centre (107.5, 102.5): nearer the second
    score = score_photo(labels, found)
    assert score.pairs == ((5, 5),)
    assert score.missed == 1 and score.phantoms == 0
