"""Broken .mat files through `nardy-pi match replay`: one line on stderr naming the file and
the line, never a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

HEAD = " 5 point match\n\n Game 1\n White : 0                      Black : 0\n"


def _replay(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "nardy_pi", "match", "replay", str(path)],
                          capture_output=True, text=True, timeout=60)  # fmt: skip


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b" 5 point match\n\n Game 1\n", "line 3: game 1 has no score line"),
        (HEAD.encode() + b"\n Game 2\n", "line 6: game 2 has no score line"),
        (b" 99999999999999999999 point match\n", "is not a match length"),
        (HEAD.encode() + b"  1) 77: 24/17\n", "line 5: cannot read '77: 24/17'"),
        (b"\x00\x01\x02garbage\xff\xfe\n" * 50, "not a .mat file"),
        (HEAD.encode() + b"  1) 31: " + b"24/23 " * 2000 + b"\n", "game 1"),
    ],
)
def test_broken_mat_files_name_the_file_and_the_line(tmp_path: Path, content: bytes,
                                                     reason: str) -> None:
    path = tmp_path / "broken.mat"
    path.write_bytes(content)
    out = _replay(path)
    assert out.returncode in (1, 2), out
    assert "Traceback" not in out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr
    assert reason in lines[0], lines[0]
    assert lines[0].startswith("nardy-pi: ")
    if out.returncode == 2:
        assert str(path) in lines[0]
