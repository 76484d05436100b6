"""Move inference and its diagnoses, one case per diagnosis, with positions written out."""

from __future__ import annotations

import pytest

from nardy_pi.rules.inference import explain_move_text, infer
from nardy_pi.rules.messages import MESSAGES, render
from nardy_pi.rules.position import Position
from nardy_pi.rules.sides import Side
from tests.rules.helpers import make


def moved(position: Position, *moves: tuple[int, int]) -> Position:
    """`position` with single checkers moved between physical points (any colour)."""
    points = list(position.points)
    for src, dst in moves:
        sign = 1 if points[src - 1] > 0 else -1
        points[src - 1] -= sign
        points[dst - 1] += sign
    return Position(tuple(points), position.bar, position.off, position.turn)


def code(before: Position, dice: str, after: Position, variant: str = "backgammon") -> str:
    result = infer(before, dice, after, variant)
    assert result.diagnosis is not None, f"expected illegal, got {result.play}"
    return result.diagnosis.code


START = Position.start()


def test_legal_play_is_found_with_its_notation() -> None:
    after = moved(START, (24, 18), (18, 13))
    result = infer(START, "65", after, "backgammon")
    assert result.legal and result.play is not None
    assert result.play.notation == "24/13"
    assert result.equivalents == ("24/18 18/13",)  # 19 is black's 6-point: closed


def test_turn_of_the_observed_position_is_ignored() -> None:
    after = moved(START, (13, 7), (13, 8)).with_turn(Side.WHITE)
    assert infer(START, "65", after, "backgammon").legal


def test_several_readings_of_one_play_are_reported() -> None:
    # From the start, 3-2 ending on the 3-point: one checker 8/5/3, or 8/6 and one of the
    # checkers already on 6 going on 6/3. The camera cannot tell them apart.
    after = moved(START, (8, 3))
    result = infer(START, "32", after, "backgammon")
    assert result.legal and result.ambiguous
    assert result.play is not None and result.play.notation == "8/3"
    assert set(result.equivalents) == {"8/5 5/3", "8/6 6/3"}


def test_checker_count_changed() -> None:
    points = list(START.points)
    points[5] -= 1  # a white checker vanished from the 6-point
    assert code(START, "65", Position(tuple(points))) == "checker_count"


def test_nothing_moved_although_the_roll_plays() -> None:
    assert code(START, "65", START) == "no_move"


def test_a_pass_when_nothing_can_move() -> None:
    pos = make({24: 1, 1: 14}, {18: 2, 19: 2, 2: 11})
    assert infer(pos, "65", pos, "backgammon").passed


def test_wrong_side_moved() -> None:
    after = moved(START, (1, 7), (1, 12))  # black's back checkers ran with white to move
    assert code(START, "65", after) == "wrong_side"


def test_opponent_checkers_disturbed() -> None:
    after = moved(START, (24, 13), (12, 11))
    assert code(START, "65", after) == "opponent_disturbed"


def test_checker_left_on_the_bar() -> None:
    pos = make({13: 14}, {24: 15}, bar=(1, 0))
    after = moved(pos, (13, 7), (13, 8))
    assert code(pos, "65", after) == "bar_not_entered"


def test_passing_a_closed_point() -> None:
    pos = make({24: 2, 6: 13}, {18: 2, 19: 2, 1: 11})
    after = moved(pos, (24, 13))
    diagnosis = infer(pos, "65", after, "backgammon").diagnosis
    assert diagnosis is not None and diagnosis.code == "passed_closed_point"
    assert diagnosis.params["point"] in (18, 19)


def test_die_left_unused() -> None:
    after = moved(START, (13, 7))
    diagnosis = infer(START, "65", after, "backgammon").diagnosis
    assert diagnosis is not None and diagnosis.code == "die_unused"
    assert diagnosis.params["unused"] == "5"


def test_smaller_die_played_when_the_larger_was_required() -> None:
    pos = make({12: 1, 2: 14}, {1: 2, 19: 13})
    after = moved(pos, (12, 7))
    assert code(pos, "65", after) == "smaller_die"


def test_wrong_distance() -> None:
    after = moved(START, (13, 10), (13, 9))
    diagnosis = infer(START, "65", after, "backgammon").diagnosis
    assert diagnosis is not None and diagnosis.code == "wrong_distance"
    assert diagnosis.params["moved"] == 7


def test_hit_and_hide_in_caucasian() -> None:
    pos = make({8: 2, 4: 2, 13: 11}, {5: 1, 24: 14})
    points = list(pos.points)
    points[7] -= 1  # 8/5*/4: the hitter hides on the 4-point
    points[4] = 0
    points[3] += 1
    after = Position(tuple(points), (0, 1), pos.off, pos.turn)
    assert infer(pos, "31", after, "backgammon").legal
    assert code(pos, "31", after, "caucasian") == "hit_and_hide"


def test_two_checkers_from_the_head_in_long_nardy() -> None:
    # After the first turn only one checker may leave the head.
    pos = make({24: 14, 15: 1}, {12: 15}, turn=Side.WHITE, variant="long")
    after = moved(pos, (24, 19), (24, 21))
    assert code(pos, "53", after, "long") == "two_from_head"


def test_six_block_in_long_nardy() -> None:
    # White holds 11..7 and brings 14/6: six points in a row in front of black's head
    # (physical 12, black moves 12 -> 1) with every black checker still behind them.
    pos = make({24: 9, 14: 1, 11: 1, 10: 1, 9: 1, 8: 1, 7: 1}, {12: 15}, variant="long")
    after = moved(pos, (14, 6))
    diagnosis = infer(pos, "62", after, "long").diagnosis
    assert diagnosis is not None and diagnosis.code == "six_block"
    assert diagnosis.message("en").startswith("six points in a row")


def test_every_message_exists_in_both_languages_and_renders() -> None:
    for key, table in MESSAGES.items():
        assert set(table) == {"en", "ru"}, key
        assert table["en"] != table["ru"]
    text = render("landed_on_closed_point", {"step": "13/9", "holder": "white"}, "ru")
    assert "13/9" in text and "белые" in text


# --- move text (records) --------------------------------------------------------------------


def test_text_landing_on_a_closed_point_is_named() -> None:
    # Black to move; white holds black's 9-point (physical 16).
    pos = make({16: 2, 6: 13}, {12: 5, 1: 10}, turn=Side.BLACK)
    diagnosis = explain_move_text(pos, "64", "13/7 13/9", "backgammon")
    assert diagnosis is not None
    assert diagnosis.message("en") == "13/9 lands on a point held by white"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("5/1 13/7", "no_checker"),
        ("24/13", "step_distance"),
        ("13/7", "die_unused"),
        ("24/18 24/20", None),
    ],
)
def test_text_diagnoses(text: str, expected: str | None) -> None:
    pos = Position.start(turn=Side.BLACK)
    diagnosis = explain_move_text(pos, "64", text, "backgammon")
    assert (diagnosis.code if diagnosis else None) == expected
