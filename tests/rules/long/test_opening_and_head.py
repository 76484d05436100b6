"""The head rule of long nardy (DIGEST §2.3.5) and every worked opening example of [L]/[O].

Own numbering here is descending (head = own 24, home = own 1-6); DIGEST §2.3.1 counts up
from the head, so its point p is our 25 - p: [O]'s "1 -> 7" is our 24/18.
"""

from __future__ import annotations

import pytest

from nardy_pi.rules.movegen import legal_plays
from nardy_pi.rules.position import Position
from nardy_pi.rules.settings import RuleSettings
from nardy_pi.rules.sides import Side
from tests.rules.long.util import long_pos, plays_set, results

ALL_ROLLS = [f"{a}{b}" for a in range(6, 0, -1) for b in range(a, 0, -1)]


def head_departures(play) -> int:
    return sum(1 for s in play.steps if s.src == 24)


# --- the first mover: [O]'s worked examples -------------------------------------------------


@pytest.mark.parametrize(
    ("dice", "expected"),
    [
        # 6-6: two checkers 1 -> 7; the other two sixes would land on the opponent's head.
        ("66", {"24/18(2)"}),
        # 5-5: one checker 1 -> 6 -> 11 -> 16 -> 21 (the source misprints 16 as 12).
        ("55", {"24/4"}),
        # 4-4: two checkers, each 1 -> 5 -> 9 (one alone would stop before 13).
        ("44", {"24/16(2)"}),
        # 3-3: one checker 1 -> 10 and one 1 -> 4 ([O]); two to 7 is the same number of pips
        # and also plays the roll in full with two from the head.
        ("33", plays_set("24/21 24/15", "24/18(2)")),
        # 6-3: one checker 1 -> 10.
        ("63", {"24/15"}),
    ],
)
@pytest.mark.parametrize("side", [Side.WHITE, Side.BLACK])
def test_first_move_worked_examples(dice: str, expected: set[str], side: Side) -> None:
    assert results(Position.start("long", turn=side), dice) == expected


@pytest.mark.parametrize("dice", [r for r in ALL_ROLLS if r not in ("66", "44", "33")])
def test_first_mover_takes_one_checker_from_the_head_otherwise(dice: str) -> None:
    # [L]/[O]: only 6-6, 4-4 and 3-3 need a second head checker for the first mover.
    plays = legal_plays(Position.start("long"), dice, "long")
    assert plays
    assert all(head_departures(p) == 1 for p in plays)


# --- the second mover: [L] ------------------------------------------------------------------


def second_mover_rolls_taking_two(first_roll: str) -> set[str]:
    """Second-mover rolls that take two from the head after any play of `first_roll`."""
    rolls: set[str] = set()
    for first in legal_plays(Position.start("long"), first_roll, "long"):
        for roll in ALL_ROLLS:
            if any(head_departures(p) == 2 for p in legal_plays(first.result, roll, "long")):
                rolls.add(roll)
    return rolls


@pytest.mark.parametrize(
    ("first_roll", "extra"),
    [
        # [L]: after 2-1, 6-2 or 5-5 the second mover may also take two with 5-5 and 6-2.
        # 2-1 leaves white on black's own 9 and 6-2 on his own 4: 5-5's path 24-19-14-9-4.
        ("21", {"55"}),
        ("62", {"55"}),
        # 5-5 leaves white on black's own 16, where both ways of 6-2 land (and 5-3, and
        # 2-2's fourth step: the same principle, though [L] does not list them).
        ("55", {"62", "53", "22"}),
        # Not in [L]'s list, same principle: 5-3, 4-4 and 2-2 also reach black's own 4.
        ("53", {"55"}),
        ("44", {"55"}),
        ("22", {"55"}),
        # The ordinary opening rolls that stop elsewhere leave only the doubles of [O].
        ("65", set()),
        ("41", set()),
        ("11", set()),
    ],
)
def test_second_mover_extra_head_checker(first_roll: str, extra: set[str]) -> None:
    assert second_mover_rolls_taking_two(first_roll) == {"66", "44", "33"} | extra


def test_second_mover_55_after_21_moves_two_checkers() -> None:
    after_21 = legal_plays(Position.start("long"), "21", "long")[0].result
    assert after_21.turn is Side.BLACK
    # one checker stops at 14 (9 is white's); two checkers to 14 play all four fives
    assert results(after_21, "55") == {"24/14(2)"}


def test_second_mover_62_after_55_moves_two_checkers() -> None:
    after_55 = legal_plays(Position.start("long"), "55", "long")[0].result
    assert results(after_55, "62") == plays_set("24/18 24/22")


# --- [O]'s pictured 6-5 (§2.3.6) -------------------------------------------------------------


def test_o_pictured_65_cannot_leave_the_head() -> None:
    # Reconstructed: black's head is blocked for 6 and 5 (white on [O]'s holes 6 and 7, our
    # 19 and 18); white also holds our 15 and 9 so that [O]'s play is the only one.
    pos = long_pos(
        {7: 1, 6: 1, 3: 1, 21: 1, 24: 11},  # white: black's own 19, 18, 15, 9 and white's head
        {24: 13, 20: 1, 7: 1},
        turn=Side.BLACK,
    )
    # [O]: 5 -> 11 (the 6) and 18 -> 23 (the 5), i.e. our 20/14 7/2
    assert results(pos, "65") == plays_set("20/14 7/2")


# --- later turns -----------------------------------------------------------------------------


def test_later_turn_double_takes_one_checker_from_the_head() -> None:
    pos = long_pos({24: 14, 18: 1}, {24: 14, 20: 1})
    plays = legal_plays(pos, "66", "long")
    assert plays and all(head_departures(p) <= 1 for p in plays)
    # 24/18 and 18/12 is impossible (12 is black's head): the head checker goes 24/18, the
    # checker on 18 cannot move past black's head, so one six is all.
    assert results(pos, "66") == {"24/18"}


def test_later_turn_44_moves_one_head_checker_only() -> None:
    pos = long_pos({24: 14, 20: 1}, {24: 14, 20: 1})
    # Each checker can get to 16 at most (12 is black's head): the one head checker takes
    # two fours, the checker on 20 one; the fourth four is lost.
    assert results(pos, "44") == plays_set("24/16 20/16")


# --- the other readings (§4 item 13) ---------------------------------------------------------


def test_reading_j_two_from_the_head_with_66_on_any_turn() -> None:
    pos = long_pos({24: 14, 18: 1}, {24: 14, 20: 1})
    j = RuleSettings(head_exception="doubles_any_turn")
    assert results(pos, "66", settings=j) == {"24/18(2)"}
    # 5-5 is not among [J]'s doubles
    assert all(head_departures(p) <= 1 for p in legal_plays(pos, "55", "long", j))


def test_reading_f_small_doubles_on_the_first_turn() -> None:
    f = RuleSettings(head_exception="first_turn_small_doubles")
    start = Position.start("long")
    # 6-6 gets no exception: one checker to 18 and the rest is lost
    assert results(start, "66", settings=f) == {"24/18"}
    # 5-5 may take two (it need not)
    assert {"24/4", "24/14(2)"} <= results(start, "55", settings=f)


def test_reading_none_never_takes_two() -> None:
    none = RuleSettings(head_exception="none")
    assert results(Position.start("long"), "44", settings=none) == {"24/16"}
    assert results(Position.start("long"), "33", settings=none) == {"24/15"}
