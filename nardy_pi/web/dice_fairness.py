"""Are the dice fair? The counts and a verdict in plain words, for the page.

The statistics are `nardy_pi.game.dice_stats` (faces and doubles against their expected
shares, chi-square); this module only picks the rolls (the match's moves, or every roll in
the device's match log) and turns the numbers into what the page shows: counts per face and
per double, and one verdict key with its p-value.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from nardy_pi.game.dice_stats import chi_square, dice_stats
from nardy_pi.state import MoveRecord

log = logging.getLogger(__name__)

#: fewer rolls than this and the verdict is "too few" (every expected count under 5)
MIN_ROLLS = 30
ODD_P = 0.05
BAD_P = 0.001

Roll = tuple[int, int]


def rolls_of_moves(moves: Iterable[MoveRecord]) -> list[Roll]:
    """The two-dice rolls of a move list (a double may be recorded with four dice; cube
    actions and opening single dice carry no pair and are left out)."""
    return [(m.dice[0], m.dice[1]) for m in moves if len(m.dice) in (2, 4)]


def verdict(rolls: int, p: float) -> str:
    """The verdict key for `rolls` rolls whose least likely test gave `p`."""
    if rolls == 0:
        return "fair_none"
    if rolls < MIN_ROLLS:
        return "fair_too_few"
    if p < BAD_P:
        return "fair_bad"
    return "fair_odd" if p < ODD_P else "fair_ok"


def _shown_p(p: float) -> float:
    return round(p, 3) if p >= 0.001 else float(f"{p:.1e}")


def match_summary(stats: dict[str, Any]) -> dict[str, Any] | None:
    """The scoreboard's one-line verdict from the engine's whole-match counts
    (`State.dice_stats["all"]`); None when the snapshot carries none."""
    every = stats.get("all") if isinstance(stats, dict) else None
    if not every:
        return None
    p = min(float(every.get("faces_p", 1.0)), float(every.get("doubles_p", 1.0)))
    rolls = int(every.get("rolls", 0))
    return {"rolls": rolls, "p": _shown_p(p), "verdict": verdict(rolls, p),
            "min_rolls": MIN_ROLLS, "scope": "match"}


def fairness(rolls: list[Roll]) -> dict[str, Any]:
    """What the page shows for one set of rolls."""
    stats = dice_stats(rolls)
    n = stats.rolls
    per_double = [sum(1 for a, b in rolls if a == b == v) for v in range(1, 7)]
    doubles = chi_square([*per_double, n - sum(per_double)], [1 / 36] * 6 + [30 / 36])
    p = min(stats.faces.p_value, stats.doubles.p_value, doubles.p_value)
    return {
        "rolls": n,
        "faces": list(stats.faces.observed),
        "faces_expected": round(2 * n / 6, 1),
        "doubles": per_double,
        "doubles_total": sum(per_double),
        "doubles_expected": round(n / 36, 1),
        "doubles_pct": round(100 * stats.doubles_rate, 1),
        "p": _shown_p(p),
        "verdict": verdict(n, p),
        "min_rolls": MIN_ROLLS,
        "scope": "game",
    }


class LifetimeRolls:
    """Every two-dice roll in a match log file (all matches this device has refereed, and
    the newest match alone), re-read only when the file changed. A missing or unreadable
    log yields no rolls."""

    def __init__(self, path: str | Path | None) -> None:
        self.path = Path(path) if path else None
        self._lock = threading.Lock()
        self._key: tuple[float, int] | None = None
        self._by_match: list[list[Roll]] = []

    def rolls(self) -> list[Roll] | None:
        """Every match's rolls; None when there is no log to count from."""
        by_match = self._read_if_changed()
        return None if by_match is None else [r for rolls in by_match for r in rolls]

    def newest_match(self) -> list[Roll] | None:
        """The rolls of the newest match in the log (the one being played)."""
        by_match = self._read_if_changed()
        return None if not by_match else list(by_match[-1])

    def _read_if_changed(self) -> list[list[Roll]] | None:
        if self.path is None or not self.path.exists():
            return None
        stat = self.path.stat()
        key = (stat.st_mtime, stat.st_size)
        with self._lock:
            if key != self._key:
                self._by_match = self._read()
                self._key = key
            return self._by_match

    def _read(self) -> list[list[Roll]]:
        from nardy_pi.game.events import Roll as RollEvent
        from nardy_pi.store.eventlog import EventStore

        assert self.path is not None
        try:
            with EventStore(self.path) as store:
                return [
                    [(e.dice[0], e.dice[1]) for e in store.events(match_id)
                     if isinstance(e, RollEvent)]
                    for match_id in store.match_ids()
                ]
        except Exception as exc:  # a damaged log must not break the page
            log.warning("dice statistics: cannot read %s: %s", self.path, exc)
            return []
