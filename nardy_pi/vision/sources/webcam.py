"""A USB webcam through OpenCV: MJPG (USB 2 bandwidth) and a one-frame buffer (fresh frames).
A camera that disappears yields LOST frames and is reopened at most once a second."""

from __future__ import annotations

import time

from nardy_pi.vision.sources.base import Frame, Reconnector, SourceStatus


class WebcamSource:
    def __init__(self, index: int = 0, width: int = 1280, height: int = 960,
                 reconnect_interval: float = 1.0) -> None:
        self.index, self.width, self.height = index, width, height
        self._retry = Reconnector(reconnect_interval)
        self._cap = None
        self._open()

    def _open(self) -> None:
        import cv2

        cap = cv2.VideoCapture(self.index)
        if cap.isOpened():
            cap.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter_fourcc(*"MJPG"))
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.width)
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.height)
            cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)
            self._cap = cap
            self._retry.reset()
        else:
            cap.release()
            self._cap = None

    def read(self) -> Frame:
        if self._cap is None:
            if self._retry.due():
                self._open()
            if self._cap is None:
                return Frame(SourceStatus.LOST, message=f"camera {self.index} not available "
                             f"(reconnect attempts: {self._retry.attempts})")
        ok, image = self._cap.read()
        if not ok or image is None:
            self._cap.release()
            self._cap = None
            return Frame(SourceStatus.LOST, message=f"camera {self.index} stopped sending frames")
        return Frame(SourceStatus.OK, image, time.time())

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None
