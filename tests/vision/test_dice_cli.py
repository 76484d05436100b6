"""`nardy-pi dice IMAGE [--json]` through a real subprocess (board-frame.md §3)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.shared_data import shared_dir

REPO = Path(__file__).resolve().parents[2]


def photos() -> Path:
    """The labelled dice photos; the test skips in a clone without ../shared."""
    return shared_dir("data", "dice-photos", "train")


def nardy(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "nardy_pi", *args], capture_output=True,
                          text=True, timeout=120, cwd=REPO)


def one_line_error(out: subprocess.CompletedProcess[str]) -> str:
    assert out.returncode != 0
    assert "Traceback" not in out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr
    assert out.stdout == ""
    return lines[0]


def test_json_has_exactly_the_contract_fields() -> None:
    photo = photos() / "four_35.jpg"  # four dice, all showing four (labels in four_35.txt)
    out = nardy("dice", str(photo), "--json")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert list(doc) == ["dice"]
    assert len(doc["dice"]) == 4
    h, w = cv2.imread(str(photo)).shape[:2]
    for die in doc["dice"]:
        assert set(die) == {"value", "center", "box", "flat"}
        assert die["value"] == 4
        assert die["flat"] is True
        x, y = die["center"]
        x0, y0, x1, y1 = die["box"]
        assert 0 <= x0 < x <= x1 <= w and 0 <= y0 < y <= y1 <= h


def test_json_for_an_image_without_dice_is_an_empty_list(tmp_path: Path) -> None:
    blank = tmp_path / "table.png"
    cv2.imwrite(str(blank), np.full((240, 320, 3), (60, 100, 140), np.uint8))
    out = nardy("dice", str(blank), "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == {"dice": []}


def test_plain_output_lists_each_die() -> None:
    out = nardy("dice", str(photos() / "five_20.jpg"))  # two dice showing five
    assert out.returncode == 0, out.stderr
    lines = out.stdout.strip().splitlines()
    assert lines[0] == "2 dice found:"
    assert [line.split()[0] for line in lines[1:]] == ["5", "5"]


def test_help_describes_the_command() -> None:
    out = nardy("dice", "--help")
    assert out.returncode == 0
    assert "--json" in out.stdout and "IMAGE" in out.stdout


def _truncated_jpeg(path: Path) -> None:
    data = (photos() / "two_36.jpg").read_bytes()
    path.write_bytes(data[:200])


@pytest.mark.parametrize(
    ("name", "make", "reason"),
    [
        ("empty.png", lambda p: p.write_bytes(b""), "empty"),
        ("notes.jpg", lambda p: p.write_text("not an image at all\n"), "not a readable image"),
        ("cut.jpg", _truncated_jpeg, "not a readable image"),
        ("tiny.png", lambda p: cv2.imwrite(str(p), np.zeros((4, 4, 3), np.uint8)), "too small"),
        ("folder", lambda p: p.mkdir(), "not a file"),
    ],
)
def test_bad_files_give_one_line_errors(tmp_path: Path, name: str, make, reason: str) -> None:
    target = tmp_path / name
    make(target)
    assert reason in one_line_error(nardy("dice", str(target), "--json"))


def test_missing_file_gives_one_line_error(tmp_path: Path) -> None:
    assert "not found" in one_line_error(nardy("dice", str(tmp_path / "nope.jpg")))
