"""The fast generator against the brute-force reference (brute.py) on many long positions.

Positions come from seeded random self-play (reachable positions, half of the turns steered
toward long runs of points so blocks come up) and from a sampler of clumped positions
(six-blocks, near-blocks and bear-offs on purpose). Every legal play must also replay step
by step to its stated result.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from nardy_pi.rules.long_rules import movement_sequence
from nardy_pi.rules.movegen import Relax, legal_plays
from nardy_pi.rules.play import Play
from nardy_pi.rules.position import Position
from nardy_pi.rules.settings import DEFAULT_SETTINGS, RuleSettings
from nardy_pi.rules.variants import Variant, get_variant
from tests.rules.long.brute import reference_results
from tests.rules.long.util import clumped_position, self_play


def replays(play: Play, pos: Position, v: Variant, roll: tuple[int, int], s: RuleSettings) -> bool:
    own, opp = pos.view(v)
    for step in play.steps:
        if own[step.src] == 0 or step.hit:
            return False
        if step.dst and step.src - step.dst != step.die:
            return False
        if not step.dst and step.die < step.src:
            return False
        own[step.src] -= 1
        own[step.dst] += 1
    seq = movement_sequence(v, roll, s)
    if v.doubles_ladder and roll[0] == roll[1]:
        dice_ok = play.dice_used == seq[: len(play.steps)]
    else:
        dice_ok = not Counter(play.dice_used) - Counter(seq)
    return dice_ok and play.result.view(v, pos.turn) == (own, opp)


def check(cases, v: Variant, s: RuleSettings, max_movements: int = 4) -> Counter:
    """Compare every (position, roll); count how often the six-block and order rules bit.

    Rolls with more than `max_movements` movements are skipped: the longest ladders of
    doubles (1-1 gives 12 movements) can have 10^5 distinct plays and take seconds each;
    bench/bench_long.py times them.
    """
    bit: Counter = Counter()
    for pos, roll in cases:
        if len(movement_sequence(v, roll, s)) > max_movements:
            continue
        plays = legal_plays(pos, roll, v, s)
        got = {tuple(p.result.view(v, pos.turn)[0][:25]) for p in plays}
        assert got == reference_results(pos, roll, v, s), (pos, roll, s)
        assert all(replays(p, pos, v, roll, s) for p in plays), (pos, roll)
        texts = {p.notation for p in plays}
        if {p.notation for p in legal_plays(pos, roll, v, s, Relax(six_block=True))} != texts:
            bit["six_block"] += 1
        if s.higher_die_first and {
            p.notation for p in legal_plays(pos, roll, v, s, Relax(die_order=True))
        } != texts:
            bit["die_order"] += 1
    return bit


def games(variant: str, seeds: range, s: RuleSettings = DEFAULT_SETTINGS):
    for seed in seeds:
        yield from self_play(seed, variant, s)


def clumped(variant: str, n: int, seed: int):
    rng = random.Random(seed)
    for _ in range(n):
        yield clumped_position(rng, variant), (rng.randint(1, 6), rng.randint(1, 6))


def test_long_default_rules_on_self_play_games() -> None:
    bit = check(games("long", range(12)), get_variant("long"), DEFAULT_SETTINGS)
    assert bit["six_block"] >= 5  # the rule was really exercised


def test_long_default_rules_on_clumped_positions() -> None:
    bit = check(clumped("long", 1500, 1), get_variant("long"), DEFAULT_SETTINGS)
    assert bit["six_block"] >= 30


@pytest.mark.parametrize(
    "settings",
    [
        {"six_block": "until_home"},
        {"higher_die_first": True},
        {"oversize_bear_off": "any"},
        {"head_exception": "doubles_any_turn"},
        {"head_exception": "first_turn_small_doubles"},
        {"head_exception": "none"},
        {"higher_die_first": True, "oversize_bear_off": "any", "six_block": "until_home"},
    ],
)
def test_long_other_readings(settings: dict) -> None:
    s = RuleSettings.from_dict(settings)
    v = get_variant("long")
    bit = check(games("long", range(2), s), v, s) + check(clumped("long", 400, 2), v, s)
    assert bit["six_block"] >= 5
    if s.higher_die_first:
        assert bit["die_order"] >= 3


def test_gulbar() -> None:
    v = get_variant("gulbar")
    check(games("gulbar", range(3)), v, DEFAULT_SETTINGS)
    check(clumped("gulbar", 400, 3), v, DEFAULT_SETTINGS)


@pytest.mark.parametrize("variant", ["mad-gulbar", "crazy-long"])
@pytest.mark.parametrize("per_double", [2, 4])
def test_ladders_of_doubles(variant: str, per_double: int) -> None:
    v = get_variant(variant)
    s = RuleSettings(ladder_moves_per_double=per_double)
    check(games(variant, range(3), s), v, s, max_movements=8)
    check(clumped(variant, 150, 4), v, s, max_movements=8)
