"""COBS, CRC and packets: published test vectors, round trips, and the firmware agreeing."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nardy_pi.devices.strip import cobs
from nardy_pi.devices.strip.crc import crc16
from nardy_pi.devices.strip.emulator import load_firmware_core
from nardy_pi.devices.strip.protocol import (
    Deframer,
    Packet,
    PacketError,
    PacketType,
    pack,
    parse_banner,
    unpack,
)

FW = load_firmware_core()

# The examples of the COBS article (Cheshire & Baker; reproduced on Wikipedia), no delimiter.
VECTORS = [
    (b"\x00", b"\x01\x01"),
    (b"\x00\x00", b"\x01\x01\x01"),
    (b"\x00\x11\x00", b"\x01\x02\x11\x01"),
    (b"\x11\x22\x00\x33", b"\x03\x11\x22\x02\x33"),
    (b"\x11\x22\x33\x44", b"\x05\x11\x22\x33\x44"),
    (b"\x11\x00\x00\x00", b"\x02\x11\x01\x01\x01"),
    (bytes(range(1, 255)), b"\xff" + bytes(range(1, 255))),
    (bytes(range(0, 255)), b"\x01\xff" + bytes(range(1, 255))),
    (bytes(range(1, 256)), b"\xff" + bytes(range(1, 255)) + b"\x02\xff"),
]


@pytest.mark.parametrize(("raw", "encoded"), VECTORS)
def test_cobs_matches_published_vectors(raw: bytes, encoded: bytes) -> None:
    assert cobs.encode(raw) == encoded
    assert cobs.decode(encoded) == raw
    assert FW.cobs_encode(raw) == encoded
    assert FW.cobs_decode(encoded) == raw


@given(st.binary(max_size=700))
def test_cobs_round_trip_has_no_zero(data: bytes) -> None:
    encoded = cobs.encode(data)
    assert 0 not in encoded
    assert cobs.decode(encoded) == data
    assert FW.cobs_encode(data) == encoded


def test_cobs_rejects_zero_and_overrun() -> None:
    with pytest.raises(cobs.CobsError):
        cobs.decode(b"\x03\x11\x00")
    with pytest.raises(cobs.CobsError):
        cobs.decode(b"\x05\x11\x22")
    assert FW.cobs_decode(b"\x05\x11\x22") is None


def test_crc16_ccitt_false_check_value() -> None:
    # The catalogue check value of CRC-16/CCITT-FALSE for the ASCII string "123456789".
    assert crc16(b"123456789") == 0x29B1
    assert FW.crc16(b"123456789") == 0x29B1


@given(st.integers(0, 255), st.integers(0, 255), st.binary(max_size=120))
def test_packet_round_trip_between_host_and_firmware(kind: int, seq: int, payload: bytes) -> None:
    wire = pack(Packet(kind, seq, payload))
    assert wire.endswith(b"\x00") and wire.count(0) == 1
    assert FW.pack(kind, seq, payload) == wire
    assert unpack(wire[:-1]) == Packet(kind, seq, payload)


def test_single_bit_flip_is_caught() -> None:
    wire = bytearray(pack(Packet(PacketType.FRAME, 7, bytes([255, 10, 20, 30]))))
    wire[3] ^= 0x04
    with pytest.raises(PacketError):
        unpack(bytes(wire[:-1]))


def test_deframer_resynchronises_after_garbage() -> None:
    good = pack(Packet(PacketType.ACK, 3))
    stream = b"\x13\x37garbage\xff\x00" + good[:2]
    deframer = Deframer()
    assert deframer.feed(stream) == []
    assert deframer.feed(good[2:] + good) == [Packet(PacketType.ACK, 3)] * 2
    assert deframer.errors == 1


def test_banner_from_firmware_parses() -> None:
    core = FW.StripCore(28)
    packets = Deframer().feed(core.banner())
    assert packets[0].type == PacketType.READY
    assert parse_banner(packets[0].payload) == (1, 28)
