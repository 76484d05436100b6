"""The host side of the strip protocol without I/O: what to send, when, and the link's health.

Feed it received bytes and the clock; ask it for bytes to write. Keeping time and I/O out makes
the resend, heartbeat and reset rules testable step by step; `link.StripLink` pumps it over a
serial port.
"""

from __future__ import annotations

from dataclasses import dataclass

from nardy_pi.devices.strip.protocol import (
    Color,
    Deframer,
    Packet,
    PacketError,
    PacketType,
    frame_payload,
    pack,
    parse_banner,
)
from nardy_pi.state import DeviceStatus


@dataclass(frozen=True, slots=True)
class SessionTiming:
    ack_timeout: float = 0.25  # resend an unacknowledged packet after this long
    heartbeat: float = 1.0  # ping when nothing was sent for this long (firmware waits 3 s)
    silent_after: float = 2.5  # no ACK for this long: the device is unresponsive


@dataclass(slots=True)
class _Pending:
    seq: int
    data: bytes
    version: int  # frame version carried; -1 for a ping, -2 for a hello
    sent_at: float
    attempts: int


class StripSession:
    def __init__(self, timing: SessionTiming | None = None) -> None:
        self.timing = timing or SessionTiming()
        self._deframer = Deframer()
        self._payload: bytes | None = None
        self._version = 0  # bumps on every new frame
        self._acked_version = -1
        self._pending: _Pending | None = None
        self._seq = 0
        self._last_tx = float("-inf")
        self._last_rx: float | None = None
        self._need_hello = True
        self.device_leds: int | None = None
        self.banners_seen = 0
        self.resends = 0

    # --- inputs -------------------------------------------------------------------------------
    def port_opened(self) -> None:
        """A fresh port: greet the device before anything else, nothing is known about it."""
        self._need_hello = True
        self._pending = None
        self._acked_version = -1
        self._deframer = Deframer()

    def set_frame(self, colors: list[Color] | tuple[Color, ...], brightness: int = 255) -> None:
        payload = frame_payload(colors, brightness)
        if payload != self._payload:
            self._payload = payload
            self._version += 1

    def on_bytes(self, data: bytes, now: float) -> None:
        for packet in self._deframer.feed(data):
            self._on_packet(packet, now)

    def _on_packet(self, packet: Packet, now: float) -> None:
        if packet.type == PacketType.READY:
            try:
                _, self.device_leds = parse_banner(packet.payload)
            except PacketError:
                self._deframer.errors += 1
                return
            # A banner means the device (re)booted or was just greeted: send the frame again.
            self.banners_seen += 1
            self._need_hello = False
            self._acked_version = -1
            self._pending = None
            self._last_rx = now
        elif packet.type == PacketType.ACK and self._pending and packet.seq == self._pending.seq:
            if self._pending.version >= 0:
                self._acked_version = self._pending.version
            self._pending = None
            self._last_rx = now

    # --- outputs ------------------------------------------------------------------------------
    def poll(self, now: float) -> bytes:
        """Bytes to write now (possibly empty)."""
        pending = self._pending
        if self._need_hello and pending is None:
            return self._send(PacketType.HELLO, b"", -2, now)
        if self._need_hello:
            return self._resend_if_due(pending, now)
        if self._payload is not None and self._acked_version != self._version:
            newer = pending is None or pending.version != self._version
            if newer:  # newest wins: a changed frame goes out at once, superseding the old one
                return self._send(PacketType.FRAME, self._payload, self._version, now)
        if pending is not None:
            return self._resend_if_due(pending, now)
        if now - self._last_tx >= self.timing.heartbeat:
            return self._send(PacketType.PING, b"", -1, now)
        return b""

    def _resend_if_due(self, pending: _Pending, now: float) -> bytes:
        if now - pending.sent_at < self.timing.ack_timeout:
            return b""
        pending.sent_at = now
        pending.attempts += 1
        self.resends += 1
        self._last_tx = now
        return pending.data

    def _send(self, kind: PacketType, payload: bytes, version: int, now: float) -> bytes:
        self._seq = (self._seq + 1) & 0xFF
        data = pack(Packet(kind, self._seq, payload))
        self._pending = _Pending(self._seq, data, version, now, 1)
        self._last_tx = now
        return data

    # --- health -------------------------------------------------------------------------------
    @property
    def garbled(self) -> int:
        return self._deframer.errors

    @property
    def frame_acked(self) -> bool:
        return self._payload is not None and self._acked_version == self._version

    def status(self, now: float) -> DeviceStatus:
        if self._last_rx is None:
            return "absent"
        if now - self._last_rx > self.timing.silent_after:
            return "reconnecting"
        return "ok"
