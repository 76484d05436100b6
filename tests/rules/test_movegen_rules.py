"""One test per rule of DIGEST §1.4-1.6 and §2.1-2.2, with positions written out.

White moves 24 -> 1 in physical numbering; black's own point p is physical 25 - p.
"""

from __future__ import annotations

import pytest

from nardy_pi.rules.movegen import legal_plays, parse_dice
from nardy_pi.rules.position import Position
from nardy_pi.rules.settings import RuleSettings
from nardy_pi.rules.sides import Side
from tests.rules.helpers import make, notations

# --- the opening ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("dice", "count"),
    # Distinct resulting positions from the backgammon start, counted by hand from the rules
    # (6-5: 24/13, 24/18 13/8, 24/18 8/3, 13/8 13/7, 13/7 8/3, 13/2, 8/3 8/2).
    [("65", 7), ("56", 7)],
)
def test_opening_six_five(dice: str, count: int) -> None:
    plays = notations(Position.start(), dice)
    assert len(plays) == count
    assert "24/13" in plays and "13/2" in plays
    assert "24/18 6/1" not in plays  # black holds white's 1-point


def test_black_moves_in_its_own_numbering() -> None:
    start = Position.start(turn=Side.BLACK)
    plays = legal_plays(start, "65", "backgammon")
    assert {p.notation for p in plays} == notations(Position.start(), "65")
    run = next(p for p in plays if p.notation == "24/13")
    # Black's 24-point is physical 1, its 13-point physical 12.
    assert run.result.points[0] == -1 and run.result.points[11] == -6
    assert run.result.turn is Side.WHITE


# --- full die values, intermediate points ---------------------------------------------------


def test_combined_move_needs_an_open_intermediate_point() -> None:
    # White's lone checker on 24; black made points on 18 and 19: neither 6 nor 5 first.
    pos = make({24: 1, 6: 14}, {18: 2, 19: 2, 1: 11})
    plays = notations(pos, "65")
    assert not any(p.startswith("24/") for p in plays)


def test_combined_move_with_one_intermediate_open() -> None:
    pos = make({24: 1, 6: 14}, {18: 2, 1: 13})
    assert "24/13" in notations(pos, "65")  # via 19 (the 5 first)


def test_die_cannot_be_split_or_shortened() -> None:
    pos = make({24: 1, 1: 14}, {2: 15})
    plays = legal_plays(pos, "65", "backgammon")
    assert {p.notation for p in plays} == {"24/13"}
    assert sorted(plays[0].dice_used) == [5, 6]


# --- hitting and the bar --------------------------------------------------------------------


def test_hit_sends_blot_to_bar() -> None:
    pos = make({13: 15}, {10: 1, 24: 14})
    play = next(p for p in legal_plays(pos, "31", "backgammon") if p.notation == "13/12 13/10*")
    assert play.result.bar == (0, 1)
    assert play.result.points[9] == 1


def test_hit_on_intermediate_point_is_shown() -> None:
    pos = make({13: 15}, {10: 1, 24: 14})
    assert "13/10*/9" in notations(pos, "31")


def test_bar_first() -> None:
    pos = make({13: 14}, {24: 15}, bar=(1, 0))
    # Black holds white's 24 (the 1 cannot enter): the 3 enters first, then the 1 is free.
    assert notations(pos, "31") == {"bar/21", "bar/22 13/12"}


def test_entering_against_a_closed_board_is_a_pass() -> None:
    pos = make({13: 14}, {19: 3, 20: 2, 21: 2, 22: 2, 23: 3, 24: 3}, bar=(1, 0))
    for dice in ("66", "61", "21", "55"):
        assert legal_plays(pos, dice, "backgammon") == []


def test_entering_against_a_five_point_board() -> None:
    # Only white's 22 (black's 3-point) is open: a 3 enters, then the other die is played.
    pos = make({13: 14}, {19: 3, 20: 2, 21: 2, 23: 3, 24: 5}, bar=(1, 0))
    assert legal_plays(pos, "56", "backgammon") == []
    plays = notations(pos, "35")
    assert plays == {"bar/22 13/8", "bar/17"}


def test_two_on_the_bar_enter_as_many_as_possible() -> None:
    pos = make({13: 13}, {19: 3, 20: 2, 21: 2, 23: 3, 24: 5}, bar=(2, 0))
    # Only the 3 enters: one checker comes in and the other stays; the 5 is lost.
    assert notations(pos, "35") == {"bar/22"}
    # A double 3: both enter, then the two remaining 3s are played by anyone.
    plays = legal_plays(pos, "33", "backgammon")
    assert all(len(p.steps) == 4 for p in plays)
    assert all(p.steps[0].src == 25 and p.steps[1].src == 25 for p in plays)


def test_two_on_the_bar_both_enter_then_nothing_else() -> None:
    pos = make({13: 13}, {24: 15}, bar=(2, 0))
    assert notations(pos, "64") == {"bar/21 bar/19"}


# --- forced-move rules ----------------------------------------------------------------------


def test_both_dice_must_be_used_when_possible() -> None:
    # 24/18 alone would leave the 5 unused although 24/13 plays both.
    pos = make({24: 1, 1: 14}, {2: 15})
    assert notations(pos, "65") == {"24/13"}


def test_larger_die_when_only_one_can_be_played() -> None:
    # One movable white checker on 12; black holds 1 so nothing follows either die, and the
    # checkers on 2 may not bear off while 12 (or 7) is outside or a higher checker remains.
    pos = make({12: 1, 2: 14}, {1: 2, 19: 13})
    assert notations(pos, "65") == {"12/6"}


def test_smaller_die_when_the_larger_cannot_be_played() -> None:
    pos = make({12: 1, 2: 14}, {1: 2, 6: 2, 19: 11})
    assert notations(pos, "65") == {"12/7"}


def test_partial_doubles() -> None:
    # 6-6, one checker on 24, black holds 12: 24/18 is all; the checkers on 1 cannot bear
    # off while 18 is outside home.
    pos = make({24: 1, 1: 14}, {12: 2, 2: 13})
    assert notations(pos, "66") == {"24/18"}


def test_no_legal_play_is_an_empty_list() -> None:
    pos = make({24: 1, 1: 14}, {18: 2, 19: 2, 2: 11})
    assert legal_plays(pos, "65", "backgammon") == []


# --- bearing off ----------------------------------------------------------------------------


def test_bear_off_exact_point() -> None:
    pos = make({6: 1, 3: 1}, {24: 15})
    assert "6/off 3/off" in notations(pos, "63")


def test_larger_die_bears_off_from_highest_only_when_nothing_higher() -> None:
    pos = make({5: 1, 2: 1}, {24: 15})
    plays = notations(pos, "61")
    assert "5/off 2/1" in plays and "5/4 2/off" not in plays
    # A 5 may not take the checker on 3 while one stands on 6: it must move 6/1.
    # Checkers on 6 and 3, roll 5-4: neither die may take the 3 while the 6 stands higher.
    # 6/1 (5) leaves 3 highest, so the 4 bears it off; 6/2 (4) leaves 3 highest for the 5.
    pos = make({6: 1, 3: 1}, {24: 15})
    assert notations(pos, "54") == {"6/1 3/off", "6/2 3/off"}


def test_bear_off_suspended_while_a_checker_is_outside() -> None:
    pos = make({7: 1, 5: 14}, {24: 15})
    plays = notations(pos, "61")
    # 7/1 brings the last checker home; only then may the 1 bear off.
    assert "7/1 1/off" not in plays  # the same checker: written 7/off
    assert "7/off" in plays
    assert "5/off" not in " ".join(plays)


def test_bear_off_suspended_while_a_checker_is_on_the_bar() -> None:
    pos = make({5: 14}, {24: 15}, bar=(1, 0))
    # Black holds white's 24, so the 6 enters first; nothing may bear off with one on the bar.
    assert notations(pos, "61") == {"bar/18", "bar/19 5/4"}


def test_hit_during_bear_off_must_come_around() -> None:
    pos = make({3: 14}, {24: 14, 10: 1}, bar=(1, 0))
    assert not any("off" in p for p in notations(pos, "33"))


# --- Caucasian hit-and-hide (§2.2) ----------------------------------------------------------


CAUCASIAN_POS = make({8: 2, 4: 2, 13: 11}, {5: 1, 24: 14})


def test_hit_and_hide_allowed_in_backgammon() -> None:
    assert "8/5*/4" in notations(CAUCASIAN_POS, "31")


def test_hit_and_hide_forbidden_in_caucasian() -> None:
    plays = notations(CAUCASIAN_POS, "31", "caucasian")
    assert "8/5*/4" not in plays
    assert "8/5* 5/4" not in plays
    # Covering the hitter with another checker and moving on to an empty point are allowed.
    assert "8/7 8/5*" in plays
    assert "8/5*" in {p.split()[0] for p in plays}


def test_caucasian_hitter_may_move_on_to_an_empty_point() -> None:
    pos = make({8: 2, 13: 13}, {5: 1, 24: 14})
    assert "8/5*/4" in notations(pos, "31", "caucasian")


def test_caucasian_hitter_borne_off_only_when_forced() -> None:
    # All white home; 3-2. Hitting on 2 from 5 then bearing that checker off is possible, but
    # other plays exist, so by default it is not allowed; "allowed" lets it through.
    pos = make({5: 1, 4: 6, 3: 6}, {2: 1, 24: 14})
    strict = notations(pos, "32", "caucasian")
    assert strict and not any("5/2*/off" in p for p in strict)
    allowed = RuleSettings(hit_and_hide_bear_off="allowed")
    loose = notations(pos, "32", "caucasian", settings=allowed)
    assert any("5/2*/off" in p for p in loose)


def test_caucasian_hitter_borne_off_when_it_is_the_only_play() -> None:
    pos = make({5: 1}, {2: 1, 3: 2, 24: 12})
    assert notations(pos, "32", "caucasian") == {"5/2*/off"}
    prison = RuleSettings(hit_and_hide_bear_off="forbidden")
    assert notations(pos, "32", "caucasian", settings=prison) == {"5/2*"}


# --- dice parsing ---------------------------------------------------------------------------


@pytest.mark.parametrize("bad", ["7", "70", "a1", "123", "", (1,), (0, 3), (3, 7), (True, 2)])
def test_bad_dice_are_refused_with_a_reason(bad: object) -> None:
    with pytest.raises(ValueError, match=r"die|dice|roll"):
        parse_dice(bad)  # type: ignore[arg-type]
