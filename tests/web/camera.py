"""A camera for the web tests: a real rendered frame of the start position (the demo table's
renderer) beside the real loop's controller, with the real `Recalibrator` on it, so the
page's calibration wizard runs the real calibration end to end."""

from __future__ import annotations

from typing import Any

import numpy as np

from nardy_pi.app.demo import DemoTable
from nardy_pi.app.recalibrate import Recalibrator
from nardy_pi.web.controller import CalibrationView


class TableCamera:
    """Controller wrapper: commands go to `controller`; calibration uses a rendered frame."""

    def __init__(self, controller: Any, variant: str = "backgammon") -> None:
        self.controller = controller
        self.frame, self.true_corners = DemoTable.for_variant(variant).calibration_frame()
        self.installed: list[Any] = []
        self.recalibrator = Recalibrator(lambda: variant, lambda: self.frame,
                                         self.installed.append)

    def execute(self, command: Any) -> None:
        self.controller.execute(command)

    def export_mat(self) -> str:
        return str(self.controller.export_mat())

    def calibration_view(self) -> CalibrationView:
        import cv2

        ok, buf = cv2.imencode(".jpg", self.frame)
        height, width = self.frame.shape[:2]
        return CalibrationView(bytes(buf) if ok else None, width, height,
                               self.recalibrator.corners)

    def corners_list(self) -> list[list[float]]:
        return [[float(x), float(y)] for x, y in np.asarray(self.true_corners)]
