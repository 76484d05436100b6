"""The GNU Backgammon program as the evaluation engine: Debian / Raspberry Pi OS package
`gnubg`, driven through its text mode (`gnubg -t -q`, commands on stdin).

Each request starts the program, sets the position by gnubg's own Position ID and Match ID
(`set matchid`, `set board`), asks `eval` or `hint`, and reads the answer from its text.
About half a second a request on a laptop: fine for a hint or a settlement, which people ask
for, never the referee's frame loop.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

from nardy_pi.evaluation.types import CubeView, Evaluation
from nardy_pi.rules.notation.gnubg_id import MatchId, encode_match_id, encode_position_id
from nardy_pi.rules.notation.move_text import find_play
from nardy_pi.rules.play import Play
from nardy_pi.rules.position import Position

CANDIDATES = ("gnubg", "/usr/games/gnubg")
TIMEOUT = 60.0
_NUMBER = r"([+-]?\d+\.\d+)"
_EVAL_ROW = re.compile(
    rf"^\s*(?:static|\d+ ply):\s+{_NUMBER}\s+{_NUMBER}\s+{_NUMBER}\s+{_NUMBER}\s+{_NUMBER}"
    rf"\s+{_NUMBER}\s+{_NUMBER}", re.MULTILINE,
)
_HINT_ROW = re.compile(r"^\s*1\.\s+\S+\s+\S+\s+(?P<move>.+?)\s+Eq\.:", re.MULTILINE)


def _log2(value: int) -> int:
    return max(0, value.bit_length() - 1)


def gnubg_ids(position: Position, cube: CubeView, dice: tuple[int, int] | None = None
              ) -> tuple[str, str]:
    """(Position ID, Match ID) of `position` with its side on roll."""
    match = MatchId(
        cube_log2=_log2(cube.value), cube_owner=cube.owner, on_roll=position.turn,
        crawford=cube.crawford, to_act=position.turn, dice=dice,
        match_length=cube.match_length, score=cube.score, jacoby=cube.jacoby,
    )
    return encode_position_id(position), encode_match_id(match)


class GnubgProgram:
    name = "gnubg"

    def __init__(self, path: str) -> None:
        self.path = path

    @classmethod
    def find(cls, path: str = "") -> GnubgProgram | None:
        for candidate in ((path,) if path else CANDIDATES):
            found = shutil.which(candidate) or (candidate if Path(candidate).is_file() else None)
            if found:
                return cls(found)
        return None

    def run(self, commands: list[str]) -> str:
        """gnubg's text answer to `commands` (two humans playing: it never moves itself)."""
        script = ["set player 0 human", "set player 1 human", "new session", *commands,
                  "quit", "y"]
        try:
            done = subprocess.run([self.path, "-t", "-q"], input="\n".join(script) + "\n",
                                  capture_output=True, text=True, timeout=TIMEOUT, check=False)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise OSError(f"{self.path}: {exc}") from None
        return done.stdout

    def set_position(self, position: Position, cube: CubeView,
                     dice: tuple[int, int] | None = None) -> list[str]:
        pid, mid = gnubg_ids(position, cube, dice)
        return [f"set matchid {mid}", f"set board {pid}"]

    def evaluate(self, position: Position, cube: CubeView) -> Evaluation:
        out = self.run([*self.set_position(position, cube), "eval"])
        rows = _EVAL_ROW.findall(out)
        if not rows:
            raise RuntimeError("gnubg gave no evaluation: " + out.strip().splitlines()[-1:][0]
                               if out.strip() else "gnubg gave no output")
        w, wg, wb, lg, lb, cubeless, cubeful = (float(x) for x in rows[-1])  # deepest ply
        return Evaluation(w, wg, wb, lg, lb, cubeless, cubeful)

    def best_play(
        self, position: Position, dice: tuple[int, int], plays: list[Play]
    ) -> Play | None:
        out = self.run([*self.set_position(position, CubeView(), dice),
                        f"set dice {dice[0]} {dice[1]}", "hint 1"])
        found = _HINT_ROW.search(out)
        if found is None:
            return None
        try:
            return find_play(plays, found.group("move"))
        except ValueError:
            return None
