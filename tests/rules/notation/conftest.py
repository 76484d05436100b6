"""Positions reached by seeded random play, shared by the notation tests.

Random play reaches bar entries, hits and bear-offs often; the same stream also gives each
position's roll and legal plays for the move-text tests.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest

from nardy_pi.rules.movegen import legal_plays
from nardy_pi.rules.play import Play
from nardy_pi.rules.position import Position
from nardy_pi.rules.sides import Side
from nardy_pi.rules.variants import get_variant


@dataclass(frozen=True)
class Turn:
    variant: str
    position: Position
    dice: tuple[int, int]
    plays: list[Play]


def random_turns(variant: str, seed: int, count: int) -> list[Turn]:
    rng = random.Random(seed)
    checkers = get_variant(variant).checkers
    position = Position.start(variant)
    turns = []
    for _ in range(count):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        plays = legal_plays(position, dice, variant)
        turns.append(Turn(variant, position, dice, plays))
        position = rng.choice(plays).result if plays else position.with_turn(position.turn.opponent)
        if max(position.off) >= checkers:  # game over: start a new one, loser to move
            position = Position.start(variant, turn=position.turn)
    return turns


# Counts keep the whole notation suite well under a minute on the 2-core target.
_PLAN = (("backgammon", 11, 2000), ("nackgammon", 12, 400), ("hypergammon", 13, 300))


@pytest.fixture(scope="session")
def short_turns() -> list[Turn]:
    """Backgammon-family turns (bar, hits, bear-off included)."""
    return [t for variant, seed, n in _PLAN for t in random_turns(variant, seed, n)]


@pytest.fixture(scope="session")
def long_turns() -> list[Turn]:
    return random_turns("long", 21, 600)


@pytest.fixture(scope="session")
def edge_positions() -> list[Position]:
    """Backgammon positions random play reaches rarely: empty board, all on bar, heavy bar."""
    empty = Position(tuple([0] * 24), (0, 0), (15, 15))
    all_bar = Position(tuple([0] * 24), (15, 15), (0, 0))
    one_each = Position((1,) + (0,) * 22 + (-1,), (0, 0), (14, 14), turn=Side.BLACK)
    stacked = Position((15,) + (0,) * 22 + (-15,), (0, 0), (0, 0))
    mixed = Position((2, 0, -1) + (0,) * 20 + (-3,), (5, 4), (8, 7), turn=Side.BLACK)
    return [empty, all_bar, one_each, stacked, mixed]

