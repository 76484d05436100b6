"""Long-nardy positions for tests, written in each side's own numbering (head = own 24)."""

from __future__ import annotations

import random

from nardy_pi.rules.long_rules import illegal_six_block, movement_sequence
from nardy_pi.rules.movegen import legal_plays
from nardy_pi.rules.position import Position
from nardy_pi.rules.settings import DEFAULT_SETTINGS, RuleSettings
from nardy_pi.rules.sides import Side
from nardy_pi.rules.variants import get_variant


def long_pos(
    white: dict[int, int],
    black: dict[int, int],
    turn: Side = Side.WHITE,
    variant: str = "long",
) -> Position:
    """A position from own-point -> count maps of each side; borne-off counts are the rest.

    White's own point is the physical point; black's own point p is physical (p + 11) % 24 + 1
    (black's head, own 24, is physical 12).
    """
    v = get_variant(variant)
    points = [0] * 24
    for p, c in white.items():
        points[p - 1] += c
    for p, c in black.items():
        phys = v.black_points[p - 1]
        assert points[phys - 1] == 0, f"both colours on physical point {phys}"
        points[phys - 1] -= c
    off = (v.checkers - sum(white.values()), v.checkers - sum(black.values()))
    assert min(off) >= 0, "too many checkers"
    return Position(tuple(points), (0, 0), off, turn)


def canon(notation: str) -> str:
    """A play's text with its parts in one fixed order (tests compare plays, not layout)."""
    return " ".join(sorted(notation.split()))


def results(position: Position, dice: str, variant: str = "long", **kw) -> set[str]:
    return {canon(p.notation) for p in legal_plays(position, dice, variant, **kw)}


def plays_set(*notations: str) -> set[str]:
    return {canon(n) for n in notations}


def longest_run(position: Position, variant: str, side: Side) -> int:
    own, _ = position.view(get_variant(variant), side)
    best = run = 0
    for p in range(24, 0, -1):
        run = run + 1 if own[p] else 0
        best = max(best, run)
    return best


def self_play(
    seed: int,
    variant: str = "long",
    settings: RuleSettings = DEFAULT_SETTINGS,
    max_turns: int = 400,
    priming: float = 0.5,
    max_movements: int = 8,
) -> list[tuple[Position, tuple[int, int]]]:
    """(position, roll) of every turn of one seeded random game, until a side is off.

    With probability `priming` a turn takes the play making the mover's longest run of
    points, so blocks (and the six-block rule) come up often. Rolls giving more than
    `max_movements` movements (the long ladders of doubles) are thrown again, to keep the
    games fast to generate.
    """
    rng = random.Random(seed)
    v = get_variant(variant)
    pos = Position.start(variant)
    seen: list[tuple[Position, tuple[int, int]]] = []
    for _ in range(max_turns):
        roll = (rng.randint(1, 6), rng.randint(1, 6))
        while len(movement_sequence(v, roll, settings)) > max_movements:
            roll = (rng.randint(1, 6), rng.randint(1, 6))
        seen.append((pos, roll))
        plays = legal_plays(pos, roll, variant, settings)
        if not plays:
            pos = pos.with_turn(pos.turn.opponent)
            continue
        if rng.random() < priming:
            mover = pos.turn
            play = max(plays, key=lambda p: (longest_run(p.result, variant, mover), rng.random()))
        else:
            play = rng.choice(plays)
        pos = play.result
        if max(pos.off) >= v.checkers:
            break
    return seen


def clumped_position(rng: random.Random, variant: str = "long") -> Position:
    """A random position with both sides' checkers in runs of adjacent points (not always
    reachable in a game, but every move rule applies to it): six-blocks, near-blocks and
    bear-offs come up far more often than in self-play."""
    points = [0] * 24
    v = get_variant(variant)
    for side in (Side.WHITE, Side.BLACK):
        left = v.checkers - (rng.randint(0, 6) if rng.random() < 0.2 else 0)
        home_only = rng.random() < 0.25
        tries = 0
        while left:
            tries += 1
            start = rng.randint(1, 6 if home_only and tries < 50 else 24)
            length = rng.randint(1, 7)
            for own in range(start, max(start - length, 0), -1):
                phys = own if side is Side.WHITE else v.black_points[own - 1]
                if left == 0 or points[phys - 1] * side.sign < 0:
                    break
                n = min(left, rng.randint(1, 3))
                points[phys - 1] += n * side.sign
                left -= n
    off = tuple(v.checkers - sum(abs(c) for c in points if c * s.sign > 0) for s in Side)
    return Position(tuple(points), (0, 0), (off[0], off[1]), Side(rng.randint(0, 1)))


def random_ladder_play(position: Position, moves: tuple[int, ...], variant: str,
                       seed: int) -> Position:
    """The movements in order, each by a random checker that can make it (one from the head),
    retried until the result has no illegal six-block: a legal play of a ladder, built
    without the generator (so a test can check the generator's judgement against it)."""
    v = get_variant(variant)
    rng = random.Random(seed)
    for _ in range(5000):
        own, opp = position.view(v)
        head_used = False
        for m in moves:
            sources = [s for s in range(24, m, -1)
                       if own[s] and not opp[s - m] and not (s == 24 and head_used)]
            if not sources:
                break
            src = rng.choice(sources)
            head_used = head_used or src == 24
            own[src] -= 1
            own[src - m] += 1
        else:
            after = Position.from_view(v, position.turn, own, opp)
            if illegal_six_block(after, v, position.turn) is None:
                return after
    raise AssertionError("no legal ladder play found")
