"""Frame sources report a vanished camera as a status, and stability needs N equal frames."""

from __future__ import annotations

import shutil
from pathlib import Path

import cv2
import numpy as np

from nardy_pi.vision.render import Scene
from nardy_pi.vision.render.scene import HandPlacement
from nardy_pi.vision.sources import SourceStatus, open_source
from nardy_pi.vision.sources.replay import DirectorySource, VideoSource
from nardy_pi.vision.sources.synthetic import SyntheticSource
from nardy_pi.vision.sources.webcam import WebcamSource
from nardy_pi.vision.stability import StabilityFilter
from nardy_pi.vision.types import Observation
from tests.vision.scenes import points


def _write_frames(folder: Path, count: int) -> None:
    folder.mkdir()
    for i in range(count):
        cv2.imwrite(str(folder / f"frame_{i:03d}.png"), np.full((48, 64, 3), 10 * i, np.uint8))


def test_directory_replay_in_name_order_then_ended(tmp_path: Path) -> None:
    folder = tmp_path / "frames"
    _write_frames(folder, 3)
    source = open_source(f"dir:{folder}")
    values = [int(source.read().image[0, 0, 0]) for _ in range(3)]
    assert values == [0, 10, 20]
    assert source.read().status is SourceStatus.ENDED


def test_a_folder_that_vanishes_gives_a_status_then_recovers(tmp_path: Path) -> None:
    folder = tmp_path / "frames"
    _write_frames(folder, 2)
    source = DirectorySource(folder, loop=True)
    assert source.read().status is SourceStatus.OK
    shutil.rmtree(folder)
    lost = source.read()
    assert lost.status is SourceStatus.LOST and lost.image is None
    assert "unavailable" in lost.message
    _write_frames(folder, 2)  # the camera (folder) comes back: reading resumes
    assert source.read().status is SourceStatus.OK


def test_a_corrupt_frame_is_a_status_not_a_crash(tmp_path: Path) -> None:
    folder = tmp_path / "frames"
    folder.mkdir()
    (folder / "a.png").write_bytes(b"garbage")
    frame = DirectorySource(folder).read()
    assert frame.status is SourceStatus.LOST and "not a readable image" in frame.message


def test_video_replay_and_a_missing_video(tmp_path: Path) -> None:
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 5, (64, 48))
    for i in range(3):
        writer.write(np.full((48, 64, 3), 60 * i, np.uint8))
    writer.release()
    source = VideoSource(path)
    statuses = [source.read().status for _ in range(4)]
    assert statuses == [SourceStatus.OK] * 3 + [SourceStatus.ENDED]
    assert VideoSource(tmp_path / "none.avi").read().status is SourceStatus.LOST


def test_a_webcam_that_is_not_there_is_lost_not_a_crash() -> None:
    source = WebcamSource(index=97, reconnect_interval=0.0)
    first, second = source.read(), source.read()
    assert first.status is SourceStatus.LOST and second.status is SourceStatus.LOST
    assert "not available" in second.message
    source.close()


def test_synthetic_source_gives_frames_with_truth() -> None:
    scenes = [Scene(points=points(p6=5, p13=-2), seed=1),
              Scene(points=points(p6=5), hands=(HandPlacement(2, 5.0, 8.0),), seed=2)]
    source = SyntheticSource(style="felt", scenes=scenes)
    frame = source.read()
    assert frame.status is SourceStatus.OK and frame.image.shape == (480, 640, 3)
    assert source.last_truth["points"][5] == 5
    source.read()
    assert source.last_truth["occluded"] is True
    assert source.read().status is SourceStatus.ENDED


def _obs(first_point: int, occluded: bool = False) -> Observation:
    return Observation(points=(first_point,) + (0,) * 23, bar_white=0, bar_black=0,
                       off_white=None, off_black=None, occluded=occluded)


def test_stable_only_after_n_equal_frames() -> None:
    stability = StabilityFilter(frames=3)
    assert stability.feed(_obs(2)) is None
    assert stability.feed(_obs(2)) is None
    assert stability.feed(_obs(2)) == _obs(2)
    assert stability.feed(_obs(3)) is None  # a change starts a new run


def test_an_occluded_frame_never_yields_a_position_and_breaks_the_run() -> None:
    stability = StabilityFilter(frames=2)
    stability.feed(_obs(2))
    assert stability.feed(_obs(2, occluded=True)) is None
    assert stability.feed(_obs(2)) is None
    assert stability.feed(_obs(2)) is not None
