"""Seeded random short-nardy positions aimed at the corners self-play rarely reaches.

Random games hit a lot but almost never close a board (both sides keep sending each other to
the bar), so these samples put the mover on the bar against four to six made home points,
or bearing off with contact, or anywhere at all. gnubg can take any position, so these are
compared against it (OpenSpiel can only be compared along its own games).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from nardy_pi.rules.position import BAR, OFF, Position
from nardy_pi.rules.sides import Side
from nardy_pi.rules.variants import get_variant

KINDS = ("closed", "bear_off", "anywhere")


def _scatter(
    rng: random.Random, count: int, counts: list[int], blocked: list[int], points: range
) -> None:
    """Drop `count` checkers one by one on random `points` not held by the other side."""
    allowed = [p for p in points if not blocked[p]]
    for _ in range(count):
        counts[rng.choice(allowed)] += 1


def sample(rng: random.Random, kind: str, variant: str = "backgammon") -> Position:
    """One position of `kind` with the mover (random colour) to play."""
    n = get_variant(variant).checkers
    own = [0] * 26  # mover, own numbering
    opp = [0] * 26  # opponent, in the mover's numbering
    if kind == "closed":
        if n < 12:
            raise ValueError(f"{variant} has too few checkers to close a board")
        made = rng.sample(range(19, 25), rng.choice((4, 5, 6, 6)))
        for p in made:
            opp[p] = 2
        left = n - 2 * len(made)
        opp[OFF] = rng.randint(0, max(0, left - 4))
        _scatter(rng, left - opp[OFF], opp, own, range(13, 25))
        own[BAR] = rng.randint(1, 3)
        _scatter(rng, n - own[BAR], own, opp, range(1, 25))
    elif kind == "bear_off":
        own[OFF] = rng.randint(0, n - 1)
        _scatter(rng, n - own[OFF], own, opp, range(1, 7))
        opp[BAR] = rng.randint(0, 1)
        _scatter(rng, n - opp[BAR], opp, own, range(1, 25))
    elif kind == "anywhere":
        own[BAR] = rng.choice((0, 0, 0, 1, 2))
        opp[BAR] = rng.choice((0, 0, 1))
        _scatter(rng, n - own[BAR], own, opp, range(1, 25))
        _scatter(rng, n - opp[BAR], opp, own, range(1, 25))
    else:
        raise ValueError(f"unknown kind {kind!r}; known: {', '.join(KINDS)}")
    mover = rng.choice((Side.WHITE, Side.BLACK))
    # `from_view` hands the turn to the opponent (it rebuilds after-move boards); give it back.
    built = Position.from_view(get_variant(variant), mover, own, opp)
    return built.with_turn(mover)


def random_pairs(
    seed: int, count: int, variant: str = "backgammon"
) -> Iterator[tuple[Position, tuple[int, int]]]:
    """`count` (position, roll) pairs cycling through every kind the variant allows."""
    rng = random.Random(seed)
    kinds = KINDS if get_variant(variant).checkers >= 12 else KINDS[1:]
    for i in range(count):
        position = sample(rng, kinds[i % len(kinds)], variant)
        yield position, (rng.randint(1, 6), rng.randint(1, 6))
