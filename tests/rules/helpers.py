"""Writing positions out by hand in tests: physical points, off counts implied."""

from __future__ import annotations

from nardy_pi.rules.movegen import legal_plays
from nardy_pi.rules.position import Position
from nardy_pi.rules.sides import Side
from nardy_pi.rules.variants import get_variant


def make(
    white: dict[int, int],
    black: dict[int, int],
    bar: tuple[int, int] = (0, 0),
    turn: Side = Side.WHITE,
    variant: str = "backgammon",
) -> Position:
    """A position from physical point -> count maps; borne-off counts are what is left."""
    n = get_variant(variant).checkers
    points = [0] * 24
    for p, c in white.items():
        points[p - 1] += c
    for p, c in black.items():
        assert points[p - 1] == 0, f"both colours on point {p}"
        points[p - 1] -= c
    off = (n - sum(white.values()) - bar[0], n - sum(black.values()) - bar[1])
    assert min(off) >= 0, "too many checkers"
    return Position(tuple(points), bar, off, turn)


def notations(position: Position, dice: str, variant: str = "backgammon", **kw) -> set[str]:
    return {p.notation for p in legal_plays(position, dice, variant, **kw)}
