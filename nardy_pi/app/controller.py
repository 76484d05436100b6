"""The web panel's `Controller` on top of the referee loop: commands run on the loop thread."""

from __future__ import annotations

from typing import Any

from nardy_pi.app.loop import CommandRefused, RefereeLoop
from nardy_pi.app.recalibrate import Recalibrator, observer_for
from nardy_pi.web.controller import CalibrationView, ControlError


class LoopController:
    def __init__(self, loop: RefereeLoop, calibration_path: str | None = None) -> None:
        self.loop = loop

        def install(calibration: Any) -> None:  # the frames worker reads it on its next frame
            loop.observe = observer_for(calibration)

        #: the page's calibration wizard (web/calibration_api.py)
        self.recalibrator = Recalibrator(lambda: loop.referee.variant.name,
                                         lambda: loop.last_frame, install, calibration_path)

    def execute(self, command: Any) -> None:
        try:
            self.loop.call(command)
        except CommandRefused as exc:
            raise ControlError(str(exc)) from None
        except TimeoutError:
            raise ControlError("the referee is busy; try again") from None

    def export_mat(self) -> str:
        text = getattr(self.loop.match, "mat_text", None)
        if text is None:
            raise ControlError("match export needs the match engine (nardy_pi.game)")
        return str(text())

    def calibration_view(self) -> CalibrationView:
        """The newest camera frame; the overlay and corners are not drawn yet."""
        frame = self.loop.last_frame
        if frame is None:
            return CalibrationView(jpeg=None, width=0, height=0, corners=())
        import cv2

        ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 80])
        height, width = frame.shape[:2]
        return CalibrationView(bytes(buf) if ok else None, int(width), int(height),
                               self.recalibrator.corners)
