"""Write the printable ArUco sheet (calibration/aruco-sheet.png).

    python3 calibration/make_sheet.py [OUT.png]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from nardy_pi.vision.imageio import save_png
from nardy_pi.vision.markers import aruco_sheet

if __name__ == "__main__":
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).with_name("aruco-sheet.png")
    save_png(out, aruco_sheet())
    print(f"wrote {out}")
