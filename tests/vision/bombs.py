"""Image bombs: small files that declare huge images (for tests and bench/bench_image_bombs.py).

Each is a real file of its format, readable by Pillow and OpenCV alike; only its declared
size is hostile.
"""

from __future__ import annotations

import struct
import zlib

import cv2
import numpy as np


def png_declaring(width: int, height: int) -> bytes:
    """A small PNG whose IHDR declares width x height (checksum fixed, so it is valid)."""
    _, buf = cv2.imencode(".png", np.zeros((40, 40, 3), np.uint8))
    data = bytearray(buf.tobytes())
    data[16:24] = struct.pack(">II", width, height)
    data[29:33] = struct.pack(">I", zlib.crc32(bytes(data[12:29])))
    return bytes(data)


def png_truly(width: int, height: int) -> bytes:
    """A real PNG of that size, all one colour (compresses to almost nothing)."""
    row = b"\x00" + b"\x00" * (width * 3)
    packer = zlib.compressobj(9)
    raw = b"".join(packer.compress(row) for _ in range(height)) + packer.flush()

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(
            ">I", zlib.crc32(kind + body)
        )

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", raw) + chunk(b"IEND", b"")


def rle_bmp(width: int, height: int) -> bytes:
    """An 8-bit run-length BMP of width x height: a few KB on disk, width*height when decoded.

    Each row is runs of 255 pixels plus an end-of-line; the file ends with end-of-bitmap.
    """
    row = bytearray()
    left = width
    while left:
        n = min(255, left)
        row += bytes((n, 0))
        left -= n
    row += b"\x00\x00"
    pixels = bytes(row) * height + b"\x00\x01"
    palette = b"\x00\x00\x00\x00" * 256
    offset = 14 + 40 + len(palette)
    header = b"BM" + struct.pack("<IHHI", offset + len(pixels), 0, 0, offset)
    info = struct.pack(
        "<IiiHHIIiiII", 40, width, height, 1, 8, 1, len(pixels), 2835, 2835, 256, 0
    )
    return header + info + palette + pixels


def jpeg_with_late_sof(width: int, height: int, padding: int = 70_000) -> bytes:
    """A JPEG whose frame header (SOF, with the size) comes after `padding` bytes of comments,
    declaring width x height."""
    _, buf = cv2.imencode(".jpg", np.zeros((16, 16, 3), np.uint8))
    data = buf.tobytes()
    comments = b""
    left = padding
    while left > 0:
        n = min(60_000, left)
        comments += b"\xff\xfe" + struct.pack(">H", n + 2) + b"c" * n
        left -= n
    sof = data.find(b"\xff\xc0")
    patched = bytearray(data)
    patched[sof + 5 : sof + 9] = struct.pack(">HH", height, width)
    return bytes(patched[:2]) + comments + bytes(patched[2:])
