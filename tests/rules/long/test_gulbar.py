"""Gulbar, mad gulbar and crazy long nardy (DIGEST §2.4-2.6) on top of long nardy's rules."""

from __future__ import annotations

import pytest

from nardy_pi.rules.long_rules import earns_extra_throw, movement_sequence, unplayed_movements
from nardy_pi.rules.movegen import Relax, legal_plays, legal_plays_for_movements
from nardy_pi.rules.position import Position
from nardy_pi.rules.settings import DEFAULT_SETTINGS, RuleSettings
from nardy_pi.rules.sides import Side
from nardy_pi.rules.variants import get_variant
from tests.rules.long.util import long_pos, plays_set, results

FOUR_PER_DOUBLE = RuleSettings(ladder_moves_per_double=4)


def test_variants_are_long_family_data() -> None:
    for name in ("gulbar", "mad-gulbar", "crazy-long"):
        v = get_variant(name)
        assert v.family == "long" and v.head == 24 and not v.hitting and v.six_block
    assert get_variant("gul-bara").name == "gulbar"
    assert get_variant("mad_gulbar").name == "mad-gulbar"
    assert get_variant("mad-gulbar").unplayed_to_opponent
    assert not get_variant("crazy-long").unplayed_to_opponent
    assert Position.start("gulbar") == Position.start("long")


# --- gulbar home rules (§2.4 items 3-4) ------------------------------------------------------


def test_no_movement_inside_the_home() -> None:
    pos = long_pos({6: 2, 3: 1}, {24: 15})
    assert results(pos, "21", "long")  # long nardy moves inside the home
    # gulbar: nothing stands on 2 or 1, and home checkers may not move: the roll passes
    assert legal_plays(pos, "21", "gulbar") == []
    assert unplayed_movements("gulbar", (2, 1), ()) == (2, 1)
    relaxed = legal_plays(pos, "21", "gulbar", relax=Relax(gulbar_home=True))
    assert {p.notation for p in relaxed} == {p.notation for p in legal_plays(pos, "21", "long")}


def test_bear_off_only_from_the_rolled_points() -> None:
    # [B]: 5-3 -> only from point 5 and point 3
    pos = long_pos({6: 1, 5: 1, 3: 1}, {24: 15})
    assert results(pos, "53", "gulbar") == plays_set("5/off 3/off")
    assert len(results(pos, "53", "long")) > 1


def test_no_bear_off_with_a_larger_die() -> None:
    pos = long_pos({3: 1, 2: 1}, {24: 15})
    assert results(pos, "65", "long") == plays_set("3/off 2/off")
    assert legal_plays(pos, "65", "gulbar") == []


def test_combined_move_may_not_continue_inside_the_home() -> None:
    # 8/5/3 would move on from 5, where the checker entered; 8/6/3 likewise from 6. Only one
    # die can be played, so the larger: 8/5. The 2 is left for the opponent.
    pos = long_pos({8: 1, 1: 14}, {24: 15})
    plays = legal_plays(pos, "32", "gulbar")
    assert {p.notation for p in plays} == {"8/5"}
    assert unplayed_movements("gulbar", (3, 2), plays[0].dice_used) == (2,)


def test_double_in_the_home_bears_off_four_from_its_point() -> None:
    # [B]: 2-2 -> four checkers from point 2, and all four played earn another throw
    pos = long_pos({2: 4, 1: 1}, {24: 15})
    plays = legal_plays(pos, "22", "gulbar")
    assert [p.notation for p in plays] == ["2/off(4)"]
    assert earns_extra_throw("gulbar", (2, 2), plays[0].dice_used)


def test_extra_throw_only_when_every_movement_was_played_by_default() -> None:
    pos = long_pos({2: 3, 4: 1}, {24: 15})
    plays = legal_plays(pos, "22", "gulbar")
    # the fourth 2 would move 4/2 inside the home
    assert [p.notation for p in plays] == ["2/off(3)"]
    used = plays[0].dice_used
    assert unplayed_movements("gulbar", (2, 2), used) == (2,)
    assert not earns_extra_throw("gulbar", (2, 2), used)
    assert earns_extra_throw("gulbar", (2, 2), used, RuleSettings(gulbar_extra_throw="always"))


def test_no_extra_throw_outside_the_gulbar_family_or_without_a_double() -> None:
    assert not earns_extra_throw("long", (3, 3), (3, 3, 3, 3))
    assert not earns_extra_throw("gulbar", (6, 5), (6, 5))
    assert not earns_extra_throw("crazy-long", (3, 3), (3, 3, 4, 4, 5, 5, 6, 6))


def test_unplayed_movements_pass_to_the_opponent() -> None:
    # white could play neither 2 nor 1; black plays them with his own checkers
    pos = long_pos({6: 2, 3: 1}, {24: 15})
    left = unplayed_movements("gulbar", (2, 1), ())
    black_to_play = pos.with_turn(Side.BLACK)
    plays = legal_plays_for_movements(black_to_play, left, "gulbar")
    assert {p.notation for p in plays} == {"24/21"}


def test_unplayed_movements_rejects_dice_not_in_the_roll() -> None:
    with pytest.raises(ValueError, match="not among"):
        unplayed_movements("gulbar", (2, 1), (3,))
    with pytest.raises(ValueError, match="1-6"):
        legal_plays_for_movements(Position.start("gulbar"), (7,), "gulbar")


# --- mad gulbar's ladder of doubles (§2.5, §4 item 29) ---------------------------------------


@pytest.mark.parametrize(
    ("variant", "roll", "settings", "expected"),
    [
        ("mad-gulbar", (4, 4), DEFAULT_SETTINGS, (4, 4, 5, 5, 6, 6)),  # [B]'s example
        ("mad-gulbar", (6, 6), DEFAULT_SETTINGS, (6, 6)),
        ("mad-gulbar", (5, 2), DEFAULT_SETTINGS, (5, 2)),
        ("mad-gulbar", (5, 5), FOUR_PER_DOUBLE, (5, 5, 5, 5, 6, 6, 6, 6)),
        ("crazy-long", (1, 1), DEFAULT_SETTINGS, (1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6)),
        ("gulbar", (4, 4), DEFAULT_SETTINGS, (4, 4, 4, 4)),
        ("long", (4, 4), FOUR_PER_DOUBLE, (4, 4, 4, 4)),
    ],
)
def test_movement_sequence(variant, roll, settings, expected) -> None:
    assert movement_sequence(get_variant(variant), roll, settings) == expected


def test_ladder_bears_off_from_each_point_in_turn() -> None:
    # [B]: 2-2 in the home takes checkers from 2, "then from points 3, 4, 5 and 6"
    pos = long_pos({2: 2, 3: 2, 4: 2, 5: 2, 6: 2}, {24: 15})
    expected = plays_set("2/off(2) 3/off(2) 4/off(2) 5/off(2) 6/off(2)")
    assert results(pos, "22", "mad-gulbar") == expected
    pos = long_pos({2: 4, 3: 4, 4: 4, 5: 3}, {24: 15})
    plays = legal_plays(pos, "22", "mad-gulbar", FOUR_PER_DOUBLE)
    assert len(plays) == 1 and plays[0].result.off[0] == 15


def test_ladder_is_climbed_in_order() -> None:
    # black on our 6 closes 10/6: the first 4 cannot be played, so nothing of the ladder is
    # (the 5s would be: 10/5), and all of it passes to the opponent
    pos = long_pos({10: 1, 1: 14}, {18: 1, 24: 14})
    assert legal_plays(pos, "44", "mad-gulbar") == []
    assert unplayed_movements("mad-gulbar", (4, 4), ()) == (4, 4, 5, 5, 6, 6)
    assert legal_plays(pos, "55", "mad-gulbar")


def test_ladder_rest_is_the_suffix() -> None:
    assert unplayed_movements("mad-gulbar", (4, 4), (4, 4, 5)) == (5, 6, 6)


def test_opponent_plays_the_rest_of_a_ladder_in_order() -> None:
    plays = legal_plays_for_movements(
        Position.start("mad-gulbar", turn=Side.BLACK), (5, 5, 6, 6), "mad-gulbar", ordered=True
    )
    assert {p.notation for p in plays} == {"24/2"}


def test_crazy_long_keeps_long_nardy_home_rules() -> None:
    pos = long_pos({6: 2, 3: 1}, {24: 15})
    assert results(pos, "21", "crazy-long") == results(pos, "21", "long")
    # and its doubles are a ladder: 5-5 then 6-6, all 22 pips played from the start
    plays = legal_plays(Position.start("crazy-long"), "55", "crazy-long")
    assert plays and all(p.dice_used == (5, 5, 6, 6) for p in plays)
