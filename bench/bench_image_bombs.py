"""Peak memory of loading image bombs against a normal photo (nardy_pi.vision.imageio).

Run from the repository root:  python3 bench/bench_image_bombs.py

Each file is loaded in a fresh child process and its peak resident memory (ru_maxrss) is
printed with the outcome, as a ratio against the same measure for a normal 1920x1080 JPEG
loaded in the same way. The bombs: an 8-bit RLE BMP declaring 20000x20000 (3 MB on disk),
a JPEG whose frame header sits after 70 KB of comments declaring 20000x20000, a PNG whose
header declares 12000x12000, and a real 12000x12000 PNG. Unguarded, OpenCV decodes them to
0.4-1.2 GB each; refused from the header they should cost what a normal photo costs.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.vision.bombs import jpeg_with_late_sof, png_declaring, png_truly, rle_bmp  # noqa: E402

# VmHWM (peak resident set of this process's memory map): unlike ru_maxrss it does not
# carry over the parent's peak through fork and exec.
CHILD = """
import sys
from nardy_pi.vision.imageio import load_image
try:
    image = load_image(sys.argv[1])
    outcome = f"loaded {image.shape[1]}x{image.shape[0]}"
except ValueError as exc:
    outcome = "refused: " + str(exc).split(": ")[0]
peak = next(l.split()[1] for l in open("/proc/self/status") if l.startswith("VmHWM:"))
print(peak, outcome)
"""


def peak_kb(path: Path) -> tuple[int, str]:
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(path)], capture_output=True, text=True, check=True,
        cwd=ROOT, timeout=300,
    )
    kb, outcome = out.stdout.strip().split(" ", 1)
    return int(kb), outcome


def main() -> None:
    import cv2
    import numpy as np

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        normal = folder / "normal.jpg"
        photo = np.random.default_rng(1).integers(0, 255, (1080, 1920, 3), np.uint8)
        cv2.imwrite(str(normal), cv2.GaussianBlur(photo, (9, 9), 3))
        files = {
            "normal 1920x1080 JPEG": normal,
            "RLE BMP 20000x20000": rle_bmp(20000, 20000),
            "JPEG, SOF after 70 KB, 20000x20000": jpeg_with_late_sof(20000, 20000),
            "PNG header 12000x12000": png_declaring(12000, 12000),
            "real PNG 12000x12000": png_truly(12000, 12000),
        }
        base = None
        print(f"{'file':38} {'on disk':>10} {'peak RSS':>10} {'ratio':>6}  outcome")
        for label, content in files.items():
            if isinstance(content, bytes):
                path = folder / label.split()[0].lower()
                path.write_bytes(content)
            else:
                path = content
            kb, outcome = peak_kb(path)
            base = base or kb
            size = path.stat().st_size / 1e6
            print(f"{label:38} {size:8.2f}MB {kb / 1024:8.0f}MB {kb / base:6.2f}  {outcome}")


if __name__ == "__main__":
    main()
