"""Decoding a reading with the rules: the most likely board among those the game allows.

The board reader gives, for every slot (points 1..24, white's bar, black's bar), a probability
for each signed count -15..15. Read slot by slot, one unsure stack can make a legal play look
illegal. The referee knows which boards can follow (the record itself, every legal result of
the roll), so it asks which of them explains the frame best. It takes that board unless the
slot-by-slot reading explains the frame clearly better, by `margin` nats; only then does the
reading stand as seen, and an illegal move may be flagged.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

SLOTS = 26  # 24 points, white bar, black bar
COUNT_OFFSET = 15  # index k of a slot's distribution means signed count k - 15
FLOOR = 1e-6  # a probability the reader gave as ~0 still costs only this much
#: Default margin in nats (log-likelihood): the reading must be e^6 (about 400) times likelier
#: than the best allowed board before it overrules the rules. Measured in bench/bench_decode.py.
DEFAULT_MARGIN = 6.0

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


def log_table(point_probs: Sequence[Sequence[float]]) -> np.ndarray:
    table = np.asarray(point_probs, dtype=np.float64)
    if table.shape != (SLOTS, 2 * COUNT_OFFSET + 1):
        raise ValueError(f"point_probs must be {SLOTS} x {2 * COUNT_OFFSET + 1}, "
                         f"not {table.shape}")
    return np.log(np.maximum(table, FLOOR))


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
           allowed: Iterable[BoardKey], margin: float = DEFAULT_MARGIN) -> Decoded:
    """`seen` is the reading as a board; `allowed` the boards the game can show now."""
    logp = log_table(point_probs)
    candidates = list(dict.fromkeys(allowed))
    if not candidates:
        return Decoded(seen, False, float("inf"))
    c = costs(logp, candidates)
    best = int(np.argmin(c))
    gap = float(c[best] - costs(logp, [seen])[0])
    if candidates[best] == seen or gap > margin:
        return Decoded(seen, False, max(gap, 0.0))
    return Decoded(candidates[best], True, gap)
