"""From per-slot probabilities to one reading of the whole board.

A board holds 15 checkers a side, bar and off included, and one colour per point. The tray is
not read, so a side may show fewer than 15 (borne off, or on an unseen slot); each missing
checker costs MISSING_COST nats unless some slot is unseen, up to MISSING_CAP of them. A side
a few short is more likely miscounted than borne off; a side many short has borne them off
(or they lie in the tray), and charging for every one would make up a tall stack from a
count the model all but ruled out. The most likely reading under that constraint is found
exactly by dynamic programming over (white total, black total).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from nardy_pi.vision.board.layout import BAR_LOWER, BAR_UPPER, SLOTS

MAX = 15
VALUES = np.arange(-MAX, MAX + 1)  # index k of a slot's distribution means k - 15 checkers
MISSING_COST = 1.0
MISSING_CAP = 4  # missing checkers a side charged for (chosen with frame_reading.EMPTY_WEIGHT)
_FLOOR = 1e-6


@dataclass(frozen=True, slots=True)
class Decoded:
    counts: tuple[int | None, ...]  # SLOTS signed counts; None for an unseen slot
    confidence: tuple[float, ...]  # SLOTS: the model's probability of the chosen count
    board_confidence: float


def signed_distribution(count: np.ndarray, light: np.ndarray) -> np.ndarray:
    """N x 31 over -15..15 from count (N x 16) and light-side probability (N)."""
    out = np.zeros((len(count), len(VALUES)))
    out[:, MAX] = count[:, 0]
    out[:, MAX + 1 :] = count[:, 1:] * light[:, None]
    out[:, :MAX] = (count[:, 1:] * (1.0 - light[:, None]))[:, ::-1]
    return out / out.sum(axis=1, keepdims=True)


def bar_distributions(probs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per side, 31 probabilities over the bar's total (white at +k, black at -k, the rest 0),
    from the two halves' signed distributions (either colour may lie in either half)."""
    out = []
    for sign in (1, -1):
        total = np.zeros(MAX + 1)
        total[0] = 1.0
        for slot in (BAR_LOWER, BAR_UPPER):
            p = probs[slot]
            mine = p[MAX + 1 :] if sign > 0 else p[:MAX][::-1]  # 1..15 of this side
            half = np.concatenate([[1.0 - mine.sum()], mine])
            total = np.convolve(total, half)[: MAX + 1]
        full = np.zeros(len(VALUES))
        full[MAX + sign * np.arange(MAX + 1)] = total
        out.append(full / full.sum())
    return out[0], out[1]


def with_side_bars(probs: np.ndarray) -> np.ndarray:
    """SLOTS x 31 as an Observation's point_probs carry them (vision/types.py): the 24 points
    as read, then white's and black's bar totals (bar_distributions) in place of the two
    halves, which either colour may fill."""
    out = np.array(probs, np.float64, copy=True)
    out[BAR_LOWER], out[BAR_UPPER] = bar_distributions(probs)
    return out


def _shift_index() -> tuple[np.ndarray, np.ndarray]:
    """Gather indices into the padded table: value k moves white (k > 0) or black (k < 0)
    totals up by |k|; padding cells hold -inf."""
    rows = np.empty((len(VALUES), MAX + 1), int)
    cols = np.empty((len(VALUES), MAX + 1), int)
    base = np.arange(MAX + 1) + MAX
    for i, k in enumerate(VALUES):
        rows[i] = base - max(k, 0)
        cols[i] = base - max(-k, 0)
    return rows[:, :, None], cols[:, None, :]


_ROWS, _COLS = _shift_index()
#: the same gather into the flattened padded table (one `take` instead of 2-D fancy indexing:
#: half the decode's time, once per camera frame)
_FLAT = _ROWS * (2 * MAX + 1) + _COLS


def decode(probs: np.ndarray, seen: np.ndarray, empty_weight: float = 1.0) -> Decoded:
    """`probs`: SLOTS x 31; `seen`: SLOTS bool. `empty_weight`: prior odds for an empty slot
    against the model's (frame_reading.EMPTY_WEIGHT); the confidences stay the model's."""
    logp = np.log(np.maximum(probs, _FLOOR))
    if empty_weight != 1.0:
        logp[:, MAX] += np.log(empty_weight)
    padded = np.full((2 * MAX + 1, 2 * MAX + 1), -np.inf)
    flat = padded.ravel()  # a view: writes to dp show through
    dp = padded[MAX:, MAX:]
    dp[0, 0] = 0.0
    choice = np.zeros((SLOTS, MAX + 1, MAX + 1), np.int8)
    for s in range(SLOTS):
        if not seen[s]:
            continue
        cand = flat.take(_FLAT) + logp[s][:, None, None]  # 31 x 16 x 16
        arg = cand.argmax(axis=0)
        dp[:] = cand.max(axis=0)
        choice[s] = VALUES[arg]
    cost = 0.0 if not seen.all() else MISSING_COST
    missing = np.minimum(MAX - np.arange(MAX + 1), MISSING_CAP)
    final = dp - cost * (missing[:, None] + missing[None, :])
    w, b = np.unravel_index(int(np.argmax(final)), final.shape)
    counts: list[int | None] = [None] * SLOTS
    for s in range(SLOTS - 1, -1, -1):
        if not seen[s]:
            continue
        k = int(choice[s, w, b])
        counts[s] = k
        if k > 0:
            w -= k
        elif k < 0:
            b += k
    conf = tuple(float(probs[s, c + MAX]) if c is not None else 0.0
                 for s, c in enumerate(counts))
    board = float(np.prod([c for c, s in zip(conf, seen, strict=True) if s]))
    return Decoded(tuple(counts), conf, board)
