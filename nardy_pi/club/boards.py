"""What the tournament page knows about every table: status, newest snapshot, when it came.

Fed from the MQTT thread, read by every open page (waitress worker threads), so it is one
condition variable around a dict, like the board's own `StateHub`. Each entry carries the
table's version at its last change: a stream asks "what changed since version V" and gets
only those tables, newest wins, so a slow phone never makes the server queue history.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any, Literal

from nardy_pi.club.names import parse_topic
from nardy_pi.web.hub import StreamsFull, StreamTicket

log = logging.getLogger(__name__)

BoardStatus = Literal["online", "offline"]
MAX_STATE_BYTES = 512 * 1024  # a snapshot is a few KB; anything this big is not ours


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass(frozen=True, slots=True)
class BoardEntry:
    board: str
    status: BoardStatus
    state: dict[str, Any] | None
    updated: str  # ISO-8601, UTC
    version: int  # the table's version at this entry's last change

    def to_json(self) -> dict[str, Any]:
        """The entry exactly as `/api/boards` lists it (spec/club.md)."""
        return {"board": self.board, "status": self.status, "state": self.state,
                "updated": self.updated}


class BoardTable:
    def __init__(self, clock: Callable[[], str] = now_iso, max_streams: int = 64) -> None:
        self._cond = threading.Condition()
        self.max_streams = max_streams  # open event streams (waitress sizes its pool by it)
        self._open_streams = 0
        self._boards: dict[str, BoardEntry] = {}
        self._version = 0
        self._closed = False
        self._clock = clock
        self.ignored = 0  # messages refused (bad names, bad payloads)

    # --- the MQTT side ---------------------------------------------------------------------
    def receive(self, topic: str, payload: bytes) -> BoardEntry | None:
        """Take one message; the changed entry, or None (ignored with a log line)."""
        where = parse_topic(topic)
        if isinstance(where, str):
            return self._ignore(where)
        if where.kind == "status":
            text = payload.decode("utf-8", "replace").strip()
            if text not in ("online", "offline"):
                return self._ignore(f"board {where.board}: status {text[:20]!r} is not "
                                    "online or offline")
            return self._change(where.board, status=text)
        if not payload:  # a retained message being cleared: the table has gone for good
            return self._change(where.board, state=None)
        state = self._decode_state(where.board, payload)
        if state is None:
            return None
        return self._change(where.board, state=state)

    def _decode_state(self, board: str, payload: bytes) -> dict[str, Any] | None:
        if len(payload) > MAX_STATE_BYTES:
            self._ignore(f"board {board}: a {len(payload)}-byte state is too large")
            return None
        try:
            state = json.loads(payload)
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            self._ignore(f"board {board}: state is not JSON ({exc})")
            return None
        if not isinstance(state, dict):
            self._ignore(f"board {board}: state is not a JSON object")
            return None
        return state

    def _ignore(self, reason: str) -> None:
        log.warning("club: ignored: %s", reason)
        with self._cond:
            self.ignored += 1
        return None

    def _change(self, board: str, **values: Any) -> BoardEntry:
        with self._cond:
            self._version += 1
            old = self._boards.get(board)
            if old is None:
                # A state before any status: the board published, so it is (or was) online.
                old = BoardEntry(board, "online", None, "", 0)
            entry = replace(old, **values, updated=self._clock(), version=self._version)
            self._boards[board] = entry
            self._cond.notify_all()
            return entry

    def close(self) -> None:
        """Wake every stream and make them end (server shutdown)."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    # --- the page side ---------------------------------------------------------------------
    @property
    def closed(self) -> bool:
        with self._cond:
            return self._closed

    def snapshot(self) -> tuple[int, list[BoardEntry]]:
        """(version, every table sorted by name)."""
        with self._cond:
            return self._version, sorted(self._boards.values(), key=lambda e: e.board)

    def wait_changes(self, version: int, timeout: float) -> tuple[int, list[BoardEntry]] | None:
        """(new version, tables changed since `version`) once there are any; None on
        timeout or close."""
        with self._cond:
            self._cond.wait_for(lambda: self._closed or self._version != version, timeout)
            if self._closed or self._version == version:
                return None
            changed = [e for e in self._boards.values() if e.version > version]
            return self._version, sorted(changed, key=lambda e: e.board)

    def open_stream(self) -> StreamTicket:
        """Reserve one of `max_streams` stream slots (StreamsFull when all are taken)."""
        with self._cond:
            if self._open_streams >= self.max_streams:
                raise StreamsFull(f"{self._open_streams} event streams are open already")
            self._open_streams += 1
        return StreamTicket(self)  # type: ignore[arg-type]  # it only calls _release_stream

    def _release_stream(self) -> None:
        with self._cond:
            self._open_streams -= 1
