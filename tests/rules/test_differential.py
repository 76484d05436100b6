"""Our backgammon move generator against two independent ones: gnubg-nn and OpenSpiel.

For every (position, roll) the SET of boards reachable in one turn must be the same. Pairs
come from seeded self-play with our generator (compared with gnubg, which accepts any
position), from seeded random positions aimed at closed boards and bear-offs (gnubg), and
from seeded random games played inside OpenSpiel (it cannot be given a position; gnubg checks
those boards too). 16,200 pairs, 20,200 comparisons, about 15 s of CPU; bench/bench_rules.py
runs more and prints the mix of situations covered.
"""

from __future__ import annotations

import collections
from collections.abc import Iterable

import gnubg_nn
import pytest

from nardy_pi.rules.movegen import legal_plays
from nardy_pi.rules.position import Position
from nardy_pi.rules.sides import Side
from tests.rules.helpers import make
from tests.rules.reference.compare import (
    Mismatch,
    board_key,
    compare,
    failure_message,
    our_results,
    tags,
)
from tests.rules.reference.gnubg_ref import gnubg_results, to_gnubg
from tests.rules.reference.openspiel_ref import (
    load_game,
    most_dice,
    position_of,
    random_decisions,
    side_of,
)
from tests.rules.reference.random_positions import random_pairs
from tests.rules.reference.selfplay import self_play

Pairs = Iterable[tuple[Position, tuple[int, int]]]


def _against_gnubg(variant: str, pairs: Pairs) -> tuple[list[Mismatch], int, collections.Counter]:
    mismatches: list[Mismatch] = []
    seen: collections.Counter[str] = collections.Counter()
    n = 0
    for position, dice in pairs:
        n += 1
        seen.update(tags(position, dice, variant))
        found = compare("gnubg", variant, position, dice, gnubg_results(position, dice, variant))
        if found:
            mismatches.append(found)
    return mismatches, n, seen


# --- the adapters read boards the way the references mean them -------------------------------


def test_gnubg_board_of_the_start_is_the_standard_layout() -> None:
    # Each side in its own numbering: 2 on 24, 5 on 13, 3 on 8, 5 on 6 (DIGEST §2.1.1).
    layout = [0] * 25
    for point, count in ((24, 2), (13, 5), (8, 3), (6, 5)):
        layout[point - 1] = count
    for turn in Side:
        assert to_gnubg(Position.start("backgammon", turn), "backgammon") == [layout, layout]


def test_gnubg_reports_a_closed_board_as_the_unchanged_board() -> None:
    # Black holds white's entry points (physical 19-24); white on the bar cannot enter.
    closed = make({6: 14}, {p: 2 for p in range(19, 25)}, bar=(1, 0))
    assert gnubg_nn.moves(to_gnubg(closed, "backgammon"), 6, 5) == ()
    assert gnubg_results(closed, (6, 5), "backgammon") == {board_key(closed)}


@pytest.mark.parametrize("hyper", [False, True])
def test_openspiel_start_reads_as_our_start(hyper: bool) -> None:
    state = load_game(hyper).new_initial_state()
    state.apply_action(0)  # opening roll 1-2, "x" (black) starts
    variant = "hypergammon" if hyper else "backgammon"
    assert position_of(state, side_of(state.current_player())) == Position.start(
        variant, Side.BLACK
    )


def test_a_mismatch_report_can_be_turned_into_a_unit_test() -> None:
    # A fake reference that drops one of our plays and invents a pass.
    start = Position.start("backgammon")
    ours = frozenset(board_key(p.result) for p in legal_plays(start, (6, 2), "backgammon"))
    dropped = sorted(ours)[0]
    invented = board_key(start)
    found = compare("fake", "backgammon", start, (6, 2), (ours - {dropped}) | {invented})
    assert found is not None
    assert found.missing == {invented} and found.extra == {dropped}
    text = failure_message([found], 1)
    # The well-known XGID board field of the start, the turn, the roll, both differences.
    assert "position: -b----E-C---eE---c-e----B-" in text
    assert "turn=white dice=62" in text
    assert "missing (reference only): -b----E-C---eE---c-e----B-" in text
    assert "extra (ours only):" in text


# --- the differential runs ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "seed", "count"),
    [("backgammon", 11, 5000), ("nackgammon", 12, 1500), ("hypergammon", 13, 1500)],
)
def test_self_play_matches_gnubg(variant: str, seed: int, count: int) -> None:
    mismatches, n, seen = _against_gnubg(variant, self_play(variant, seed, count))
    assert not mismatches, failure_message(mismatches, n)
    # Random games must reach the situations the rules single out.
    assert min(seen["bar_entry"], seen["bear_off"], seen["doubles"]) >= count // 50, seen


@pytest.mark.parametrize(
    ("variant", "seed", "count"),
    [("backgammon", 21, 3000), ("nackgammon", 22, 600), ("hypergammon", 23, 600)],
)
def test_random_positions_match_gnubg(variant: str, seed: int, count: int) -> None:
    mismatches, n, seen = _against_gnubg(variant, random_pairs(seed, count, variant))
    assert not mismatches, failure_message(mismatches, n)
    if variant != "hypergammon":  # three checkers cannot close a board
        assert seen["closed_board"] >= count // 10, seen


@pytest.mark.parametrize(("hyper", "seed", "count"), [(False, 31, 3000), (True, 32, 1000)])
def test_openspiel_games_match(hyper: bool, seed: int, count: int) -> None:
    """Each turn of OpenSpiel's own games against OpenSpiel and, on the same boards, gnubg."""
    variant = "hypergammon" if hyper else "backgammon"
    mismatches: list[Mismatch] = []
    seen: collections.Counter[str] = collections.Counter()
    for decision in random_decisions(seed, count, hyper):
        position, dice = decision.position, decision.dice
        seen.update(tags(position, dice, variant))
        ours = our_results(position, dice, variant)
        # OpenSpiel judges each half of a double alone; keep the full turns using most dice.
        references = {
            "openspiel": most_dice(decision.results),
            "gnubg": gnubg_results(position, dice, variant),
        }
        for name, theirs in references.items():
            found = compare(name, variant, position, dice, theirs, ours)
            if found:
                mismatches.append(found)
    assert not mismatches, failure_message(mismatches, count)
    assert min(seen["bar_entry"], seen["bear_off"], seen["doubles"]) >= count // 50, seen
