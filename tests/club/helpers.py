from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def wait_for(probe: Callable[[], T], timeout: float, what: str, step: float = 0.05) -> T:
    """The first truthy value `probe` returns within `timeout` seconds; else fail naming
    `what`."""
    deadline = time.monotonic() + timeout
    while True:
        value = probe()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(step)
