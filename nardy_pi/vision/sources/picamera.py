"""The Raspberry Pi camera through picamera2 (imported only here, only when used).

Exposure and white balance are left automatic until they settle, then locked, so the colours
learned at calibration stay valid; `locked_controls` is what to store with the calibration.
"""

from __future__ import annotations

import time

from nardy_pi.vision.sources.base import Frame, Reconnector, SourceStatus


class PiCameraSource:
    def __init__(self, width: int = 1280, height: int = 960, settle_seconds: float = 2.0,
                 controls: dict | None = None) -> None:
        try:
            from picamera2 import Picamera2  # type: ignore[import-not-found]
        except ImportError:
            raise ValueError("the Pi camera needs the picamera2 package "
                             "(sudo apt install python3-picamera2)") from None
        self._factory = Picamera2
        self.size = (width, height)
        self.settle_seconds = settle_seconds
        self.locked_controls: dict = dict(controls or {})
        self._retry = Reconnector(1.0)
        self._cam = None
        self._start()

    def _start(self) -> None:
        try:
            cam = self._factory()
            cam.configure(cam.create_video_configuration(
                main={"size": self.size, "format": "BGR888"}, buffer_count=2))
            cam.start()
            if self.locked_controls:
                cam.set_controls(self.locked_controls)
            else:
                time.sleep(self.settle_seconds)
                meta = cam.capture_metadata()
                self.locked_controls = {
                    "AeEnable": False, "AwbEnable": False,
                    "ExposureTime": meta.get("ExposureTime"),
                    "AnalogueGain": meta.get("AnalogueGain"),
                    "ColourGains": meta.get("ColourGains"),
                }
                cam.set_controls(self.locked_controls)
            self._cam = cam
        except Exception:
            self._cam = None

    def read(self) -> Frame:
        if self._cam is None and self._retry.due():
            self._start()
        if self._cam is None:
            return Frame(SourceStatus.LOST, message="Pi camera not available")
        try:
            image = self._cam.capture_array("main")
        except Exception as exc:
            self.close()
            return Frame(SourceStatus.LOST, message=f"Pi camera stopped: {exc}")
        return Frame(SourceStatus.OK, image, time.time())

    def close(self) -> None:
        if self._cam is not None:
            try:
                self._cam.stop()
                self._cam.close()
            except Exception:
                pass
            self._cam = None
