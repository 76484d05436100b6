"""The calibration record: where the board is in the image and what it looks like.

Stored as JSON (calibration/*.json). Loading checks the shape and says what is wrong.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from nardy_pi.vision.appearance import ColourModel
from nardy_pi.vision.rectify import DEFAULT_SCALE

FORMAT_VERSION = 1


@dataclass(frozen=True)
class Calibration:
    image_size: tuple[int, int]  # width, height
    corners: tuple[tuple[float, float], ...]  # surface TL, TR, BR, BL in image pixels
    homography: np.ndarray  # board units -> image pixels
    colours: ColourModel
    point_classes: tuple[str, ...]  # colour class of each empty point 1..24
    gain: tuple[float, ...]  # quadratic lighting correction over the board, see lighting.py
    trays: bool
    stack_styles: tuple[str, ...]
    position: str  # board field of the calibration frame
    scale: float = DEFAULT_SCALE
    camera: dict | None = None  # locked camera controls (exposure, gains), when known

    def to_json(self) -> dict:
        data = {
            "format": FORMAT_VERSION,
            "image_size": list(self.image_size),
            "corners": [list(c) for c in self.corners],
            "homography": np.asarray(self.homography).tolist(),
            "geometry": {"units": "board units: point width 1, surface 13 x 11",
                         "raster_scale": self.scale},
            "profile": {"trays": self.trays, "stack_styles": list(self.stack_styles)},
            "position": self.position,
            "point_classes": list(self.point_classes),
            "gain": list(self.gain),
            "colours": self.colours.to_json(),
        }
        if self.camera:
            data["camera"] = self.camera
        return data

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n")


def load_calibration(path: str | Path) -> Calibration:
    p = Path(path)
    try:
        data = json.loads(p.read_text())
    except FileNotFoundError:
        raise ValueError(f"calibration file not found: {p}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ValueError(f"calibration file {p} is not valid JSON: {exc}") from None
    try:
        if data.get("format") != FORMAT_VERSION:
            raise ValueError(f"unsupported format {data.get('format')!r}")
        h = np.array(data["homography"], dtype=np.float64)
        if h.shape != (3, 3):
            raise ValueError("homography must be 3x3")
        return Calibration(
            image_size=tuple(data["image_size"]),
            corners=tuple(tuple(c) for c in data["corners"]),
            homography=h,
            colours=ColourModel.from_json(data["colours"]),
            point_classes=tuple(data["point_classes"]),
            gain=tuple(data["gain"]),
            trays=bool(data["profile"]["trays"]),
            stack_styles=tuple(data["profile"]["stack_styles"]),
            position=data["position"],
            scale=float(data["geometry"]["raster_scale"]),
            camera=data.get("camera"),
        )
    except (KeyError, TypeError, AttributeError, ValueError) as exc:
        raise ValueError(f"calibration file {p} is malformed: {exc}") from None
