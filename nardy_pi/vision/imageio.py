"""Loading images with one clear reason when a file is missing, empty, corrupt, tiny or huge.

Image bombs are refused before decoding: a 3 MB run-length BMP or a 100 KB PNG can declare
20000x20000 pixels and decode to gigabytes. So the declared size is checked first and OpenCV
decodes only what passed: PNG and JPEG headers are read here (image_header.py), every other
format OpenCV decodes by Pillow's lazy `Image.open`, which reads only the header. A format
Pillow cannot identify is refused: its size could not be checked.
"""

from __future__ import annotations

import io
import warnings
from pathlib import Path

import numpy as np

MIN_SIDE = 32
MAX_SIDE = 12000
#: 24 megapixels: a 6000x4000 photo (72 MB as BGR); above that a Pi runs short of memory.
MAX_PIXELS = 24_000_000
MAX_BYTES = 80 * 1024 * 1024
#: formats both Pillow (header) and OpenCV (pixels) read, by Pillow's name for them
CHECKED_FORMATS = frozenset(
    {"PNG", "JPEG", "BMP", "DIB", "TIFF", "WEBP", "PPM", "PFM", "SUN", "JPEG2000", "GIF"}
)


def declared_size(data: bytes, name: str | Path = "image") -> tuple[int, int]:
    """(width, height) from the header of an image file's bytes, without decoding pixels;
    ValueError when the format cannot be checked or the header is unreadable."""
    from nardy_pi.vision.image_header import HeaderError, jpeg_size, png_size

    try:
        size = png_size(data) or jpeg_size(data)
    except HeaderError:
        raise ValueError(f"not a readable image (corrupt or unsupported format): {name}") from None
    if size is not None:
        return size
    from PIL import Image, UnidentifiedImageError

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as img:
                fmt, size = img.format, img.size
    except Image.DecompressionBombError:
        # Pillow's own limit (over 178 megapixels), far above ours: same answer.
        raise ValueError(
            f"image is too large (declares over {2 * Image.MAX_IMAGE_PIXELS // 1_000_000} "
            f"megapixels, at most {MAX_PIXELS // 1_000_000}): {name}"
        ) from None
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, EOFError):
        raise ValueError(f"not a readable image (corrupt or unsupported format): {name}") from None
    if fmt not in CHECKED_FORMATS:
        raise ValueError(f"unsupported image format {fmt}: {name}")
    return int(size[0]), int(size[1])


def check_size(width: int, height: int, name: str | Path = "image") -> None:
    if min(width, height) < MIN_SIDE:
        raise ValueError(
            f"image is too small ({width}x{height}, need at least {MIN_SIDE} px a side): {name}"
        )
    if max(width, height) > MAX_SIDE or width * height > MAX_PIXELS:
        raise ValueError(
            f"image is too large ({width}x{height}, at most {MAX_SIDE} px a side and "
            f"{MAX_PIXELS // 1_000_000} megapixels): {name}"
        )


def decode_image(data: bytes, name: str | Path = "image") -> np.ndarray:
    """A BGR uint8 image from a file's bytes, its declared size checked before decoding."""
    import cv2

    width, height = declared_size(data, name)
    check_size(width, height, name)
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise ValueError(f"not a readable image (corrupt or unsupported format): {name}")
    h, w = image.shape[:2]
    check_size(w, h, name)  # the pixels must keep the header's promise
    return image


def load_image(path: str | Path) -> np.ndarray:
    """A BGR uint8 image, or ValueError saying why not."""
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
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise ValueError(f"cannot read {p}: {exc.strerror}") from None
    return decode_image(data, p)


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
