"""Long nardy: occupancy, the six-block rule, forced moves and bearing off (DIGEST §2.3.3-7).

Positions are written in each side's own numbering (head 24, home 1-6); black's own point p
is our own 12 +- p. Several cases follow edge cases of the public MetinGames/Long-Narde test
suite (tests/prime-rule-edge-cases.test.js, tests/core-rules.test.js), rewritten here.
"""

from __future__ import annotations

import pytest

from nardy_pi.rules.long_rules import illegal_six_block, six_block_points
from nardy_pi.rules.movegen import Relax, legal_plays
from nardy_pi.rules.settings import RuleSettings
from nardy_pi.rules.sides import Side
from nardy_pi.rules.variants import get_variant
from tests.rules.long.util import long_pos, plays_set, results

LONG = get_variant("long")
Q_ORDER = RuleSettings(higher_die_first=True)
J_BLOCK = RuleSettings(six_block="until_home")

# --- no landing on, no passing through an opposing point (§2.3.3) ---------------------------


def test_combined_move_goes_around_an_opposing_point() -> None:
    # black on our 17 (his own 5): 20/17/11 is closed, 20/14/11 is open
    pos = long_pos({20: 1, 1: 14}, {5: 1, 24: 14})
    assert results(pos, "63") == plays_set("20/11")


def test_both_intermediate_points_closed_means_no_move() -> None:
    # black on our 17 and 14: neither die can be played by the only checker that can move
    pos = long_pos({20: 1, 1: 14}, {5: 1, 2: 1, 24: 13})
    assert legal_plays(pos, "63", "long") == []


def test_only_one_die_playable_the_larger_is_played() -> None:
    # MetinGames core-rules "only one die playable -> the larger": black on our 11 (his 23)
    # closes both 20/14/11 and 20/17/11; either single die could be played, so the 6 is.
    pos = long_pos({20: 1, 1: 14}, {23: 1, 24: 14})
    assert results(pos, "63") == plays_set("20/14")


def test_relaxed_blocks_lets_a_checker_land_on_an_opposing_point() -> None:
    pos = long_pos({20: 1, 1: 14}, {5: 1, 2: 1, 24: 13})
    assert {p.notation for p in legal_plays(pos, "63", "long", relax=Relax(blocks=True))} == {
        "20/11"
    }


# --- the six-block rule (§2.3.4) ------------------------------------------------------------

# White holds 24 (2), 23, 22, 21, 20 and a runner on 10; a 5 from the head makes 24-19.
# (The spares stand on 3: our 1 would extend the run, see the next-but-last test.)
BLOCK_WHITE = {24: 2, 23: 1, 22: 1, 21: 1, 20: 1, 10: 1, 3: 8}


def test_six_block_with_every_opposing_checker_behind_is_illegal() -> None:
    pos = long_pos(BLOCK_WHITE, {24: 15})
    plays = results(pos, "65")
    # 24/19 with the 6 played by the runner keeps 24-19 and locks all 15 black checkers
    assert "10/4 24/19" not in plays
    # the 6 played from inside the run breaks it, so those plays stay legal
    assert {"23/17 24/19", "24/13"} <= plays


def test_six_block_with_an_opposing_checker_ahead_is_legal() -> None:
    # MetinGames prime-rule "the first checker beyond the prime counts as ahead": black on
    # our 16 (his own 4) is past the block on his path.
    pos = long_pos(BLOCK_WHITE, {4: 1, 24: 14})
    assert "10/4 24/19" in results(pos, "65")


def test_checker_behind_the_block_does_not_count_as_ahead() -> None:
    # black on our 2 (his own 14) has not passed a block on our 24-19 (his 12-7)
    pos = long_pos(BLOCK_WHITE, {14: 1, 24: 14})
    assert "10/4 24/19" not in results(pos, "65")


def test_source_point_left_empty_does_not_count() -> None:
    # MetinGames prime-rule "the last checker leaving its source makes no false prime":
    # with one checker on 24, 24/19 leaves 23-19, five points.
    pos = long_pos({**BLOCK_WHITE, 24: 1, 3: 9}, {24: 15})
    assert "10/4 24/19" in results(pos, "65")


def test_block_judged_on_the_result_not_on_the_way() -> None:
    # Issue 3: a checker leaving a point during the play does not count toward the block.
    # 22/13 with 6-3 passes 19 (making 23-17, a block) or 16 (making 18-13, a block) and
    # leaves both gaps open at the end, so the play is legal.
    white = {23: 1, 22: 2, 21: 1, 20: 1, 18: 1, 17: 1, 15: 1, 14: 1, 13: 1, 3: 4}
    plays = results(long_pos(white, {24: 15}), "63")
    assert "22/13" in plays
    # stopping on 19 with the 6 played elsewhere leaves 23-17 standing
    assert "13/7 22/19" not in plays


def test_run_across_the_opponents_path_end_is_not_a_block() -> None:
    # MetinGames "black's window across the 24 -> 1 wrap": black's own 16-11 covers our
    # 4-1 and 24-23, which white never passes in a row, so no white checker is locked.
    black = {16: 1, 15: 1, 14: 1, 13: 1, 12: 1, 11: 1, 24: 9}
    pos = long_pos({20: 15}, black, turn=Side.BLACK)
    own, opp = pos.view(LONG, Side.BLACK)
    assert six_block_points(own, opp) == ()


def test_our_last_point_and_head_are_adjacent_for_the_opponent() -> None:
    # Black passes from our 1 (physical 1) straight to our 24: with spares on our 1, 24/13
    # leaves 1, 24, 23, 22, 21, 20 in a row on his path, all 15 black checkers behind.
    pos = long_pos({**BLOCK_WHITE, 3: 0, 1: 8}, {24: 15})
    assert "24/13" not in results(pos, "65")
    assert "24/13" in results(long_pos(BLOCK_WHITE, {24: 15}), "65")


# White holds 11, 10 (2), 9, 8, 7 - black's own 23-19 - and a runner on 20; 10/6 with the 4
# makes 11-6, in front of black's head. Readings (a) and (b) differ when a black checker is
# past the block but not yet home.
AB_WHITE = {11: 1, 10: 2, 9: 1, 8: 1, 7: 1, 20: 1, 3: 8}


@pytest.mark.parametrize(
    ("black", "legal_a", "legal_b"),
    [
        ({24: 15}, False, False),  # all behind, none home: illegal in both readings
        ({10: 1, 24: 14}, True, False),  # one ahead (his 10, our 22) but not home
        ({4: 1, 24: 14}, True, True),  # one ahead and home (his 4, our 16)
    ],
)
def test_readings_a_and_b(black: dict[int, int], legal_a: bool, legal_b: bool) -> None:
    pos = long_pos(AB_WHITE, black)
    assert ("10/6 20/14" in results(pos, "64")) is legal_a
    assert ("10/6 20/14" in results(pos, "64", settings=J_BLOCK)) is legal_b


def test_reading_b_allows_a_block_nobody_is_behind() -> None:
    # black's head empty, every black checker past white's 11-6: nobody is locked
    pos = long_pos(AB_WHITE, {4: 5, 5: 5, 17: 5})
    assert "10/6 20/14" in results(pos, "64", settings=J_BLOCK)


def test_illegal_six_block_names_points_in_both_numberings() -> None:
    pos = long_pos(BLOCK_WHITE, {24: 15})
    relaxed = {p.notation: p for p in legal_plays(pos, "65", "long", relax=Relax(six_block=True))}
    play = next(p for n, p in relaxed.items() if sorted(n.split()) == ["10/4", "24/19"])
    block = illegal_six_block(play.result, "long", Side.WHITE)
    assert block is not None
    assert block.own_points == (24, 23, 22, 21, 20, 19)
    assert block.physical_points == (24, 23, 22, 21, 20, 19)  # white: own = physical
    assert illegal_six_block(pos, "long", Side.WHITE) is None


def test_illegal_six_block_for_black_maps_to_physical() -> None:
    # black's own 24-19 is physical 12-7 (his head is physical 12)
    black = {24: 1, 23: 1, 22: 1, 21: 1, 20: 1, 19: 1, 3: 9}
    pos = long_pos({24: 15}, black, turn=Side.WHITE)
    block = illegal_six_block(pos, "long", Side.BLACK)
    assert block is not None
    assert block.own_points == (24, 23, 22, 21, 20, 19)
    assert block.physical_points == (12, 11, 10, 9, 8, 7)
    assert illegal_six_block(pos, "backgammon", Side.BLACK) is None


# --- bearing off (§2.3.7) -------------------------------------------------------------------


def test_bear_off_only_once_every_checker_is_home() -> None:
    # 4-3: the 3 cannot bear off from 3 while 7 is out; 7/3 first, then 3/off (or 7/4/off):
    # either way one checker is off and fourteen stay on 3.
    pos = long_pos({7: 1, 3: 14}, {24: 15})
    plays = legal_plays(pos, "43", "long")
    assert len(plays) == 1
    own, _ = plays[0].result.view(LONG, Side.WHITE)
    assert own[0] == 1 and own[3] == 14 and own[7] == 0


def test_higher_checker_must_move_before_a_larger_die_bears_off() -> None:
    # 5-5 with 6, 6, 1: both sixes must come down to 1 first (5 is empty, 6 is higher); the
    # last two fives then bear off from 1, now the highest point.
    pos = long_pos({6: 2, 1: 1}, {24: 15})
    plays = legal_plays(pos, "55", "long")
    assert len(plays) == 1
    own, _ = plays[0].result.view(LONG, Side.WHITE)
    assert own[1] == 1 and own[0] == 14


def test_larger_die_cannot_bear_off_a_lower_checker_while_a_higher_one_stands() -> None:
    # MetinGames core-rules: a checker further back blocks the larger-die bear-off
    pos = long_pos({2: 1, 1: 1}, {24: 15})
    assert results(pos, "33") == plays_set("2/off 1/off")  # no checker above: both go
    # 3-1 with 5 and 2: the 3 cannot take the checker on 2 (5 stands higher) and must move
    # 5/2 (then 2/1) or 4/1 after 5/4: either way the checkers end on 2 and 1, none off
    pos = long_pos({5: 1, 2: 1}, {24: 15})
    assert results(pos, "31") == plays_set("5/1")


@pytest.mark.parametrize(
    ("reading", "expected"),
    [
        # highest: the 6 only takes the checker on 5
        ("highest", plays_set("5/off 2/1", "5/off")),
        # [Q] "from any other point": the 6 may also take the checker on 2
        ("any", plays_set("5/off 2/1", "5/off", "5/4 2/off", "2/off")),
    ],
)
def test_oversize_bear_off_readings(reading: str, expected: set[str]) -> None:
    pos = long_pos({5: 1, 2: 1}, {24: 15})
    assert results(pos, "61", settings=RuleSettings(oversize_bear_off=reading)) == expected


# --- higher die first ([Q], §2.3.7) ---------------------------------------------------------


def test_higher_die_first_inside_the_home() -> None:
    pos = long_pos({6: 1, 4: 1, 1: 1}, {24: 15})
    # 2 then 5 would be 6/4, 4/off; 5 then 2 is 6/1 (6 stands above the empty 5), 4/2
    assert results(pos, "52") == plays_set("6/1 4/2", "6/off")
    assert results(pos, "52", settings=Q_ORDER) == plays_set("6/1 4/2")
    relaxed = legal_plays(pos, "52", "long", Q_ORDER, Relax(die_order=True))
    assert {"6/off"} <= {p.notation for p in relaxed}


def test_higher_die_first_q_example_last_checker_enters_with_the_larger() -> None:
    # [Q]: 5-2, the 5 brings the last checker home, then the 2 bears off
    pos = long_pos({7: 1, 2: 1, 1: 13}, {24: 15})
    assert results(pos, "52", settings=Q_ORDER) == plays_set("7/off")


def test_higher_die_first_yields_when_the_larger_cannot_go_first() -> None:
    # black on our 1 (his 13): the 5 cannot be played first (6/1 closed, 6 stands above 2)
    pos = long_pos({6: 1, 2: 1}, {13: 1, 24: 14})
    assert results(pos, "53") == plays_set("6/off")
    assert results(pos, "53", settings=Q_ORDER) == plays_set("6/off")


def test_higher_die_first_does_not_touch_ordinary_moves() -> None:
    pos = long_pos({20: 1, 18: 1, 1: 13}, {24: 15})
    assert results(pos, "52", settings=Q_ORDER) == results(pos, "52")
