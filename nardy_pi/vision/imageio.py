"""Loading images with one clear reason when a file is missing, empty, corrupt, tiny or huge."""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np

MIN_SIDE = 32
MAX_SIDE = 12000
MAX_BYTES = 80 * 1024 * 1024


def _declared_size(head: bytes) -> tuple[int, int] | None:
    """Width and height from a PNG or JPEG header, read before decoding (decompression bombs)."""
    if head.startswith(b"\x89PNG\r\n\x1a\n") and len(head) >= 24:
        return struct.unpack(">II", head[16:24])
    if head.startswith(b"\xff\xd8"):
        i = 2
        while i + 9 < len(head):
            if head[i] != 0xFF:
                return None
            marker = head[i + 1]
            length = struct.unpack(">H", head[i + 2 : i + 4])[0]
            if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
                h, w = struct.unpack(">HH", head[i + 5 : i + 9])
                return w, h
            i += 2 + length
    return None


def load_image(path: str | Path) -> np.ndarray:
    """A BGR uint8 image, or ValueError saying why not."""
    import cv2

    p = Path(path)
    if not p.exists():
        raise ValueError(f"image not found: {p}")
    if not p.is_file():
        raise ValueError(f"not a file: {p}")
    size = p.stat().st_size
    if size == 0:
        raise ValueError(f"image file is empty: {p}")
    if size > MAX_BYTES:
        raise ValueError(f"image file is too large ({size // (1024 * 1024)} MB): {p}")
    data = p.read_bytes()
    declared = _declared_size(data[:65536])
    if declared and max(declared) > MAX_SIDE:
        w, h = declared
        raise ValueError(f"image is too large ({w}x{h}, max side {MAX_SIDE}): {p}")
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise ValueError(f"not a readable image (corrupt or unsupported format): {p}")
    h, w = image.shape[:2]
    if min(h, w) < MIN_SIDE:
        raise ValueError(f"image is too small ({w}x{h}, need at least {MIN_SIDE} px a side): {p}")
    if max(h, w) > MAX_SIDE:
        raise ValueError(f"image is too large ({w}x{h}, max side {MAX_SIDE}): {p}")
    return image


def save_png(path: str | Path, image: np.ndarray) -> None:
    import cv2

    p = Path(path)
    ok, buf = cv2.imencode(".png", image)
    if not ok:
        raise ValueError(f"could not encode PNG for {p}")
    try:
        p.write_bytes(buf.tobytes())
    except OSError as exc:
        raise OSError(f"cannot write {p}: {exc.strerror}") from None
