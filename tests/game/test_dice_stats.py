"""Dice fairness statistics: chi-square p-values checked against known quantiles."""

from __future__ import annotations

import random

import numpy as np
import pytest

from nardy_pi.game.dice_stats import chi_square, chi_square_p_value, dice_stats, match_dice_stats
from nardy_pi.game.match import Match
from nardy_pi.rules.sides import Side
from tests.game.driver import play_game


@pytest.mark.parametrize(
    ("x", "dof", "p"),
    [
        (3.841458820694124, 1, 0.05),  # textbook critical values
        (11.070497693516351, 5, 0.05),
        (15.08627246938899, 5, 0.01),
        (6.6348966010212145, 1, 0.01),
        (2.0, 2, float(np.exp(-1.0))),  # dof 2: p = exp(-x/2) exactly
        (0.0, 5, 1.0),
    ],
)
def test_p_value_matches_known_quantiles(x: float, dof: int, p: float) -> None:
    assert chi_square_p_value(x, dof) == pytest.approx(p, rel=1e-6, abs=1e-12)


def test_p_value_agrees_with_a_monte_carlo_estimate() -> None:
    rng = np.random.default_rng(7)
    draws = (rng.standard_normal((200_000, 5)) ** 2).sum(axis=1)
    for x in (2.0, 5.0, 9.0):
        empirical = float((draws >= x).mean())
        assert chi_square_p_value(x, 5) == pytest.approx(empirical, abs=0.005)


def test_fair_dice_pass_and_loaded_dice_fail() -> None:
    rng = random.Random(11)
    fair = [(rng.randint(1, 6), rng.randint(1, 6)) for _ in range(3000)]
    stats = dice_stats(fair)
    assert stats.rolls == 3000 and stats.faces.sample_size == 6000
    assert stats.faces.p_value > 0.001 and stats.doubles.p_value > 0.001
    assert stats.faces.reliable
    loaded = [(6 if rng.random() < 0.3 else rng.randint(1, 6), rng.randint(1, 6))
              for _ in range(3000)]  # fmt: skip
    assert dice_stats(loaded).faces.p_value < 1e-6


def test_doubles_frequency_and_expected_counts() -> None:
    rolls = [(1, 1), (2, 3), (4, 4), (5, 6), (6, 2), (3, 3)]
    stats = dice_stats(rolls)
    assert stats.doubles.observed == (3, 3)
    assert stats.doubles.expected == pytest.approx((1.0, 5.0))
    assert stats.doubles_rate == 0.5
    assert not stats.doubles.reliable  # too few rolls to judge
    with pytest.raises(ValueError):
        dice_stats([(0, 3)])
    with pytest.raises(ValueError):
        chi_square([1], [1.0])


def test_match_dice_statistics_per_player() -> None:
    m = Match.new("backgammon", 0)
    play_game(m, Side.WHITE, winner_dice=(6, 6), loser_dice=(4, 4))
    stats = match_dice_stats(m.events)
    white_rolls = sum(1 for e in m.events if getattr(e, "side", None) is Side.WHITE
                      and e.kind == "roll")  # fmt: skip
    assert stats["white"].rolls == white_rolls
    assert stats["white"].faces.observed[5] == 2 * white_rolls
    assert stats["all"].rolls == stats["white"].rolls + stats["black"].rolls
