"""What the web layer needs from the rest of the program: the `Controller` seam.

The `run` wiring implements it on top of the referee loop and the match engine
(`nardy_pi.web.serve.LoopController`). A controller publishes the consequences of an action
to the `StateHub` itself; the web layer only reports success or the refusal's reason
(`nardy_pi.errors.NardyError`, with its message key).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from nardy_pi.commands import Command, Corner
from nardy_pi.errors import CommandRefused

#: the refusal type controllers raise (kept under its old name for callers)
ControlError = CommandRefused


@dataclass(frozen=True, slots=True)
class CalibrationView:
    """The camera frame with the detected overlay drawn in, and the corners in use."""

    jpeg: bytes | None  # None when no camera frame is available
    width: int
    height: int
    corners: tuple[Corner, ...]  # top_left, top_right, bottom_right, bottom_left; may be ()


class Controller(Protocol):
    def execute(self, command: Command) -> None:
        """Carry out a control command; raise a NardyError with the reason when refused."""
        ...

    def export_mat(self) -> str:
        """The current match as .mat text (gnubg/Jellyfish match file)."""
        ...

    def calibration_view(self) -> CalibrationView:
        ...
