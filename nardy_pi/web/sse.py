"""Server-sent events: the full snapshot on connect, then every newer one, and heartbeats.

The heartbeat is a named event (not a comment) so the page can notice a silent, dead
connection and fall back to polling; it also lets waitress notice a vanished client, whose
next write fails, which closes the stream and frees its slot.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from nardy_pi.web.hub import StateHub, StreamTicket
from nardy_pi.web.payload import SnapshotEncoder

RECONNECT_MS = 3000


def format_event(name: str, data: bytes, event_id: int | None = None) -> bytes:
    lines = [f"event: {name}".encode()]
    if event_id is not None:
        lines.append(f"id: {event_id}".encode())
    # A data line may not contain a newline; split so any payload stays well-formed.
    lines += [b"data: " + line for line in data.split(b"\n")]
    return b"\n".join(lines) + b"\n\n"


def state_stream(
    hub: StateHub, encoder: SnapshotEncoder, ticket: StreamTicket, heartbeat_seconds: float
) -> Iterator[bytes]:
    try:
        version, state = hub.latest()
        yield f"retry: {RECONNECT_MS}\n\n".encode() + format_event(
            "state", encoder.encode(state), state.seq
        )
        while not hub.closed:
            newer = hub.wait_newer(version, heartbeat_seconds)
            if newer is None:
                if hub.closed:
                    return
                beat = json.dumps({"seq": state.seq}).encode()
                yield format_event("heartbeat", beat)
                continue
            version, state = newer
            yield format_event("state", encoder.encode(state), state.seq)
    finally:
        ticket.release()
