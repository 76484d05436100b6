"""Packets between the host and the strip firmware (hardware/firmware/stripcore.py).

On the wire every packet is `COBS(type, seq, payload..., crc_hi, crc_lo) 0x00`, the CRC-16 taken
over type, seq and payload. The host sends whole LED frames (idempotent: a resend or a newer
frame simply replaces what the strip shows) and pings; the device answers each with an ACK
carrying the same sequence number, and announces itself with READY after every boot and in
answer to HELLO (the host opens the port long after the device booted).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from nardy_pi.devices.strip.cobs import CobsError, decode, encode
from nardy_pi.devices.strip.crc import crc16

DELIMITER = b"\x00"
MAX_PACKET = 1024  # longer runs without a delimiter are garbage: drop them
PROTOCOL_VERSION = 1


class PacketType(IntEnum):
    FRAME = 0x01  # host -> device: payload = brightness, then R, G, B per LED
    PING = 0x02  # host -> device: heartbeat when the frame has not changed
    HELLO = 0x03  # host -> device: port just opened, answer with READY (same seq)
    READY = 0x80  # device -> host: payload = ASCII banner "nardy-strip <version> <leds>"
    ACK = 0x81  # device -> host: seq = the acknowledged packet's seq


class PacketError(ValueError):
    """A received packet failed COBS, length or CRC checks."""


@dataclass(frozen=True, slots=True)
class Packet:
    type: int
    seq: int
    payload: bytes = b""


Color = tuple[int, int, int]


def pack(packet: Packet) -> bytes:
    """Bytes to write, delimiter included."""
    body = bytes([packet.type & 0xFF, packet.seq & 0xFF]) + packet.payload
    crc = crc16(body)
    return encode(body + bytes([crc >> 8, crc & 0xFF])) + DELIMITER


def unpack(frame: bytes) -> Packet:
    """Parse one delimiter-free frame; raises PacketError when it is damaged."""
    try:
        raw = decode(frame)
    except CobsError as exc:
        raise PacketError(str(exc)) from None
    if len(raw) < 4:
        raise PacketError(f"packet too short ({len(raw)} bytes)")
    body, crc = raw[:-2], (raw[-2] << 8) | raw[-1]
    if crc16(body) != crc:
        raise PacketError("CRC mismatch")
    return Packet(body[0], body[1], bytes(body[2:]))


def frame_payload(colors: list[Color] | tuple[Color, ...], brightness: int = 255) -> bytes:
    out = bytearray([max(0, min(255, brightness))])
    for r, g, b in colors:
        out += bytes((r & 0xFF, g & 0xFF, b & 0xFF))
    return bytes(out)


def parse_banner(payload: bytes) -> tuple[int, int]:
    """(protocol version, LED count) from a READY banner; raises PacketError."""
    parts = payload.decode("ascii", "replace").split()
    if len(parts) != 3 or parts[0] != "nardy-strip" or not all(p.isdigit() for p in parts[1:]):
        raise PacketError(f"unexpected banner {payload!r}")
    return int(parts[1]), int(parts[2])


class Deframer:
    """Splits a byte stream at delimiters; yields good packets and counts bad ones."""

    def __init__(self) -> None:
        self._buf = bytearray()
        self.errors = 0

    def feed(self, data: bytes) -> list[Packet]:
        packets: list[Packet] = []
        for byte in data:
            if byte != 0:
                if len(self._buf) < MAX_PACKET:
                    self._buf.append(byte)
                continue
            if self._buf:
                try:
                    packets.append(unpack(bytes(self._buf)))
                except PacketError:
                    self.errors += 1
                self._buf.clear()
        return packets
