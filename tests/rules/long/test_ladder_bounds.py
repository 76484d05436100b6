"""Ladders of doubles (mad gulbar, crazy long nardy) with bounded work.

A ladder from 1-1 is twelve movements; one spread position has hundreds of thousands of
plays. Inference aims at the observed board instead of listing them, and a caller that does
want the list gets TooManyPlaysError past its limit. The aimed answers are checked against
the full list wherever the full list is small enough to build.
"""

from __future__ import annotations

import random
import time

import pytest

from nardy_pi.rules.errors import TooManyPlaysError
from nardy_pi.rules.inference import board_key, infer
from nardy_pi.rules.long_rules import movement_sequence
from nardy_pi.rules.movegen import full_play_exists, legal_plays
from nardy_pi.rules.notation.xgid import parse_position
from nardy_pi.rules.position import Position
from nardy_pi.rules.variants import get_variant
from tests.rules.long.util import clumped_position, random_ladder_play

#: fifteen single checkers, the opponent all on his head: 1-1 climbs a tree too big to list
SPREAD = "---------AAAoAAAAAAAAAAAA-:1"


def _nudged(after: Position, rng: random.Random) -> Position | None:
    """`after` with one of the mover's checkers one pip further or back (often illegal)."""
    v = get_variant("crazy-long")
    mover = after.turn.opponent
    own, opp = after.view(v, mover)
    points = [p for p in range(2, 25) if own[p]]
    if not points:
        return None
    src = rng.choice(points)
    dst = src + rng.choice((-1, 1))
    if not 1 <= dst <= 24 or opp[dst]:
        return None
    own[src] -= 1
    own[dst] += 1
    return Position.from_view(v, mover, own, opp)


@pytest.mark.parametrize("variant", ["crazy-long", "mad-gulbar"])
def test_aimed_inference_agrees_with_the_full_list(variant: str) -> None:
    rng = random.Random(12)
    v = get_variant(variant)
    checked = 0
    for _ in range(60):
        position = clumped_position(rng, variant)
        roll = (d := rng.choice((3, 4, 5, 6)), d)
        try:
            plays = legal_plays(position, roll, v, limit=3000)
        except TooManyPlaysError:
            continue
        results = {board_key(p.result) for p in plays}
        assert full_play_exists(position, roll, v) == any(
            len(p.steps) == len(movement_sequence(v, roll)) for p in plays
        )
        for play in rng.sample(plays, min(4, len(plays))):
            got = infer(position, roll, play.result, v)
            assert got.legal and board_key(got.play.result) == board_key(play.result)
            nudged = _nudged(play.result.with_turn(position.turn.opponent), rng)
            if nudged is not None:
                assert infer(position, roll, nudged, v).legal == (board_key(nudged) in results)
            checked += 1
    assert checked >= 40


def _random_ladder_play(position: Position, roll: tuple[int, int]) -> Position:
    """A legal full play of `roll` on SPREAD in crazy long nardy, built without the generator."""
    v = get_variant("crazy-long")
    return random_ladder_play(position, movement_sequence(v, roll), "crazy-long", seed=3)


def test_a_huge_ladder_is_judged_without_listing_it() -> None:
    v = get_variant("crazy-long")
    position, _ = parse_position(SPREAD, v)
    started = time.process_time()
    with pytest.raises(TooManyPlaysError, match="more than 20000"):
        legal_plays(position, (1, 1), v, limit=20_000)
    listed = time.process_time() - started
    started = time.process_time()
    played = infer(position, (1, 1), _random_ladder_play(position, (1, 1)), v)
    unmoved = infer(position, (1, 1), position, v)
    own, opp = position.view(v)
    own[23] -= 1
    own[22] += 1
    short = infer(position, (1, 1), Position.from_view(v, position.turn, own, opp), v)
    judged = time.process_time() - started
    print(f"\nSPREAD 1-1: 20,000 plays listed in {listed:.2f} s CPU (then refused); "
          f"three boards judged in {judged:.3f} s CPU")
    assert played.legal and played.play is not None
    assert len(played.play.steps) == 12
    assert unmoved.diagnosis is not None and unmoved.diagnosis.code == "no_move"
    assert short.diagnosis is not None and short.diagnosis.code == "wrong_distance"


def test_some_full_play_of_a_huge_ladder_is_legal_and_found_without_the_list() -> None:
    from nardy_pi.rules.movegen import some_full_play

    v = get_variant("crazy-long")
    position, _ = parse_position(SPREAD, v)
    play = some_full_play(position, (1, 1), v)
    assert play is not None and len(play.steps) == 12
    judged = infer(position, (1, 1), play.result, v)
    assert judged.legal and board_key(judged.play.result) == board_key(play.result)
