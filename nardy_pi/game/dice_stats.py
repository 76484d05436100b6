"""Are the dice fair? Face and doubles counts against their expected values, with a
chi-square test and the sample size (players ask this; the answer must say how sure it is).

The chi-square p-value is the regularized upper incomplete gamma function Q(k/2, x/2),
computed here (series and continued fraction, Numerical Recipes style) so that no SciPy is
needed.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from nardy_pi.game.events import GameEvent, Roll
from nardy_pi.rules.sides import Side

_EPS = 1e-14
_MAX_ITER = 1000


def _lower_series(a: float, x: float) -> float:
    """P(a, x) by its power series (good for x < a + 1)."""
    term = total = 1.0 / a
    n = a
    for _ in range(_MAX_ITER):
        n += 1.0
        term *= x / n
        total += term
        if abs(term) < abs(total) * _EPS:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _upper_fraction(a: float, x: float) -> float:
    """Q(a, x) by Lentz's continued fraction (good for x >= a + 1)."""
    tiny = 1e-300
    b = x + 1.0 - a
    c = 1.0 / tiny
    d = 1.0 / b
    h = d
    for i in range(1, _MAX_ITER):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < _EPS:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h


def chi_square_p_value(statistic: float, dof: int) -> float:
    """P(X >= statistic) for a chi-square variable with `dof` degrees of freedom."""
    if dof <= 0:
        raise ValueError("degrees of freedom must be positive")
    if statistic <= 0:
        return 1.0
    a, x = dof / 2.0, statistic / 2.0
    if x < a + 1.0:
        return max(0.0, min(1.0, 1.0 - _lower_series(a, x)))
    return max(0.0, min(1.0, _upper_fraction(a, x)))


@dataclass(frozen=True, slots=True)
class ChiSquare:
    observed: tuple[int, ...]
    expected: tuple[float, ...]
    statistic: float
    dof: int
    p_value: float

    @property
    def sample_size(self) -> int:
        return sum(self.observed)

    @property
    def reliable(self) -> bool:
        """The usual rule of thumb: every expected count at least 5."""
        return bool(self.expected) and min(self.expected) >= 5


def chi_square(observed: Iterable[int], probabilities: Iterable[float]) -> ChiSquare:
    obs = tuple(observed)
    probs = tuple(probabilities)
    if len(obs) != len(probs) or len(obs) < 2:
        raise ValueError("need matching observed counts and probabilities, at least two")
    n = sum(obs)
    expected = tuple(n * p for p in probs)
    if n == 0:
        return ChiSquare(obs, expected, 0.0, len(obs) - 1, 1.0)
    stat = sum((o - e) ** 2 / e for o, e in zip(obs, expected, strict=True) if e > 0)
    return ChiSquare(obs, expected, stat, len(obs) - 1, chi_square_p_value(stat, len(obs) - 1))


@dataclass(frozen=True, slots=True)
class DiceStats:
    """Statistics of a set of two-dice rolls."""

    rolls: int
    faces: ChiSquare  # each face 1-6 among all dice thrown, expected 1/6 each
    doubles: ChiSquare  # (doubles, non-doubles), expected (1/6, 5/6)

    @property
    def doubles_rate(self) -> float:
        return self.doubles.observed[0] / self.rolls if self.rolls else 0.0


def dice_stats(rolls: Iterable[tuple[int, int]]) -> DiceStats:
    faces = [0] * 6
    doubles = n = 0
    for a, b in rolls:
        for die in (a, b):
            if not 1 <= die <= 6:
                raise ValueError(f"a die shows 1-6, got {die}")
            faces[die - 1] += 1
        doubles += a == b
        n += 1
    return DiceStats(
        n, chi_square(faces, [1 / 6] * 6), chi_square((doubles, n - doubles), (1 / 6, 5 / 6))
    )


def rolls_by_side(events: Iterable[GameEvent]) -> dict[Side, list[tuple[int, int]]]:
    """Every two-dice roll of a match log, per player (opening rolls of one die each are
    dice too, but not pairs: they are left out)."""
    out: dict[Side, list[tuple[int, int]]] = {Side.WHITE: [], Side.BLACK: []}
    for event in events:
        if isinstance(event, Roll):
            out[event.side].append((event.dice[0], event.dice[1]))
    return out


def match_dice_stats(events: Iterable[GameEvent]) -> dict[str, DiceStats]:
    """Per player ("white", "black") and for the whole match ("all")."""
    by_side = rolls_by_side(events)
    stats = {side.label: dice_stats(rolls) for side, rolls in by_side.items()}
    stats["all"] = dice_stats([*by_side[Side.WHITE], *by_side[Side.BLACK]])
    return stats
