"""The frame source interface: `read()` never raises for a camera that goes away; it returns
a Frame whose status says what happened, and the source tries to reconnect on later reads."""

from __future__ import annotations

import time
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

import numpy as np


class SourceStatus(StrEnum):
    OK = "ok"
    LOST = "lost"  # the device or files went away; reconnect attempts continue
    ENDED = "ended"  # a replay ran out of frames


@dataclass(frozen=True)
class Frame:
    status: SourceStatus
    image: np.ndarray | None = None
    timestamp: float = 0.0
    message: str = ""


class FrameSource(Protocol):
    def read(self) -> Frame: ...

    def close(self) -> None: ...


class Reconnector:
    """Paces reconnect attempts: at most one per `interval` seconds."""

    def __init__(self, interval: float = 1.0) -> None:
        self.interval = interval
        self._last = -1e9
        self.attempts = 0

    def due(self) -> bool:
        now = time.monotonic()
        if now - self._last < self.interval:
            return False
        self._last = now
        self.attempts += 1
        return True

    def reset(self) -> None:
        self.attempts = 0
