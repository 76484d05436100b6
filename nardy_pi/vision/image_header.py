"""The declared size of a PNG or JPEG from its first bytes, without Pillow.

Phone photos are JPEG and screenshots PNG: reading their headers here spares every command
that loads an image Pillow's import and plugin registry (about 35 ms of `analyze`'s start-up
here). Other formats return None and are checked by Pillow (imageio.declared_size).
"""

from __future__ import annotations

import struct
import zlib

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
JPEG_START = b"\xff\xd8"
#: start-of-frame markers (baseline, progressive, lossless, arithmetic); C4, C8 and CC are not
_SOF = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}
#: markers that stand alone, without a length: TEM, RST0-7, SOI
_STANDALONE = frozenset({0x01, *range(0xD0, 0xD9)})


class HeaderError(ValueError):
    """The file starts as a PNG or JPEG but its header is broken."""


def png_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from a PNG's IHDR; None when `data` is not a PNG."""
    if not data.startswith(PNG_SIGNATURE):
        return None
    ihdr = data[8:33]
    if len(ihdr) < 25 or ihdr[4:8] != b"IHDR" or struct.unpack(">I", ihdr[:4])[0] != 13:
        raise HeaderError("PNG without its IHDR header")
    if zlib.crc32(ihdr[4:21]) != struct.unpack(">I", ihdr[21:25])[0]:
        raise HeaderError("PNG header checksum is wrong")
    width, height = struct.unpack(">II", ihdr[8:16])
    return width, height


def jpeg_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from a JPEG's start-of-frame segment, walking the segments before it;
    None when `data` is not a JPEG, or when the frame's height is left to a later DNL segment
    (rare: Pillow is asked then)."""
    if not data.startswith(JPEG_START):
        return None
    at, end = 2, len(data)
    while at < end:
        if data[at] != 0xFF:
            raise HeaderError("JPEG segment does not start with a marker")
        while at < end and data[at] == 0xFF:  # fill bytes may pad a marker
            at += 1
        if at >= end:
            break
        marker = data[at]
        at += 1
        if marker in _STANDALONE:
            continue
        if marker == 0xD9:  # end of image before any frame
            break
        if at + 2 > end:
            break
        length = struct.unpack(">H", data[at:at + 2])[0]
        if length < 2:
            raise HeaderError("JPEG segment length is impossible")
        if marker in _SOF:
            if length < 8 or at + 7 > end:
                raise HeaderError("JPEG frame header is cut short")
            height, width = struct.unpack(">HH", data[at + 3:at + 7])
            return None if height == 0 else (width, height)
        at += length
    raise HeaderError("JPEG without a frame header")
