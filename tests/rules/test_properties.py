"""Property tests: conservation, inference inverts generation, for every variant."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from nardy_pi.rules.inference import board_key, infer
from nardy_pi.rules.long_rules import is_ladder
from nardy_pi.rules.movegen import legal_plays
from nardy_pi.rules.position import problems
from nardy_pi.rules.sides import Side
from nardy_pi.rules.variants import VARIANTS
from tests.rules.selfplay import random_positions

VARIANT_NAMES = sorted(VARIANTS)


@settings(max_examples=60, deadline=None)
@given(
    variant=st.sampled_from(VARIANT_NAMES),
    seed=st.integers(0, 10**9),
    skip=st.integers(0, 150),
)
def test_every_play_conserves_checkers_and_inference_returns_it(
    variant: str, seed: int, skip: int
) -> None:
    pairs = itertools.islice(random_positions(variant, seed), skip, skip + 3)
    for position, roll in pairs:
        plays = legal_plays(position, roll, variant)
        assert len({board_key(p.result) for p in plays}) == len(plays), "duplicate results"
        for play in plays:
            after = play.result
            assert after.turn is position.turn.opponent
            assert problems(after, variant) == []
            for side in Side:
                assert after.count(side) == VARIANTS[variant].checkers
            # Every checker moved forward by exactly the dice used.
            mover = position.turn
            moved = position.pip_count(variant, mover) - after.pip_count(variant, mover)
            assert moved <= sum(play.dice_used)
            if not any(step.dst == 0 for step in play.steps):
                assert moved == sum(play.dice_used)
            inferred = infer(position, roll, after.with_turn(Side.WHITE), variant)
            assert inferred.legal, inferred.diagnosis
            assert inferred.play is not None
            assert board_key(inferred.play.result) == board_key(after)
            if is_ladder(VARIANTS[variant], roll):
                # A ladder play is found by assigning movements to checkers, not by the
                # generator's walk: the same play, possibly another reading of it (which
                # checker took which movement), made of the same dice.
                assert sorted(inferred.play.dice_used) == sorted(play.dice_used)
            else:
                assert inferred.play.notation == play.notation


@settings(max_examples=25, deadline=None)
@given(
    variant=st.sampled_from(VARIANT_NAMES),
    seed=st.integers(0, 10**9),
    skip=st.integers(0, 150),
)
def test_a_pass_is_inferred_only_when_nothing_can_move(variant: str, seed: int, skip: int) -> None:
    for position, roll in itertools.islice(random_positions(variant, seed), skip, skip + 8):
        result = infer(position, roll, position, variant)
        if legal_plays(position, roll, variant):
            assert not result.legal and result.diagnosis is not None
            assert result.diagnosis.code == "no_move"
        else:
            assert result.passed and result.legal
