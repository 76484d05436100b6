"""Images are bounded before decoding: bombs of every kind are refused from their header."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from nardy_pi.vision.imageio import MAX_PIXELS, declared_size, load_image
from tests.vision.bombs import jpeg_with_late_sof, png_declaring, png_truly, rle_bmp


@pytest.mark.parametrize(
    ("name", "make"),
    [
        ("bomb.bmp", lambda: rle_bmp(20000, 20000)),
        ("late-sof.jpg", lambda: jpeg_with_late_sof(20000, 20000)),
        ("declares.png", lambda: png_declaring(12000, 12000)),
        ("wide.png", lambda: png_declaring(40000, 100)),
    ],
)
def test_bombs_are_refused_before_decoding(tmp_path: Path, name: str, make) -> None:
    path = tmp_path / name
    data = make()
    path.write_bytes(data)
    assert len(data) < 3_500_000
    with pytest.raises(ValueError, match=r"too large") as err:
        load_image(path)
    assert str(path) in str(err.value)


def test_the_bombs_are_real_files_of_their_format() -> None:
    # (below Pillow's own bomb limit, so the header is read rather than refused)
    assert declared_size(rle_bmp(12000, 9000)) == (12000, 9000)
    assert declared_size(jpeg_with_late_sof(12000, 9000)) == (12000, 9000)
    small = cv2.imdecode(np.frombuffer(rle_bmp(64, 48), np.uint8), cv2.IMREAD_COLOR)
    assert small.shape == (48, 64, 3)  # OpenCV decodes the same construction


def test_a_real_12000_square_png_is_refused(tmp_path: Path) -> None:
    assert MAX_PIXELS < 12000 * 12000
    path = tmp_path / "big.png"
    path.write_bytes(png_truly(12000, 12000))
    with pytest.raises(ValueError, match="12000x12000"):
        load_image(path)


@pytest.mark.parametrize("ext", [".png", ".jpg", ".bmp", ".tiff", ".webp", ".ppm", ".pgm",
                                 ".sr", ".jp2"])
def test_every_usual_format_still_loads(tmp_path: Path, ext: str) -> None:
    image = np.random.default_rng(1).integers(0, 255, (60, 80, 3), np.uint8)
    path = tmp_path / f"x{ext}"
    assert cv2.imwrite(str(path), image[:, :, 0] if ext == ".pgm" else image)
    loaded = load_image(path)
    assert loaded.shape == (60, 80, 3)


def test_a_format_whose_size_cannot_be_checked_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "x.hdr"
    assert cv2.imwrite(str(path), np.ones((40, 40, 3), np.float32))
    with pytest.raises(ValueError, match=r"unsupported|not a readable image"):
        load_image(path)
