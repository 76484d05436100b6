"""The doubling cube through the engine (DIGEST §2.1.8-2.1.9, §4 items 1-6)."""

from __future__ import annotations

import pytest

from nardy_pi.game.errors import IllegalEventError
from nardy_pi.game.events import Beaver, Double, Move, OpeningRoll, Pass, Raccoon, Roll, Take
from nardy_pi.game.match import Match
from nardy_pi.game.state import Phase
from nardy_pi.rules.sides import Side
from tests.game.driver import fastest, play_game

W, B = Side.WHITE, Side.BLACK


def black_to_roll(length: int = 0, **settings: object) -> Match:
    """White won the opening 3-1 and played; black is to roll."""
    m = Match.new("backgammon", length, settings=dict(settings))
    m.apply(OpeningRoll(3, 1))
    m.apply(Move.of(W, fastest(m, list(m.state.game.plays))))
    assert m.state.game.phase is Phase.ROLL and m.state.game.turn is B
    return m


def refused(m: Match, event: object, reason: str) -> None:
    before = m.state
    with pytest.raises(IllegalEventError, match=reason):
        m.apply(event)  # type: ignore[arg-type]
    assert m.state is before and m.events[-1] is not event


def test_double_take_gives_the_cube_to_the_taker() -> None:
    m = black_to_roll()
    m.apply(Double(B))
    assert m.state.game.phase is Phase.CUBE and m.state.game.cube.offered == 2
    refused(m, Take(B), "cannot answer their own double")
    m.apply(Take(W))
    cube = m.state.game.cube
    assert (cube.value, cube.owner, m.state.game.turn) == (2, W, B)
    # black must now roll; the cube is white's
    refused(m, Double(B), "white owns the cube")


def test_only_the_owner_redoubles_and_a_refused_redouble_costs_the_value_before() -> None:
    m = black_to_roll()
    m.apply(Double(B))
    m.apply(Take(W))
    m.apply(Roll(B, (2, 1)))
    m.apply(Move.of(B, fastest(m, list(m.state.game.plays))))
    m.apply(Double(W))  # the owner redoubles to 4
    assert m.state.game.cube.offered == 4
    m.apply(Pass(B))
    r = m.state.results[-1]
    assert (r.winner, r.result, r.points) == (W, "drop", 2)


def test_refusal_cost_initial_reading() -> None:
    m = black_to_roll(refusal_cost="initial")
    m.apply(Double(B))
    m.apply(Take(W))
    m.apply(Roll(B, (2, 1)))
    m.apply(Move.of(B, fastest(m, list(m.state.game.plays))))
    m.apply(Double(W))
    m.apply(Pass(B))
    assert m.state.results[-1].points == 1  # [B]: the stake agreed at the start


def test_cube_limit_64_by_default_and_configurable() -> None:
    m = black_to_roll()
    side = B
    for value in (2, 4, 8, 16, 32, 64):
        m.apply(Double(side))
        m.apply(Take(side.opponent))
        assert m.state.game.cube.value == value
        # the taker owns it; let the doubler roll and play, then the owner is to roll
        m.apply(Roll(side, (2, 1)))
        if m.state.game.phase is Phase.MOVE:
            m.apply(Move.of(side, fastest(m, list(m.state.game.plays))))
        side = side.opponent
    refused(m, Double(side), "limit of 64")
    m2 = black_to_roll(cube_limit=2)
    m2.apply(Double(B))
    m2.apply(Take(W))
    m2.apply(Roll(B, (2, 1)))
    m2.apply(Move.of(B, fastest(m2, list(m2.state.game.plays))))
    refused(m2, Double(W), "limit of 2")


def test_arithmetic_progression() -> None:
    m = black_to_roll(progression="arithmetic")
    m.apply(Double(B))
    m.apply(Take(W))
    m.apply(Roll(B, (2, 1)))
    m.apply(Move.of(B, fastest(m, list(m.state.game.plays))))
    m.apply(Double(W))
    assert m.state.game.cube.offered == 3


def test_beaver_and_raccoon_keep_the_cube_with_the_beaverer() -> None:
    m = black_to_roll(beaver=True, raccoon=True)
    m.apply(Double(B))
    refused(m, Raccoon(B), "answers a beaver")
    m.apply(Beaver(W))
    assert (m.state.game.cube.value, m.state.game.cube.offered) == (2, 4)
    m.apply(Raccoon(B))
    assert m.state.game.cube.offered == 8
    m.apply(Take(W))
    cube = m.state.game.cube
    assert (cube.value, cube.owner, m.state.game.turn, m.state.game.phase) == (8, W, B, Phase.ROLL)


def test_refused_beaver_costs_the_doubled_stake() -> None:
    m = black_to_roll(beaver=True)
    m.apply(Double(B))
    m.apply(Beaver(W))
    m.apply(Pass(B))
    r = m.state.results[-1]
    assert (r.winner, r.points) == (W, 2)  # [E]: the already doubled stake


def test_no_beavers_in_match_play_or_without_the_setting() -> None:
    m = black_to_roll(7, beaver=True)
    m.apply(Double(B))
    refused(m, Beaver(W), "no beavers in match play")
    m2 = black_to_roll()
    m2.apply(Double(B))
    refused(m2, Beaver(W), "not allowed")


def test_counter_double_in_long_nardy_tournaments() -> None:
    # [J]: the doubled player may answer x4 and then holds the next doubling right
    m = Match.new("long", 7, settings={"beaver": True, "beaver_in_matches": True})
    m.apply(OpeningRoll(6, 1))
    m.apply(Roll(W, (3, 1)))
    m.apply(Move.of(W, fastest(m, list(m.state.game.plays))))
    m.apply(Double(B))
    m.apply(Beaver(W))
    m.apply(Take(B))
    cube = m.state.game.cube
    assert (cube.value, cube.owner, m.state.game.turn) == (4, W, B)


def test_automatic_doubles_on_opening_ties_are_capped_and_money_only() -> None:
    m = Match.new("backgammon", 0, settings={"auto_doubles": 2})
    for _ in range(3):
        m.apply(OpeningRoll(4, 4))
    cube = m.state.game.cube
    assert (cube.value, cube.owner, cube.auto_doubles) == (4, None, 2)
    m.apply(OpeningRoll(4, 2))
    assert m.state.game.phase is Phase.MOVE and m.state.game.cube.value == 4
    match = Match.new("backgammon", 7, settings={"auto_doubles": 2})
    match.apply(OpeningRoll(4, 4))
    assert match.state.game.cube.value == 1


def test_jacoby_counts_gammons_single_unless_the_cube_was_turned() -> None:
    m = Match.new("backgammon", 0, settings={"jacoby": True})
    play_game(m, W, winner_dice=(6, 6), loser_dice=(4, 4))
    r = m.state.results[-1]
    assert (r.result, r.points) == ("gammon", 1)
    plain = Match.new("backgammon", 0)
    play_game(plain, W, winner_dice=(6, 6), loser_dice=(4, 4))
    assert plain.state.results[-1].points == 2


def test_crawford_game_has_no_doubling_and_post_crawford_has() -> None:
    m = Match.new("backgammon", 3)
    play_game(m, W, winner_dice=(6, 6), loser_dice=(4, 4))  # gammon: 2-0, white at N-1
    assert m.state.score == (2, 0) and m.state.game.crawford
    play_game(m, B, winner_dice=(6, 6), loser_dice=(5, 4), opening=(1, 6))
    assert m.state.results[-1].crawford
    m.apply(OpeningRoll(6, 1))
    m.apply(Move.of(W, fastest(m, list(m.state.game.plays))))
    assert not m.state.game.crawford
    m.apply(Double(B))  # post-Crawford: doubling is back


def test_crawford_game_refuses_a_double() -> None:
    m = Match.new("backgammon", 3)
    play_game(m, W, winner_dice=(6, 6), loser_dice=(4, 4))
    m.apply(OpeningRoll(6, 1))
    m.apply(Move.of(W, fastest(m, list(m.state.game.plays))))
    refused(m, Double(B), "Crawford game")


def test_crawford_scope_trailer_only_blocks_the_trailer() -> None:
    m = Match.new("backgammon", 3, settings={"crawford_scope": "trailer"})
    play_game(m, W, winner_dice=(6, 6), loser_dice=(4, 4))
    m.apply(OpeningRoll(1, 6))
    m.apply(Move.of(B, fastest(m, list(m.state.game.plays))))
    m.apply(Double(W))  # the leader (one point short) may, [D]
    m.apply(Take(B))
    m.apply(Roll(W, (2, 1)))
    m.apply(Move.of(W, fastest(m, list(m.state.game.plays))))
    refused(m, Double(B), "Crawford game")


def test_holland_rule_blocks_the_trailer_early_in_post_crawford_games() -> None:
    m = Match.new("backgammon", 3, settings={"holland": True})
    play_game(m, W, winner_dice=(6, 6), loser_dice=(4, 4))  # 2-0, Crawford next
    play_game(m, W, winner_dice=(5, 5), loser_dice=(4, 4))  # white single in the Crawford
    # white now has 3 -> the match is over; use a longer match instead
    assert m.state.over
    m = Match.new("backgammon", 5, settings={"holland": True})
    play_game(m, W, winner_dice=(6, 6), loser_dice=(4, 4))  # 2-0
    play_game(m, W, winner_dice=(6, 6), loser_dice=(4, 4))  # 4-0: Crawford next
    play_game(m, B, winner_dice=(5, 5), loser_dice=(4, 4), opening=(1, 6))  # 4-1
    assert m.state.results[-1].crawford
    m.apply(OpeningRoll(6, 1))  # post-Crawford game; black trails
    m.apply(Move.of(W, fastest(m, list(m.state.game.plays))))
    refused(m, Double(B), "Holland")
    for dice in ((2, 1), (2, 1), (2, 1)):
        side = m.state.game.turn
        assert side is not None
        m.apply(Roll(side, dice))
        m.apply(Move.of(side, fastest(m, list(m.state.game.plays))))
    assert m.state.game.turn is W and m.state.game.turns_played == (2, 2)
    m.apply(Roll(W, (2, 1)))
    m.apply(Move.of(W, fastest(m, list(m.state.game.plays))))
    m.apply(Double(B))  # both sides have played two rolls


def test_cube_can_be_switched_off() -> None:
    m = black_to_roll(cube=False)
    refused(m, Double(B), "not used")
