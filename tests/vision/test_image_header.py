"""PNG and JPEG sizes read from their headers agree with Pillow's, and broken headers say so."""

from __future__ import annotations

import io
import random
import struct

import cv2
import numpy as np
import pytest
from PIL import Image

from nardy_pi.vision.image_header import HeaderError, jpeg_size, png_size
from nardy_pi.vision.imageio import declared_size
from tests.shared_data import shared_dir
from tests.vision.bombs import jpeg_with_late_sof, png_declaring


def _pillow_size(data: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(data)) as img:
        return img.size


def _encoded(ext: str, width: int, height: int, grey: bool = False, **params: int) -> bytes:
    image = np.random.default_rng(width).integers(0, 255, (height, width, 3), np.uint8)
    flags = [v for kv in params.items() for v in (getattr(cv2, kv[0]), kv[1])]
    ok, buf = cv2.imencode(ext, image[:, :, 0] if grey else image, flags)
    assert ok
    return buf.tobytes()


@pytest.mark.parametrize(("ext", "params"), [
    (".png", {}), (".jpg", {}), (".jpg", {"IMWRITE_JPEG_PROGRESSIVE": 1}),
    (".jpg", {"IMWRITE_JPEG_OPTIMIZE": 1}),
])
@pytest.mark.parametrize(("width", "height", "grey"), [(33, 61, False), (640, 480, True),
                                                       (1001, 97, False)])
def test_encoded_images_read_as_pillow_reads_them(ext, params, width, height, grey) -> None:
    data = _encoded(ext, width, height, grey, **params)
    read = png_size(data) if ext == ".png" else jpeg_size(data)
    assert read == (width, height) == _pillow_size(data)


def test_every_real_board_photo_reads_as_pillow_reads_it() -> None:
    photos = sorted((shared_dir("data", "board-photos") / "images").rglob("*.jpg"))
    assert photos
    for path in photos:
        data = path.read_bytes()
        assert jpeg_size(data) == _pillow_size(data), path.name


def test_the_bombs_declare_their_size() -> None:
    assert png_size(png_declaring(40000, 100)) == (40000, 100)
    assert jpeg_size(jpeg_with_late_sof(20000, 20000)) == (20000, 20000)


def test_other_formats_are_left_to_pillow() -> None:
    bmp = _encoded(".bmp", 50, 40)
    assert png_size(bmp) is None and jpeg_size(bmp) is None
    assert declared_size(bmp) == (50, 40)


def test_a_height_left_to_a_later_segment_is_left_to_pillow() -> None:
    data = bytearray(_encoded(".jpg", 64, 48))
    sof = data.find(b"\xff\xc0")
    data[sof + 5:sof + 7] = b"\x00\x00"  # the DNL convention: height given after the scan
    assert jpeg_size(bytes(data)) is None


@pytest.mark.parametrize(("data", "why"), [
    (b"\x89PNG\r\n\x1a\n", "IHDR"),
    (b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + b"\x00" * 17, "checksum"),
    (b"\xff\xd8", "without a frame"),
    (b"\xff\xd8\xff\xe0\x00\x01", "impossible"),
    (b"\xff\xd8\x00\x00", "marker"),
    (b"\xff\xd8\xff\xc0\x00\x11\x08\x00", "cut short"),
])
def test_a_broken_header_says_what_is_broken(data: bytes, why: str) -> None:
    with pytest.raises(HeaderError, match=why):
        png_size(data) or jpeg_size(data)
    with pytest.raises(ValueError, match="not a readable image"):
        declared_size(data, "x.img")


def test_damaged_headers_give_a_size_or_a_header_error_only() -> None:
    rng = random.Random(7)
    seeds = [_encoded(".png", 40, 30), _encoded(".jpg", 40, 30),
             _encoded(".jpg", 40, 30, IMWRITE_JPEG_PROGRESSIVE=1)]
    outcomes = {"size": 0, "error": 0}
    for _ in range(3000):
        data = bytearray(rng.choice(seeds))
        for _ in range(rng.randint(1, 4)):
            at = rng.randrange(2, min(len(data), 700))
            data[at] = rng.randrange(256)
        data = data[:rng.randrange(2, len(data) + 1)]
        try:
            size = png_size(bytes(data)) or jpeg_size(bytes(data))
        except HeaderError:
            outcomes["error"] += 1
        else:
            assert size is None or all(isinstance(v, int) and v >= 0 for v in size)
            outcomes["size"] += 1
    assert outcomes["size"] > 100 and outcomes["error"] > 100, outcomes
