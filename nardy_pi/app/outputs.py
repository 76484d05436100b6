"""Outputs read snapshots. Each one gets every new `State`; one that fails is logged, marked
and given the newest state again later, and never stops the game or the other outputs."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from nardy_pi.state import DeviceStatus, State

log = logging.getLogger(__name__)


class Output(Protocol):
    name: str

    def show(self, state: State) -> None: ...

    def status(self) -> DeviceStatus: ...

    def close(self) -> None: ...


@dataclass
class _Slot:
    output: Output
    failures: int = 0
    retry_at: float = 0.0
    shown_seq: int = -1
    last_error: str = ""


@dataclass
class Fanout:
    outputs: list[Output]
    retry_seconds: float = 2.0
    max_backoff: float = 30.0
    _slots: list[_Slot] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._slots = [_Slot(o) for o in self.outputs]

    def add(self, output: Output) -> None:
        """An output started after the loop (the web page)."""
        self.outputs.append(output)
        self._slots.append(_Slot(output))

    def publish(self, state: State, now: float) -> None:
        for slot in self._slots:
            if slot.failures and now < slot.retry_at:
                continue  # still backing off: `retry` brings it up to date later
            self._show(slot, state, now)

    def retry(self, state: State, now: float) -> None:
        """Give the newest state to outputs that missed it because they failed."""
        for slot in self._slots:
            if slot.failures and now >= slot.retry_at and slot.shown_seq != state.seq:
                self._show(slot, state, now)

    def _show(self, slot: _Slot, state: State, now: float) -> None:
        try:
            slot.output.show(state)
        except Exception as exc:  # any output may fail in any way; the game goes on
            slot.failures += 1
            backoff = min(self.max_backoff, self.retry_seconds * 2 ** (slot.failures - 1))
            slot.retry_at = now + backoff
            slot.last_error = str(exc)
            log.warning("output %s failed (%s); retrying in %.0f s", slot.output.name, exc,
                        backoff)
            return
        if slot.failures:
            log.info("output %s works again", slot.output.name)
        slot.failures = 0
        slot.shown_seq = state.seq

    def statuses(self) -> dict[str, DeviceStatus]:
        out: dict[str, DeviceStatus] = {}
        for slot in self._slots:
            try:
                status = slot.output.status()
            except Exception:
                status = "error"
            out[slot.output.name] = "error" if slot.failures and status == "ok" else status
        return out

    def close(self) -> None:
        for slot in self._slots:
            try:
                slot.output.close()
            except Exception as exc:
                log.warning("closing %s: %s", slot.output.name, exc)


@dataclass
class CallbackOutput:
    """An output made of plain functions (the web hub, a log line, a test probe)."""

    name: str
    show_fn: Callable[[State], None]
    status_fn: Callable[[], DeviceStatus] = lambda: "ok"
    close_fn: Callable[[], None] = lambda: None

    def show(self, state: State) -> None:
        self.show_fn(state)

    def status(self) -> DeviceStatus:
        return self.status_fn()

    def close(self) -> None:
        self.close_fn()
