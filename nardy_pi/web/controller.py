"""What the web layer needs from the rest of the program: the `Controller` seam.

The `run` wiring implements it on top of the referee and the match; tests and the demo use
`nardy_pi.web.demo.DemoMatch`. A controller publishes the consequences of an action to the
`StateHub` itself; the web layer only reports success or the refusal's reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from nardy_pi.web.commands import Command, Corner


class ControlError(RuntimeError):
    """The action is understood but cannot be done now (e.g. undo with nothing to undo)."""


@dataclass(frozen=True, slots=True)
class CalibrationView:
    """The camera frame with the detected overlay drawn in, and the corners in use."""

    jpeg: bytes | None  # None when no camera frame is available
    width: int
    height: int
    corners: tuple[Corner, ...]  # top_left, top_right, bottom_right, bottom_left; may be ()


class Controller(Protocol):
    def execute(self, command: Command) -> None:
        """Carry out a control command; raise ControlError with the reason when refused."""
        ...

    def export_mat(self) -> str:
        """The current match as .mat text (gnubg/Jellyfish match file)."""
        ...

    def calibration_view(self) -> CalibrationView:
        ...
