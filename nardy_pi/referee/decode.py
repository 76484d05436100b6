"""Decoding a reading with the rules: the most likely board among those the game allows.

The board reader gives, for every slot (points 1..24, white's bar, black's bar), a probability
for each signed count -15..15. Read slot by slot, one unsure stack can make a legal play look
illegal. The referee knows which boards can follow (the record itself, every legal result of
the roll), so it asks which of them explains the frame best. It takes that board unless the
slot-by-slot reading explains the frame clearly better (DecodeRule: a margin in nats, and
floors on what one slot can cost); only then does the reading stand as seen, and an illegal
move may be flagged.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

SLOTS = 26  # 24 points, white bar, black bar
BAR_SLOTS = slice(24, 26)
COUNT_OFFSET = 15  # index k of a slot's distribution means signed count k - 15


@dataclass(frozen=True, slots=True)
class DecodeRule:
    """When the rules overrule a reading (measured in bench/bench_decode.py, on held-out
    renderer boards read through a calibration, a random game each).

    `margin`: nats (log-likelihood) by which the slot-by-slot reading must beat the best
    allowed board before it stands as seen. `floor`: the least probability a point's count is
    given, so one point costs at most -log(floor). `bar_floor`: the same for the bar, which the
    reader misses with confidence on boards it never saw (held-out renders read most occupied
    bars as empty at p ~ 1), and a hit puts a checker there on a legal move.
    Chosen on the sessions of board seeds 30000.. and measured on 31000..; the camera loop
    decodes beliefs pooled over its last three frames (vision/pooled_belief.py), and with them
    margins 8 and 10 give as few false alarms on 30000.., 8 catching more illegal moves. On
    31000..: legal moves taken right 85.3% -> 96.6%, false alarms 13.3% -> 0.0%, illegal moves
    caught 97.9% -> 90.5% (margin 6, no bar floor, one frame before; bench_decode's notes).
    """

    margin: float = 8.0
    floor: float = 1e-6
    bar_floor: float = 0.01

    def __post_init__(self) -> None:
        if not (self.margin >= 0 and 0 < self.floor < 1 and 0 < self.bar_floor < 1):
            raise ValueError("a decode rule needs margin >= 0 and floors between 0 and 1")


DEFAULT_RULE = DecodeRule()

BoardKey = tuple[int, ...]  # 24 points, bar (w, b), off (w, b): referee/board.py's key


@dataclass(frozen=True, slots=True)
class Decoded:
    """The board to take, and how it was chosen."""

    board: BoardKey
    snapped: bool  # True: an allowed board replaced the slot-by-slot reading
    gap: float  # cost of the best allowed board minus cost of the reading (nats), inf if none


def slot_counts(board: BoardKey) -> tuple[int, ...]:
    """The 26 signed slot counts of a board key (black's bar negative)."""
    return (*board[:24], board[24], -board[25])


def log_table(point_probs: Sequence[Sequence[float]],
              rule: DecodeRule = DEFAULT_RULE) -> np.ndarray:
    table = np.asarray(point_probs, dtype=np.float64)
    if table.shape != (SLOTS, 2 * COUNT_OFFSET + 1):
        raise ValueError(f"point_probs must be {SLOTS} x {2 * COUNT_OFFSET + 1}, "
                         f"not {table.shape}")
    floors = np.full((SLOTS, 1), rule.floor)
    floors[BAR_SLOTS] = rule.bar_floor
    return np.log(np.maximum(table, floors))


def costs(logp: np.ndarray, boards: Sequence[BoardKey]) -> np.ndarray:
    """Negative log-likelihood of each board under the reading (slots read independently)."""
    if not boards:
        return np.zeros(0)
    counts = np.array([slot_counts(b) for b in boards], dtype=np.int64) + COUNT_OFFSET
    counts = np.clip(counts, 0, 2 * COUNT_OFFSET)
    return -logp[np.arange(SLOTS), counts].sum(axis=1)


def reading_cost(logp: np.ndarray) -> float:
    """Cost of the slot-by-slot best reading (a lower bound for every board)."""
    return float(-logp.max(axis=1).sum())


def decode(point_probs: Sequence[Sequence[float]], seen: BoardKey,
           allowed: Iterable[BoardKey], rule: DecodeRule = DEFAULT_RULE) -> Decoded:
    """`seen` is the reading as a board; `allowed` the boards the game can show now."""
    logp = log_table(point_probs, rule)
    candidates = list(dict.fromkeys(allowed))
    if not candidates:
        return Decoded(seen, False, float("inf"))
    c = costs(logp, candidates)
    best = int(np.argmin(c))
    gap = float(c[best] - costs(logp, [seen])[0])
    if candidates[best] == seen or gap > rule.margin:
        return Decoded(seen, False, max(gap, 0.0))
    return Decoded(candidates[best], True, gap)
