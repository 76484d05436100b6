"""Frame sources: a USB camera through OpenCV, the Pi camera through picamera2 (both imported
only when chosen) and the demo table (`demo.DemoTable`). Each reports its own status and
reconnects by itself; `read()` returns None when no frame is available right now."""

from __future__ import annotations

import logging
import time
from typing import Any, Protocol

import numpy as np

from nardy_pi.state import DeviceStatus

log = logging.getLogger(__name__)


class FrameSource(Protocol):
    name: str

    def read(self) -> np.ndarray | None: ...

    def status(self) -> DeviceStatus: ...

    def close(self) -> None: ...


class OpenCvCamera:
    """A USB webcam: MJPG, a one-frame buffer (the newest frame, not a queue of old ones)."""

    name = "camera"

    def __init__(self, device: str, reopen_seconds: float = 2.0) -> None:
        self.device: int | str = int(device) if device.isdigit() else device
        self.reopen_seconds = reopen_seconds
        self._cap: Any = None
        self._status: DeviceStatus = "absent"
        self._next_open = 0.0

    def _open(self) -> None:
        import cv2

        cap = cv2.VideoCapture(self.device)
        if not cap.isOpened():
            cap.release()
            self._status = "absent" if self._status == "absent" else "reconnecting"
            self._next_open = time.monotonic() + self.reopen_seconds
            return
        cap.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter_fourcc(*"MJPG"))
        cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)
        self._cap = cap

    def read(self) -> np.ndarray | None:
        if self._cap is None:
            if time.monotonic() < self._next_open:
                time.sleep(0.05)
                return None
            self._open()
            if self._cap is None:
                return None
        ok, frame = self._cap.read()
        if not ok:
            log.warning("camera %s stopped delivering frames; reopening", self.device)
            self.close()
            self._status = "reconnecting"
            self._next_open = time.monotonic() + self.reopen_seconds
            return None
        self._status = "ok"
        return frame

    def status(self) -> DeviceStatus:
        return self._status

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None


class PiCamera:
    """The Pi CSI camera (apt python3-picamera2; a venv needs --system-site-packages)."""

    name = "camera"

    def __init__(self, width: int = 1280, height: int = 960) -> None:
        self.size = (width, height)
        self._cam: Any = None
        self._status: DeviceStatus = "absent"

    def read(self) -> np.ndarray | None:
        try:
            if self._cam is None:
                from picamera2 import Picamera2

                cam = Picamera2()
                cam.configure(cam.create_video_configuration(
                    main={"size": self.size, "format": "BGR888"}
                ))
                cam.start()
                self._cam = cam
            frame = self._cam.capture_array()
        except Exception as exc:  # no camera, cable out, library missing: keep trying
            log.warning("pi camera: %s", exc)
            self.close()
            self._status = "reconnecting" if self._status == "ok" else "absent"
            time.sleep(1.0)
            return None
        self._status = "ok"
        return frame

    def status(self) -> DeviceStatus:
        return self._status

    def close(self) -> None:
        if self._cam is not None:
            try:
                self._cam.close()
            finally:
                self._cam = None
