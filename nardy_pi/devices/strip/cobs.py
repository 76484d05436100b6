"""Consistent Overhead Byte Stuffing: frames with no zero byte, so 0x00 can end each packet.

A receiver that joins mid-stream or sees garbled bytes resynchronises at the next zero.
"""

from __future__ import annotations


class CobsError(ValueError):
    """The bytes are not a valid COBS encoding."""


def encode(data: bytes) -> bytes:
    """COBS-encode `data` (without the trailing 0x00 delimiter)."""
    out = bytearray([0])
    code_at = 0
    code = 1
    last = len(data) - 1
    for i, byte in enumerate(data):
        if byte == 0:
            out[code_at] = code
            code_at = len(out)
            out.append(0)
            code = 1
            continue
        out.append(byte)
        code += 1
        if code == 0xFF and i != last:  # block full and more data follows
            out[code_at] = code
            code_at = len(out)
            out.append(0)
            code = 1
    out[code_at] = code
    return bytes(out)


def decode(data: bytes) -> bytes:
    """Inverse of `encode`; raises CobsError on a zero byte or a block running past the end."""
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0:
            raise CobsError("zero byte inside a COBS frame")
        end = i + code
        if end > n:
            raise CobsError("COBS block runs past the end of the frame")
        block = data[i + 1 : end]
        if 0 in block:
            raise CobsError("zero byte inside a COBS frame")
        out += block
        i = end
        if code != 0xFF and i < n:
            out.append(0)
    return bytes(out)
