"""The calibration record: where the board is in the image and what it looks like.

Stored as JSON (calibration/*.json). Format 2 adds which reader reads this board ("colour":
the colour classes below; "learned": the strip model with the `learned` section) and may leave
out the colour section when only the learned reader could read the board. Format 1 files load
as colour calibrations. Loading checks every field (calibration_schema.py) and says, in one
line, which file and field is wrong.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from nardy_pi.vision.appearance import ColourModel
from nardy_pi.vision.board.adapt import LearnedSection
from nardy_pi.vision.board.heads import Heads
from nardy_pi.vision.board.layout import SurfaceLayout
from nardy_pi.vision.board.prototypes import Prototypes
from nardy_pi.vision.calibration_schema import MAX_FILE_BYTES, SchemaError, check
from nardy_pi.vision.rectify import DEFAULT_SCALE

FORMAT_VERSION = 2


@dataclass(frozen=True)
class Calibration:
    image_size: tuple[int, int]  # width, height
    corners: tuple[tuple[float, float], ...]  # surface TL, TR, BR, BL in image pixels
    homography: np.ndarray  # board units -> image pixels
    colours: ColourModel | None  # None: the colour reader could not learn this board
    point_classes: tuple[str, ...] | None  # colour class of each empty point 1..24
    gain: tuple[float, ...] | None  # quadratic lighting correction, see lighting.py
    trays: bool
    stack_styles: tuple[str, ...]
    position: str  # board field of the calibration frame
    scale: float = DEFAULT_SCALE
    camera: dict | None = None  # locked camera controls (exposure, gains), when known
    reader: str = "colour"  # "colour" or "learned": which reader reads this board
    learned: LearnedSection | None = None

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
            "reader": self.reader,
        }
        if self.colours is not None:
            data["point_classes"] = list(self.point_classes or ())
            data["gain"] = list(self.gain or ())
            data["colours"] = self.colours.to_json()
        if self.learned is not None:
            data["learned"] = self.learned.to_json()
        if self.camera:
            data["camera"] = self.camera
        return data

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n")


def placed_at(cal: Calibration, corners, image_size: tuple[int, int]) -> Calibration:
    """The same board (its look, bar span, prototypes, trays) where `corners` place the
    playing surface in an image of `image_size` (board-frame.md §3: the camera was bumped).
    The lighting correction lives in board coordinates, so it moves with the board."""
    from dataclasses import replace

    from nardy_pi.vision import geometry as g

    corners = tuple((float(x), float(y)) for x, y in np.asarray(corners, np.float64))
    return replace(cal, corners=corners, homography=g.board_to_image_homography(corners),
                   image_size=(int(image_size[0]), int(image_size[1])))


def load_calibration(path: str | Path) -> Calibration:
    """Read and check a calibration file; ValueError with one line naming file and field."""
    p = Path(path)
    try:
        if p.stat().st_size > MAX_FILE_BYTES:
            raise ValueError(f"calibration file {p} is too large to be a calibration")
        data = json.loads(p.read_text())
    except FileNotFoundError:
        raise ValueError(f"calibration file not found: {p}") from None
    except IsADirectoryError:
        raise ValueError(f"calibration file {p} is a directory") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ValueError(f"calibration file {p} is not valid JSON: {exc}") from None
    except RecursionError:
        raise ValueError(f"calibration file {p} is malformed: (file): nests too deep") from None
    except OSError as exc:
        raise ValueError(f"calibration file {p} cannot be read: {exc.strerror}") from None
    try:
        return from_checked(check(data))
    except SchemaError as exc:
        raise ValueError(f"calibration file {p} is malformed: {exc}") from None


def from_checked(v: dict) -> Calibration:
    """A Calibration from calibration_schema.check's output."""
    learned = None
    if v["learned"] is not None:
        lv = v["learned"]
        protos = None
        if lv["prototypes"] is not None:
            pv = lv["prototypes"]
            protos = Prototypes(np.array(pv["light"], np.float32),
                                np.array(pv["dark"], np.float32), float(pv["spread"]))
        heads = None if lv["heads"] is None else Heads.from_json(lv["heads"])
        learned = LearnedSection(SurfaceLayout(*lv["bar_u"], lv["point_length_v"]), protos,
                                 lv["model"], heads, lv["strips"])
    return Calibration(
        image_size=v["image_size"],
        corners=tuple(v["corners"]),
        homography=np.array(v["homography"], dtype=np.float64),
        colours=None if v["colours"] is None else ColourModel.from_json(v["colours"]),
        point_classes=v["point_classes"],
        gain=v["gain"],
        trays=v["trays"],
        stack_styles=v["stack_styles"],
        position=v["position"],
        scale=v["scale"],
        camera=v["camera"],
        reader=v["reader"],
        learned=learned,
    )
