"""Seeded random self-play: a cheap source of reachable positions for property tests."""

from __future__ import annotations

import random
from collections.abc import Iterator

from nardy_pi.rules.movegen import legal_plays
from nardy_pi.rules.position import Position
from nardy_pi.rules.variants import get_variant


def random_positions(
    variant: str, seed: int, games: int = 1, max_turns: int = 400
) -> Iterator[tuple[Position, tuple[int, int]]]:
    """Yield (position, roll) pairs met while playing random legal plays."""
    rng = random.Random(seed)
    v = get_variant(variant)
    for _ in range(games):
        position = Position.start(v)
        for _ in range(max_turns):
            roll = (rng.randint(1, 6), rng.randint(1, 6))
            yield position, roll
            plays = legal_plays(position, roll, v)
            if plays:
                position = rng.choice(plays).result
                if position.off[position.turn.opponent] == v.checkers:
                    break
            else:
                position = position.with_turn(position.turn.opponent)
