"""Running the real GNU Backgammon program (Debian package `gnubg`) in text mode on our
records, for the tests: import a .mat and read back what gnubg made of it."""

from __future__ import annotations

import re
from pathlib import Path

from nardy_pi.evaluation.gnubg_cli import GnubgProgram

_SCORE = re.compile(r"The score \(after (\d+) games?\) is: (.+) (\d+), (.+) (\d+) \(")
_IDS = re.compile(r"Position ID: (\S+)\s+Match ID\s*: (\S+)")


def gnubg() -> GnubgProgram:
    found = GnubgProgram.find()
    assert found is not None, "the gnubg program is a test dependency (apt gnubg, .ci/run)"
    return found


def imported(mat: Path) -> tuple[int, tuple[int, int], str]:
    """(games gnubg counted, (first player's score, second's), gnubg's last PositionID:MatchID)
    after `import mat`."""
    out = gnubg().run([f"import mat {mat}", "show score"])
    found = _SCORE.search(out)
    assert found is not None, out[-2000:]
    ids = _IDS.findall(out)
    last = f"{ids[-1][0]}:{ids[-1][1]}" if ids else ""
    return int(found.group(1)), (int(found.group(3)), int(found.group(5))), last
