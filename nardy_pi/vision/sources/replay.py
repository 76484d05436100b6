"""Replay: a directory of images (sorted by name) or a video file, read through OpenCV."""

from __future__ import annotations

import time
from pathlib import Path

from nardy_pi.vision.sources.base import Frame, Reconnector, SourceStatus

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")


class DirectorySource:
    def __init__(self, path: str | Path, loop: bool = False) -> None:
        self.path = Path(path)
        self.loop = loop
        self._index = 0
        self._retry = Reconnector(interval=0.0)

    def _files(self) -> list[Path]:
        return sorted(p for p in self.path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)

    def read(self) -> Frame:
        from nardy_pi.vision.imageio import load_image

        try:
            files = self._files()
        except OSError as exc:
            return Frame(SourceStatus.LOST, message=f"image folder unavailable: {exc.strerror}")
        if self._index >= len(files):
            if not self.loop or not files:
                return Frame(SourceStatus.ENDED, message="no more images")
            self._index = 0
        path = files[self._index]
        self._index += 1
        try:
            image = load_image(path)
        except (ValueError, OSError) as exc:
            return Frame(SourceStatus.LOST, message=str(exc))
        return Frame(SourceStatus.OK, image, time.time())

    def close(self) -> None:
        pass


class VideoSource:
    def __init__(self, path: str | Path) -> None:
        import cv2

        self.path = Path(path)
        self._cap = cv2.VideoCapture(str(self.path))

    def read(self) -> Frame:
        if not self._cap.isOpened():
            return Frame(SourceStatus.LOST, message=f"cannot open video {self.path}")
        ok, image = self._cap.read()
        if not ok or image is None:
            return Frame(SourceStatus.ENDED, message="end of video")
        return Frame(SourceStatus.OK, image, time.time())

    def close(self) -> None:
        self._cap.release()
