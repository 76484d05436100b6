"""Positions to draw: 15 checkers a side over the points, the bar and borne off."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

BACKGAMMON_START = (-2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2)
LONG_NARDY_START = tuple([0] * 11 + [-15] + [0] * 11 + [15])


@dataclass(frozen=True, slots=True)
class BoardPosition:
    """points[i] is physical point i + 1: +n white (light) checkers, -n black (dark)."""

    points: tuple[int, ...]
    bar_white: int = 0
    bar_black: int = 0
    off_white: int = 0
    off_black: int = 0

    def __post_init__(self) -> None:
        if len(self.points) != 24:
            raise ValueError(f"a position has 24 points, got {len(self.points)}")
        white = sum(c for c in self.points if c > 0) + self.bar_white + self.off_white
        black = -sum(c for c in self.points if c < 0) + self.bar_black + self.off_black
        if min(self.bar_white, self.bar_black, self.off_white, self.off_black) < 0:
            raise ValueError("bar and off counts cannot be negative")
        if white != 15 or black != 15:
            raise ValueError(f"a position has 15 checkers a side, got {white} white, "
                             f"{black} black")

    @staticmethod
    def from_points(points, bar_white: int = 0, bar_black: int = 0) -> BoardPosition:
        """The rest of each side's 15 counted as borne off."""
        pts = tuple(int(c) for c in points)
        off_w = 15 - bar_white - sum(c for c in pts if c > 0)
        off_b = 15 - bar_black + sum(c for c in pts if c < 0)
        return BoardPosition(pts, bar_white, bar_black, off_w, off_b)


def _spread(rng: np.random.Generator, points: list[int], sign: int, left: int,
            choices: list[int], k: int) -> None:
    free = [i for i in choices if points[i] == 0]
    if left <= 0 or not free:
        return
    chosen = rng.choice(free, min(k, len(free)), replace=False)
    split = rng.multinomial(left, rng.dirichlet(np.ones(len(chosen)) * 0.8))
    for index, n in zip(chosen, split, strict=True):
        points[int(index)] = sign * int(n)


def random_position(rng: np.random.Generator) -> BoardPosition:
    kind = rng.random()
    if kind < 0.1:
        return BoardPosition(BACKGAMMON_START)
    if kind < 0.15:
        return BoardPosition(LONG_NARDY_START)
    points = [0] * 24
    bar = {"white": 0, "black": 0}
    off = {"white": 0, "black": 0}
    bearoff = kind > 0.85
    for colour, sign in (("white", 1), ("black", -1)):
        if not bearoff and rng.random() < 0.25:
            bar[colour] = int(rng.integers(1, 4))
        if bearoff:
            off[colour] = int(rng.integers(0, 15))
        elif rng.random() < 0.15:
            off[colour] = int(rng.integers(1, 8))
        left = 15 - bar[colour] - off[colour]
        if bearoff:
            home = list(range(0, 6)) if sign > 0 else list(range(18, 24))
            _spread(rng, points, sign, left, home, int(rng.integers(1, 7)))
        else:
            _spread(rng, points, sign, left, list(range(24)), int(rng.integers(2, 10)))
    # Stacks the spread could not place (no free point) go borne off.
    white_on = sum(c for c in points if c > 0) + bar["white"]
    black_on = -sum(c for c in points if c < 0) + bar["black"]
    return BoardPosition(tuple(points), bar["white"], bar["black"], 15 - white_on,
                         15 - black_on)
