"""The loop's camera feed over a real replay source: frames, then a camera that vanishes."""

from __future__ import annotations

import shutil
from pathlib import Path

import cv2
import numpy as np

from nardy_pi.app.sources import CameraFeed


def test_frames_then_a_vanished_camera_reads_none_and_says_so(tmp_path: Path) -> None:
    folder = tmp_path / "frames"
    folder.mkdir()
    for i in range(2):
        image = np.full((48, 64, 3), 40 * (i + 1), np.uint8)
        assert cv2.imwrite(str(folder / f"{i:03d}.png"), image)
    feed = CameraFeed.open("opencv", str(folder))
    assert feed.status() == "absent"
    first = feed.read()
    assert first is not None and first.shape == (48, 64, 3) and int(first[0, 0, 0]) == 40
    assert feed.status() == "ok"
    shutil.rmtree(folder)  # the "camera" goes away mid-game
    assert feed.read() is None
    assert feed.status() == "reconnecting"
    feed.close()


def test_a_camera_that_never_appears_is_absent(tmp_path: Path) -> None:
    feed = CameraFeed.open("opencv", str(tmp_path / "no-such-folder"))
    assert feed.read() is None
    assert feed.status() == "absent"
    feed.close()
