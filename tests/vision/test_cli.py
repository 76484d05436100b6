"""`nardy-pi calibrate` and `nardy-pi analyze` through a real subprocess (board-frame.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from nardy_pi.vision.render import Camera, Scene, render_scene
from nardy_pi.vision.render.scene import CubePlacement
from nardy_pi.vision.render.styles import STYLES
from nardy_pi.vision.start_positions import start_board
from tests.vision.bombs import png_declaring
from tests.vision.scenes import points

CAMERA = Camera(width=800, height=600, perspective=0.03, rotation_deg=-2.0,
                light_gradient=(-0.1, 0.1), seed=21)
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def nardy(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "nardy_pi", *args], capture_output=True,
                          text=True, timeout=120)


def corners_arg(corners) -> str:
    return ";".join(f"{x:.2f},{y:.2f}" for x, y in corners)


def one_line_error(out: subprocess.CompletedProcess[str]) -> str:
    assert out.returncode != 0
    assert "Traceback" not in out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr
    return lines[0]


@pytest.fixture(scope="module")
def calibrated(tmp_path_factory) -> tuple[Path, Path, Path]:
    """A tournament board calibrated from its start position with given corners."""
    folder = tmp_path_factory.mktemp("cal")
    shot = render_scene(STYLES["tournament"], CAMERA,
                        Scene(points=start_board("backgammon").points, seed=1))
    image = folder / "start.png"
    cv2.imwrite(str(image), shot.image)
    cal, overlay = folder / "cal.json", folder / "cal.png"
    out = nardy("calibrate", str(image), "--corners", corners_arg(shot.corners),
                "--out", str(cal), "--overlay", str(overlay))
    assert out.returncode == 0, out.stderr
    return image, cal, overlay


def test_calibration_file_and_picture(calibrated) -> None:
    _, cal, overlay = calibrated
    data = json.loads(cal.read_text())
    assert len(data["corners"]) == 4 and np.array(data["homography"]).shape == (3, 3)
    assert {"white", "black", "field"} <= set(data["colours"])
    assert data["profile"]["trays"] is True
    assert overlay.read_bytes().startswith(PNG_MAGIC)


def test_analyze_json_round_trip(calibrated, tmp_path: Path) -> None:
    _, cal, _ = calibrated
    pts = points(p6=4, p8=7, p13=2, p24=-12, p19=-2)
    scene = Scene(points=pts, bar_white=1, bar_black=1, off_white=1, off_black=0,
                  cube=CubePlacement(4, "bottom"), seed=9)
    image = tmp_path / "pos.jpg"
    cv2.imwrite(str(image), render_scene(STYLES["tournament"], CAMERA, scene).image)
    overlay = tmp_path / "seen.png"
    out = nardy("analyze", str(image), "--calibration", str(cal), "--json",
                "--overlay", str(overlay))
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert set(doc) == {"points", "bar", "off", "dice", "cube", "roll", "occluded"}
    assert doc["points"] == list(pts)
    assert doc["bar"] == {"white": 1, "black": 1}
    assert doc["off"] == {"white": 1, "black": 0}
    assert doc["cube"] == {"value": 4, "position": "bottom"}
    assert doc["dice"] == [] and doc["roll"] == {"valid": False, "reasons": []}
    assert doc["occluded"] is False
    assert overlay.read_bytes().startswith(PNG_MAGIC)


def test_corners_in_another_order_turn_the_board(calibrated, tmp_path: Path) -> None:
    """Corners given starting from the image's bottom-right turn the board half a turn:
    physical point 1 is then the image's top-left point."""
    shot = render_scene(STYLES["tournament"], CAMERA,
                        Scene(points=start_board("backgammon").points, seed=1))
    tl, tr, br, bl = shot.corners
    cal = tmp_path / "turned.json"
    out = nardy("calibrate", str(calibrated[0]), "--corners", corners_arg((br, bl, tl, tr)),
                "--out", str(cal), "--trays", "no")
    # The start position is symmetric under a half turn with colours swapped, so the image
    # no longer shows the start position in the turned frame: calibration must refuse it.
    assert "reads back only" in one_line_error(out)
    # Two white checkers on the image's bottom-right point, three black on its top-right one.
    # Turned, the image's bottom row is the top row read right to left (old 1 -> new 13)
    # and its top row the bottom row (old 24 -> new 12).
    image = tmp_path / "turned.png"
    cv2.imwrite(str(image), render_scene(STYLES["tournament"], CAMERA,
                                         Scene(points=points(p1=2, p24=-3), seed=3)).image)
    turned_field = "-" * 12 + "cB" + "-" * 12
    out = nardy("calibrate", str(image), "--corners", corners_arg((br, bl, tl, tr)),
                "--position", turned_field, "--out", str(cal), "--trays", "no")
    assert out.returncode == 0, out.stderr
    assert "read back 24/24" in out.stdout


def test_calibrate_finds_aruco_markers(tmp_path: Path) -> None:
    shot = render_scene(STYLES["wood"], CAMERA,
                        Scene(points=start_board("long").points, seed=2), markers=True)
    image = tmp_path / "markers.png"
    cv2.imwrite(str(image), shot.image)
    out = nardy("calibrate", str(image), "--variant", "long", "--out", str(tmp_path / "c.json"))
    assert out.returncode == 0, out.stderr
    assert "ArUco" in out.stdout
    found = json.loads((tmp_path / "c.json").read_text())["corners"]
    assert np.abs(np.array(found) - np.array(shot.corners)).max() < 3.0


def test_calibrate_without_corners_or_markers_says_so(tmp_path: Path) -> None:
    image = tmp_path / "plain.png"
    cv2.imwrite(str(image), np.full((480, 640, 3), 120, np.uint8))
    line = one_line_error(nardy("calibrate", str(image), "--out", str(tmp_path / "c.json")))
    assert "could not find the board" in line


def _huge_png_header() -> bytes:
    """A PNG that declares 40000 x 40000 pixels: refused before decoding."""
    return png_declaring(40000, 40000)


@pytest.mark.parametrize(
    ("name", "content", "reason"),
    [
        ("empty.png", b"", "empty"),
        ("corrupt.jpg", b"\xff\xd8\xff\xe0" + b"\x13" * 300, "not a readable image"),
        ("notes.png", b"this is not a picture\n" * 20, "not a readable image"),
        ("tiny.png", cv2.imencode(".png", np.zeros((8, 8, 3), np.uint8))[1].tobytes(),
         "too small"),
        ("huge.png", _huge_png_header(), "too large"),
    ],
)
def test_bad_images_give_one_clear_line(calibrated, tmp_path: Path, name, content,
                                        reason) -> None:
    _, cal, _ = calibrated
    path = tmp_path / name
    path.write_bytes(content)
    for args in (("analyze", str(path), "--calibration", str(cal)),
                 ("calibrate", str(path), "--corners", "1,1;9,1;9,9;1,9", "--out",
                  str(tmp_path / "x.json"))):
        assert reason in one_line_error(nardy(*args))


def test_missing_files_and_bad_arguments(calibrated, tmp_path: Path) -> None:
    image, cal, _ = calibrated
    assert "not found" in one_line_error(nardy("analyze", str(tmp_path / "no.png"),
                                               "--calibration", str(cal)))
    assert "calibration" in one_line_error(nardy("analyze", str(image), "--calibration",
                                                 str(tmp_path / "none.json")))
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": 1}')
    assert "malformed" in one_line_error(nardy("analyze", str(image), "--calibration",
                                               str(broken)))
    assert "four x,y pairs" in one_line_error(
        nardy("calibrate", str(image), "--corners", "1,2;3,4", "--out", str(tmp_path / "c")))
    assert "unknown variant" in one_line_error(
        nardy("calibrate", str(image), "--variant", "chess", "--out", str(tmp_path / "c")))
    assert "bad character" in one_line_error(
        nardy("calibrate", str(image), "--position", "x" * 26, "--out", str(tmp_path / "c")))


def test_help_for_both_commands() -> None:
    for command in ("calibrate", "analyze"):
        out = nardy(command, "--help")
        assert out.returncode == 0 and "--overlay" in out.stdout


def test_analyze_says_in_words_what_it_read() -> None:
    """The plain output names each die's face, why a throw is void, and no dice or cube."""
    from nardy_pi.cli.vision import describe

    base = {"points": [0] * 23 + [-2], "bar": {"white": 1, "black": 0},
            "off": {"white": None, "black": None}, "cube": None, "occluded": False}
    dice = [{"value": 5, "center": [10.4, 20.6], "flat": True, "on_board": True,
             "half": "left", "on_checker": False},
            {"value": None, "center": [99.0, 7.0], "flat": False, "on_board": True,
             "half": "right", "on_checker": True}]
    lines = describe({**base, "dice": dice,
                      "roll": {"valid": False, "reasons": ["split_halves", "cocked",
                                                           "on_checker"]}})
    assert lines == [
        "points: 24:-2",
        "bar: white 1, black 0; off: white ?, black ?",
        "die 1: shows 5 at (10, 21), flat, left half",
        "die 2: shows ? at (99, 7), cocked, right half, on a checker",
        "cube: not seen",
        "roll: re-roll (split_halves, cocked, on_checker)",
        "occluded: no",
    ]
    none = describe({**base, "points": [0] * 24, "dice": [],
                     "cube": {"value": 1, "position": "center"},
                     "roll": {"valid": False, "reasons": []}, "occluded": True})
    assert none[0] == "points: none held"
    assert none[-3:] == ["cube: 1 at center", "roll: no dice seen", "occluded: yes"]
