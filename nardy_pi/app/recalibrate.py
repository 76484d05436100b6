"""Calibrating from the web page while refereeing: the newest camera frame, corners tapped on
the page (or found), the variant's start position, a check that the frame reads back as that
position, and only then the switch of the observer. A failed attempt changes nothing: the old
calibration stays in use (and on disk).

Refusals carry a dotted `key` and `params` so the page says them in the players' language.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from nardy_pi.app.vision_feed import ObserverFeed

log = logging.getLogger(__name__)

Corner = tuple[float, float]


class CalibrationFailed(RuntimeError):
    """Why the attempt was refused; `key` is an i18n key (web/i18n.py)."""

    def __init__(self, key: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.key = key
        self.params = params


def _jpeg(image: np.ndarray) -> bytes | None:
    import cv2

    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 80])
    return bytes(buf) if ok else None


def _surface_finder() -> Callable[[np.ndarray], Any] | None:
    """`vision.board.find_surface.find_surface` when that module is installed."""
    try:
        from nardy_pi.vision.board.find_surface import find_surface
    except ImportError:
        return None
    return find_surface


class Recalibrator:
    """One calibration attempt at a time, on the frame the camera sent last."""

    def __init__(
        self,
        variant: Callable[[], str],
        frame: Callable[[], np.ndarray | None],
        install: Callable[[Any], None],
        save_path: str | Path | None = None,
    ) -> None:
        self._variant = variant
        self._frame = frame
        self._install = install
        self.save_path = Path(save_path) if save_path else None
        self._lock = threading.Lock()
        self.overlay_jpeg: bytes | None = None
        self.corners: tuple[Corner, ...] = ()

    def _image(self) -> np.ndarray:
        image = self._frame()
        if image is None:
            raise CalibrationFailed("calibration.no_frame", "no camera frame yet")
        return image

    def _attempt(self, image: np.ndarray, corners: Any) -> tuple[Any, Any, int]:
        from nardy_pi.vision.calibrate import calibrate
        from nardy_pi.vision.observe import Observer
        from nardy_pi.vision.start_positions import start_board

        board = start_board(self._variant())
        cal = calibrate(image, np.asarray(corners, dtype=np.float64), board)
        seen = Observer(cal).observe(image)
        agree = sum(a == b for a, b in zip(seen.observation.points, board.points, strict=True))
        return cal, seen, agree

    def _attempt_any_reader(self, image: np.ndarray, corners: Any) -> tuple[Any, Any, int]:
        """As `nardy-pi calibrate --tall-stacks-uncounted` does: the colour reader when it
        reads the start position back, else the learned reader adapted to this board
        (calibrate_board.py), which may count a long-nardy head short (no one at the table can
        pass a flag). `agree` is 24 when accepted (points out of view included), else the
        points read back."""
        from nardy_pi.vision.calibrate_board import calibrate_board
        from nardy_pi.vision.start_positions import start_board

        result = calibrate_board(image, np.asarray(corners, dtype=np.float64),
                                 start_board(self._variant()), tall_stacks_uncounted=True)
        return result.calibration, result.seen, 24 if result.accepted else min(result.agree, 23)

    def find_corners(self) -> tuple[Corner, ...]:
        """The playing surface's corners in the newest frame (top_left, top_right,
        bottom_right, bottom_left); CalibrationFailed when the board is not found."""
        image = self._image()
        finder = _surface_finder()
        candidates: list[Any] = []
        if finder is not None:
            try:
                found = finder(image)
            except Exception as exc:  # a finder that fails leaves tapping the corners
                log.info("find_surface failed: %s", exc)
                found = None
            corners = getattr(found, "corners", found)
            if corners is not None:
                candidates.append(corners)
        from nardy_pi.vision.markers import find_marker_corners, outline_candidates

        markers = find_marker_corners(image)
        if markers is not None:
            candidates.append(markers)
        candidates += outline_candidates(image)
        for corners in candidates:
            try:
                if self._attempt(image, corners)[2] == 24:
                    return tuple((float(x), float(y)) for x, y in np.asarray(corners))
            except ValueError:
                continue
        raise CalibrationFailed("calibration.not_found", "the board was not found in the frame")

    def apply(self, corners: tuple[Corner, ...]) -> None:
        """Calibrate on the newest frame; switch the observer only if the frame reads back
        as the start position. The overlay of what was read is kept for the page."""
        from nardy_pi.vision.overlay import draw_overlay

        if len(corners) != 4:
            raise CalibrationFailed("calibration.bad_corners", "give four corners")
        with self._lock:
            image = self._image()
            height, width = image.shape[:2]
            if not all(0 <= x <= width and 0 <= y <= height for x, y in corners):
                raise CalibrationFailed("calibration.bad_corners", "a corner is outside the frame")
            try:
                cal, seen, agree = self._attempt_any_reader(image, corners)
            except ValueError as exc:
                text = str(exc)
                key = "calibration.outside" if "outside" in text else "calibration.failed"
                raise CalibrationFailed(key, text, reason=text) from None
            self.overlay_jpeg = _jpeg(draw_overlay(image, seen.homography, seen.observation,
                                                   seen.dice_boxes))
            if agree < 24:
                raise CalibrationFailed(
                    "calibration.mismatch",
                    f"the frame reads back only {agree}/24 points of the start position",
                    agree=agree,
                )
            if self.save_path is not None:
                cal.save(self.save_path)
            self._install(cal)
            self.corners = tuple((float(x), float(y)) for x, y in corners)
            log.info("calibrated from the web page: corners %s", self.corners)


def observer_for(calibration: Any, learns: bool = True) -> ObserverFeed:
    """The loop's observe function for a calibration (with the dice reader if installed)."""
    from nardy_pi.vision.observe import Observer, default_dice_finder

    return ObserverFeed(Observer(calibration, default_dice_finder()), learns)
