"""The camera as the loop sees it: an image or None, and a device status.

The cameras themselves (USB webcam, Pi camera, replay of a video or a folder) live in
`nardy_pi.vision.sources`; `CameraFeed` adapts one of them to the loop. The demo table
(`demo.DemoTable`) is a FrameSource of its own.
"""

from __future__ import annotations

import logging
import time
from typing import Protocol

import numpy as np

from nardy_pi.state import DeviceStatus
from nardy_pi.vision.sources import FrameSource as VisionSource
from nardy_pi.vision.sources import SourceStatus, open_source

log = logging.getLogger(__name__)


class FrameSource(Protocol):
    name: str

    def read(self) -> np.ndarray | None: ...

    def status(self) -> DeviceStatus: ...

    def close(self) -> None: ...


class CameraFeed:
    """A vision frame source for the loop; a camera that goes away reads as None while the
    source reconnects, and its status says so."""

    name = "camera"

    def __init__(self, source: VisionSource, idle_pause: float = 0.05) -> None:
        self._source = source
        self._status: DeviceStatus = "absent"
        self._idle_pause = idle_pause

    @classmethod
    def open(cls, kind: str, device: str) -> CameraFeed:
        """`kind` "picamera2" or "opencv"; an opencv `device` is an index or a video/folder."""
        if kind == "picamera2":
            return cls(open_source("picamera"))
        return cls(open_source(f"usb:{device}" if device.isdigit() else device))

    def read(self) -> np.ndarray | None:
        frame = self._source.read()
        if frame.status is SourceStatus.OK and frame.image is not None:
            self._status = "ok"
            return frame.image
        if self._status == "ok":
            log.warning("camera: %s", frame.message or frame.status.value)
        self._status = "reconnecting" if self._status != "absent" else "absent"
        time.sleep(self._idle_pause)  # nothing to observe: do not spin
        return None

    def status(self) -> DeviceStatus:
        return self._status

    def close(self) -> None:
        self._source.close()
