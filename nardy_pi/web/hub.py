"""The latest `State`, shared between the producer and every open page (thread-safe).

Waitress serves each request, including every open event stream, from its own worker
thread, so the hub is a condition variable around one value: a stream never queues
snapshots, it only asks for "anything newer than what I sent", so a slow phone can never
make the server buffer history (newest wins).
"""

from __future__ import annotations

import threading

from nardy_pi.state import State


def waiting_state() -> State:
    """What the page shows before any match exists: an empty board, nobody to move."""
    return State(variant="backgammon", board="-" * 26, points=(0,) * 24, turn=None, phase="idle")


class StreamsFull(RuntimeError):
    """Raised when the cap on open event streams is reached."""


class StateHub:
    """Holds the newest State; streams wait on it; bounded number of open streams."""

    def __init__(self, initial: State | None = None, max_streams: int = 64) -> None:
        if max_streams < 1:
            raise ValueError("max_streams must be at least 1")
        self._cond = threading.Condition()
        self._state = initial if initial is not None else waiting_state()
        # Our own counter, so streams wake on every publish even if a producer reuses seq.
        self._version = 0
        self._closed = False
        self._open_streams = 0
        self.max_streams = max_streams

    # --- producer side ---------------------------------------------------------------
    def publish(self, state: State) -> None:
        with self._cond:
            self._state = state
            self._version += 1
            self._cond.notify_all()

    def close(self) -> None:
        """Wake every stream and make them end (server shutdown)."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    # --- reader side -------------------------------------------------------------------
    @property
    def closed(self) -> bool:
        with self._cond:
            return self._closed

    def latest(self) -> tuple[int, State]:
        """(version, state) of the newest snapshot."""
        with self._cond:
            return self._version, self._state

    def wait_newer(self, version: int, timeout: float) -> tuple[int, State] | None:
        """The newest (version, state) once it is newer than `version`; None on timeout/close."""
        with self._cond:
            self._cond.wait_for(lambda: self._closed or self._version != version, timeout)
            if self._closed or self._version == version:
                return None
            return self._version, self._state

    @property
    def open_streams(self) -> int:
        with self._cond:
            return self._open_streams

    def open_stream(self) -> StreamTicket:
        """Reserve one of `max_streams` slots; release it with `StreamTicket.release()`."""
        with self._cond:
            if self._open_streams >= self.max_streams:
                raise StreamsFull(f"{self._open_streams} event streams are open already")
            self._open_streams += 1
        return StreamTicket(self)

    def _release_stream(self) -> None:
        with self._cond:
            self._open_streams -= 1


class StreamTicket:
    """One open stream's slot. `release` is idempotent: WSGI close and the generator's own
    cleanup may both call it, and a generator that never started runs no `finally`."""

    def __init__(self, hub: StateHub) -> None:
        self._hub = hub
        self._lock = threading.Lock()
        self._released = False

    def release(self) -> None:
        with self._lock:
            if self._released:
                return
            self._released = True
        self._hub._release_stream()
