"""The match state machine: turn order, refusals, openings, resignations, time, endings."""

from __future__ import annotations

from dataclasses import replace

import pytest

from nardy_pi.game.engine import replay
from nardy_pi.game.errors import IllegalEventError
from nardy_pi.game.events import (
    AcceptResign,
    Double,
    MatchStarted,
    Move,
    OpeningRoll,
    RejectResign,
    Resign,
    Roll,
    Take,
    Timeout,
    event_from_dict,
    event_from_json,
    event_to_dict,
    event_to_json,
)
from nardy_pi.game.match import Match
from nardy_pi.game.state import Phase
from nardy_pi.rules.movegen import legal_plays
from nardy_pi.rules.position import Position
from nardy_pi.rules.sides import Side
from tests.game.driver import fastest, play_game, rear_first

W, B = Side.WHITE, Side.BLACK


def with_position(m: Match, position: Position) -> None:
    """Put the current game on `position` (a test shortcut to an endgame)."""
    m.state = replace(m.state, game=replace(m.state.game, position=position))


def refused(m: Match, event: object, reason: str) -> None:
    before, count = m.state, len(m.events)
    with pytest.raises(IllegalEventError, match=reason):
        m.apply(event)  # type: ignore[arg-type]
    assert m.state is before and len(m.events) == count


def test_backgammon_opening_winner_plays_the_opening_dice() -> None:
    m = Match.new("backgammon")
    refused(m, Roll(W, (3, 1)), "phase opening")
    m.apply(OpeningRoll(2, 2))  # a tie is thrown again
    assert m.state.game.phase is Phase.OPENING
    m.apply(OpeningRoll(1, 3))
    game = m.state.game
    assert (game.phase, game.turn, game.dice, game.starter) == (Phase.MOVE, B, (3, 1), B)
    expected = legal_plays(Position.start("backgammon", B), (3, 1), "backgammon")
    assert {p.result.key() for p in game.plays} == {p.result.key() for p in expected}


def test_long_nardy_opening_winner_rolls_afresh() -> None:
    m = Match.new("long")
    m.apply(OpeningRoll(5, 2))
    assert (m.state.game.phase, m.state.game.turn) == (Phase.ROLL, W)
    m.apply(Roll(W, (6, 6)))
    assert m.state.game.phase is Phase.MOVE


def test_white_first_setting_skips_the_opening_roll() -> None:
    m = Match.new("long", settings={"opening": "white_first"})
    assert (m.state.game.phase, m.state.game.turn) == (Phase.ROLL, W)
    refused(m, OpeningRoll(1, 2), "phase rolling")


def test_opening_rule_can_be_forced_either_way() -> None:
    m = Match.new("backgammon", settings={"opening": "reroll"})
    m.apply(OpeningRoll(6, 1))
    assert m.state.game.phase is Phase.ROLL
    m2 = Match.new("long", settings={"opening": "play"})
    m2.apply(OpeningRoll(6, 1))
    assert (m2.state.game.phase, m2.state.game.dice) == (Phase.MOVE, (6, 1))


def test_illegal_events_change_nothing() -> None:
    m = Match.new("backgammon")
    m.apply(OpeningRoll(3, 1))
    refused(m, Roll(W, (3, 1)), "phase moving")
    refused(m, Move.of(B, m.state.game.plays[0]), "white's turn")
    # a board no play of 3-1 reaches: 24/20 is four pips
    bad = Position.start("backgammon")
    points = list(bad.points)
    points[23] -= 1
    points[15] += 1
    refused(m, Move(W, tuple(points), (0, 0), (0, 0), "24/16"), "illegal move")
    refused(m, OpeningRoll(3, 1), "phase moving")
    with pytest.raises(IllegalEventError):
        m.apply(Roll(W, (7, 1)))


def test_a_roll_with_no_legal_play_passes_the_turn() -> None:
    # black on the bar against a closed white board
    points = [0] * 24
    for p in range(1, 7):
        points[p - 1] = 2
    points[12] = 3
    points[23] = -14
    start = Position(tuple(points), (0, 1), (0, 0), B)
    m = Match.new("backgammon", settings={"opening": "reroll"})
    m.apply(OpeningRoll(1, 6))
    with_position(m, start)
    m.apply(Roll(B, (6, 5)))
    assert (m.state.game.phase, m.state.game.turn) == (Phase.ROLL, W)


def test_resignation_offer_accept_and_reject() -> None:
    m = Match.new("backgammon", 7)
    m.apply(OpeningRoll(3, 1))
    m.apply(Move.of(W, fastest(m, list(m.state.game.plays))))
    m.apply(Double(B))
    m.apply(Take(W))
    m.apply(Resign(B, 2))
    refused(m, AcceptResign(B), "opponent of the resigning player")
    m.apply(RejectResign(W))
    assert m.state.game.phase is Phase.ROLL and m.state.game.turn is B
    m.apply(Resign(B, 2))
    m.apply(AcceptResign(W))
    r = m.state.results[-1]
    assert (r.winner, r.result, r.points, r.cube) == (W, "resign", 4, 2)
    assert m.state.score == (4, 0)


def test_timeout_loses_only_with_the_rule() -> None:
    m = Match.new("long")
    m.apply(OpeningRoll(4, 2))
    refused(m, Timeout(W), "does not lose")
    m = Match.new("long", settings={"move_seconds": 90, "timeout_loses": True})
    m.apply(OpeningRoll(4, 2))
    refused(m, Timeout(B), "not the side to act")
    m.apply(Timeout(W))
    r = m.state.results[-1]
    assert (r.winner, r.result, r.points) == (B, "timeout", 1)


def test_long_nardy_mars_and_oin_through_play() -> None:
    m = Match.new("long", 0)
    play_game(m, W, winner_dice=(6, 6), loser_dice=(2, 1), opening=(6, 1))
    assert (m.state.results[-1].result, m.state.results[-1].points) == ("gammon", 2)
    play_game(m, W, winner_dice=(6, 6), loser_dice=(4, 4), opening=(6, 1),
              loser_policy=rear_first)  # fmt: skip
    assert (m.state.results[-1].result, m.state.results[-1].points) == ("single", 1)
    assert m.state.score == (3, 0) and m.state.money_won(W) == 3.0


def _long_endgame(white: int, black: int) -> Position:
    """Long nardy: white has `white` checkers on its 1-point, black `black` on its own 1
    (physical 13); the rest are borne off. White to move."""
    points = [0] * 24
    points[0] = white
    points[12] = -black
    return Position(tuple(points), (0, 0), (15 - white, 15 - black), W)


@pytest.mark.parametrize(("black_left", "expected"), [(2, (None, "draw", 0)),
                                                      (3, (W, "single", 1))])  # fmt: skip
def test_tournament_draw_gives_black_a_final_turn(black_left: int, expected: tuple) -> None:
    m = Match.new("long", 0, settings={"opening": "white_first", "tournament_draw": True})
    with_position(m, _long_endgame(2, black_left))
    m.apply(Roll(W, (6, 5)))
    m.apply(Move.of(W, m.state.game.plays[0]))  # white is off: black gets its final turn
    assert not m.state.results and (m.state.game.phase, m.state.game.turn) == (Phase.ROLL, B)
    refused(m, Double(B), "final turn")
    m.apply(Roll(B, (4, 3)))
    m.apply(Move.of(B, m.state.game.plays[0]))
    r = m.state.results[-1]
    assert (r.winner, r.result, r.points) == expected


def test_without_the_draw_rule_the_first_to_finish_wins_at_once() -> None:
    m = Match.new("long", 0, settings={"opening": "white_first"})
    with_position(m, _long_endgame(2, 2))
    m.apply(Roll(W, (6, 5)))
    m.apply(Move.of(W, m.state.game.plays[0]))
    assert m.state.results[-1].winner is W


def test_gulbar_double_earns_another_throw() -> None:
    m = Match.new("gulbar", settings={"opening": "white_first"})
    m.apply(Roll(W, (1, 1)))
    m.apply(Move.of(W, fastest(m, list(m.state.game.plays))))
    # all four movements played: white throws again
    assert (m.state.game.phase, m.state.game.turn) == (Phase.ROLL, W)
    m.apply(Roll(W, (3, 2)))
    m.apply(Move.of(W, fastest(m, list(m.state.game.plays))))
    assert m.state.game.turn is B


def test_events_round_trip_through_json_and_replay() -> None:
    m = Match.new("backgammon", 5, "Ann", "Bob", settings={"jacoby": False})
    play_game(m, W, winner_dice=(6, 6), loser_dice=(4, 4))
    for event in m.events:
        assert event_from_dict(event_to_dict(event)) == event
        assert event_from_json(event_to_json(event)) == event
    assert replay(m.events) == m.state
    with pytest.raises(ValueError):
        event_from_dict({"kind": "teleport"})


def test_a_log_must_start_with_the_match() -> None:
    with pytest.raises(IllegalEventError):
        replay([OpeningRoll(3, 1)])
    with pytest.raises(ValueError, match="unknown match setting"):
        replay([MatchStarted("backgammon", 0, settings={"cube_limt": 4})])


def test_match_over_refuses_everything() -> None:
    m = Match.new("backgammon", 1)
    play_game(m, W, winner_dice=(5, 5), loser_dice=(4, 4))
    assert m.state.over and m.state.winner is W
    refused(m, OpeningRoll(3, 1), "match is over")
