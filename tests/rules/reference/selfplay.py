"""Seeded self-play with our own generator: a stream of (position, roll) pairs.

Pure random play reaches bar entries and bear-offs often but closed boards rarely, so with
probability `greed` a turn picks the play that makes the most home points and puts the most
opposing checkers on the bar (ties broken at random) - that is what builds primes and closed
boards in real games.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from nardy_pi.rules.movegen import legal_plays
from nardy_pi.rules.play import Play
from nardy_pi.rules.position import BAR, Position
from nardy_pi.rules.variants import get_variant

Pair = tuple[Position, tuple[int, int]]


def _blocking_score(play: Play, variant: str) -> int:
    # After the play the turn has passed: the mover is now `result.turn.opponent`.
    v = get_variant(variant)
    mover = play.result.turn.opponent
    own, opp = play.result.view(v, mover)
    home_points = sum(1 for p in range(1, 7) if own[p] >= 2)
    return 2 * home_points + 3 * opp[BAR]


def choose(plays: list[Play], variant: str, rng: random.Random, greed: float) -> Play:
    if rng.random() >= greed:
        return rng.choice(plays)
    scored = [(_blocking_score(p, variant), rng.random(), i) for i, p in enumerate(plays)]
    return plays[max(scored)[2]]


def self_play(variant: str, seed: int, count: int, greed: float = 0.3) -> Iterator[Pair]:
    """Yield `count` (position, roll) pairs from seeded games starting at `variant`'s start."""
    rng = random.Random(seed)
    v = get_variant(variant)
    position = Position.start(variant)
    for _ in range(count):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        yield position, dice
        plays = legal_plays(position, dice, variant)
        if plays:
            position = choose(plays, variant, rng, greed).result
        else:
            position = position.with_turn(position.turn.opponent)
        if max(position.off) >= v.checkers:
            position = Position.start(variant, turn=position.turn)
