"""Calibration files are checked field by field (issue 12): hand-made bad files, a bounded fuzz
run over mutated real files, and `nardy-pi run` refusing a broken one at start."""

from __future__ import annotations

import copy
import json
import math
import random
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from nardy_pi.vision.calibration import load_calibration
from nardy_pi.vision.observe import Observer
from tests.vision.test_calibrated_reader import heldout, ours_camera
from tests.vision.test_cli import nardy, one_line_error


@cache
def real_files() -> tuple[dict, ...]:
    """A colour calibration (format 2, with the camera model's learned section, heads and
    all), a learned-only one (read by the first look's pair), and the colour one as format
    1."""
    colour = ours_camera().to_json()
    learned = heldout()[1].calibration.to_json()
    learned_only = {k: v for k, v in learned.items()
                    if k not in ("colours", "point_classes", "gain")}
    old = {k: v for k, v in colour.items() if k not in ("reader", "learned")}
    old["format"] = 1
    return colour, learned_only, old


def _nest(depth: int) -> list:
    v: list = []
    for _ in range(depth):
        v = [v]
    return v


def _edit(path: tuple, value) -> dict:
    data = copy.deepcopy(real_files()[0])
    node = data
    for key in path[:-1]:
        node = node[key]
    if value is KeyError:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return data


BAD = [
    (("homography",), [[0.0] * 3] * 3, "homography: is all zeros"),
    (("homography", 0, 0), math.nan, "homography[0][0]: must be a finite number"),
    (("homography", 1, 1), 1e300, "homography[1][1]"),
    (("homography",), [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]], "homography: must be a 3x3"),
    (("homography",), [[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [0.0, 0.0, 1.0]],
     "homography: is not invertible"),
    (("homography", 2), [0.0, 0.0, 0.0], "homography"),
    (("homography",), KeyError, "homography: missing"),
    (("geometry", "raster_scale"), 0, "geometry.raster_scale"),
    (("geometry", "raster_scale"), "24", "geometry.raster_scale: must be a number"),
    (("geometry", "raster_scale"), -3.0, "geometry.raster_scale"),
    (("colours",), {}, "colours: must hold 1 to"),
    (("colours", "white"), KeyError, "colours: has no 'white' class"),
    (("colours", "white", "cov"), [[0.0] * 3] * 3, "colours.white.cov: must be positive"),
    (("colours", "white", "mean"), [1.0, "x", 3.0], "colours.white.mean[1]"),
    (("colours", "white", "mean"), _nest(50), "(file): nests deeper"),
    (("point_classes",), ["white"] * 23, "point_classes: must list 24"),
    (("point_classes", 3), "purple", "point_classes[3]"),
    (("gain",), [0.0] * 5, "gain: must hold 6 numbers"),
    (("gain",), "flat", "gain: must be a list"),
    (("corners",), [[0, 0], [1, 0], [1, 1]], "corners: must be four"),
    (("corners",), [[0, 0], [1, 1], [2, 2], [3, 3]], "corners"),
    (("corners",), [[1e5, 1e5], [1e5 + 500, 1e5], [1e5 + 500, 1e5 + 400], [1e5, 1e5 + 400]],
     "corners: put the playing surface wholly outside"),
    (("image_size",), [0, 480], "image_size[0]"),
    (("image_size",), [10**400, 480], "image_size[0]: is far too large"),
    (("image_size",), [640.5, 480], "image_size: must be two whole numbers"),
    (("position",), "x" * 26, "position: is not a board field"),
    (("format",), 3, "format: unsupported format 3"),
    (("format",), True, "format: unsupported format True"),
    (("reader",), "magic", "reader: must be one of"),
    (("learned",), KeyError, "learned: missing"),  # with reader "learned" below
    (("learned", "layout", "bar_u"), [0.6, 0.4], "learned.layout.bar_u"),
    (("learned", "prototypes"), {"light": [0.0, 1.0], "dark": [0.0], "spread": 1.0},
     "learned.prototypes.dark"),
    (("learned", "prototypes"), {"light": [0.0], "dark": [1.0], "spread": 0.0},
     "learned.prototypes.spread"),
    (("learned", "heads", "count_b"), [0.0] * 15, "learned.heads.count_b"),
    (("learned", "heads", "count_w", 3, 7), math.inf, "learned.heads.count_w[3][7]"),
    (("learned", "heads", "colour_w"), [[0.0] * 63] * 2, "learned.heads.colour_w[0]"),
    (("learned", "model"), "not a digest", "learned.model"),
    (("learned", "strips"), "all of them", "learned.strips: must be one of camera, pair"),
    (("profile", "trays"), "yes", "profile.trays: must be true or false"),
    (("profile", "stack_styles"), [], "profile.stack_styles"),
    (("camera",), {"exposure": [1, 2]}, "camera.exposure"),
]


@pytest.mark.parametrize(("path", "value", "field"), BAD,
                         ids=[".".join(map(str, p)) + f"-{i}" for i, (p, _, _) in enumerate(BAD)])
def test_a_bad_field_is_named_in_one_line(tmp_path: Path, path, value, field) -> None:
    data = _edit(path, value)
    if path[0] == "learned":
        data["reader"] = "learned"
    file = tmp_path / "bad.json"
    file.write_text(json.dumps(data))
    with pytest.raises(ValueError) as err:
        load_calibration(file)
    message = str(err.value)
    assert "\n" not in message and str(file) in message
    assert field in message, message


@pytest.mark.parametrize("text", ["", "[]", "{}", '"cal"', "\x00\xff", "{" * 100_000,
                                  '{"format": 2}', "1e999"])
def test_files_that_are_not_calibrations(tmp_path: Path, text: str) -> None:
    file = tmp_path / "bad.json"
    file.write_bytes(text.encode("latin-1"))
    with pytest.raises(ValueError, match=f"calibration file {file}"):
        load_calibration(file)


def test_a_huge_file_is_refused_unread(tmp_path: Path) -> None:
    file = tmp_path / "big.json"
    file.write_text('{"pad": "' + "x" * 3_000_000 + '"}')
    with pytest.raises(ValueError, match="too large"):
        load_calibration(file)


HOSTILE = [math.nan, math.inf, -math.inf, 1e308, -1e308, 10**30, 0, -1, 0.0, 1e-300, "", "x",
           "24", [], {}, None, True, False, [0], [[0]], {"a": 1}, 3.5, 640, -640]


def _mutate(data: dict, rng: random.Random) -> str:
    """One to three hostile edits of a real file, or a damaged text of it."""
    if rng.random() < 0.15:
        text = json.dumps(data)
        cut = rng.randrange(len(text))
        if rng.random() < 0.5:
            return text[:cut]
        return text[:cut] + rng.choice('{}[],:"0-e.x') + text[cut + 1:]
    data = copy.deepcopy(data)
    for _ in range(rng.randint(1, 3)):
        # walk down from the top, stopping anywhere: every section is hit, not mostly the
        # long weight lists
        parent, key = data, rng.choice(list(data))
        while isinstance(parent[key], (dict, list)) and parent[key] and rng.random() < 0.7:
            parent = parent[key]
            key = rng.choice(list(parent)) if isinstance(parent, dict) else rng.randrange(
                len(parent))
        op = rng.random()
        if op < 0.15:
            del parent[key]
        elif op < 0.25 and isinstance(parent[key], list):
            parent[key].append(rng.choice(HOSTILE))
        elif op < 0.3:
            parent[key] = _nest(rng.choice([3, 30, 900]))
        elif op < 0.45 and isinstance(parent[key], (int, float)) and not isinstance(
                parent[key], bool):
            parent[key] = parent[key] * rng.choice([-1, 0, 1e6, 1e-6, 1.0001])
        else:
            parent[key] = copy.deepcopy(rng.choice(HOSTILE))
    return json.dumps(data)


def test_fuzzed_calibration_files_load_or_say_why_in_one_line(tmp_path: Path) -> None:
    rng = random.Random(15)
    file = tmp_path / "fuzz.json"
    loaded = []
    tried = 0
    for data in real_files():
        for _ in range(1000):
            file.write_text(_mutate(data, rng))
            tried += 1
            try:
                cal = load_calibration(file)
            except ValueError as exc:
                assert "\n" not in str(exc) and str(file) in str(exc)
                continue
            loaded.append(cal)
    assert tried == 3000 and 0 < len(loaded) < tried
    # What loads can be used: an observer is built and reads a frame (or says why, one line).
    for cal in loaded[:: max(1, len(loaded) // 10)]:
        w, h = cal.image_size
        if w * h > 1280 * 960:
            continue
        try:
            Observer(cal).observe(np.zeros((h, w, 3), np.uint8))
        except ValueError as exc:
            assert "\n" not in str(exc)


def test_run_refuses_a_broken_calibration_at_start(tmp_path: Path) -> None:
    file = tmp_path / "cal.json"
    file.write_text(json.dumps(_edit(("homography",), [[0.0] * 3] * 3)))
    config = tmp_path / "nardy.toml"
    config.write_text(f'[camera]\nsource = "opencv"\ndevice = "{tmp_path / "no-camera"}"\n'
                      f'calibration = "{file}"\n[web]\nenabled = false\n')
    out = nardy("run", "--config", str(config), "--no-web", "--duration", "2", "--quiet")
    assert out.returncode == 2
    line = one_line_error(out)
    assert str(file) in line and "homography: is all zeros" in line
