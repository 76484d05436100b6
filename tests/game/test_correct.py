"""A hand correction of the record: applied with checks, logged as JSON, skipped in .mat."""

from __future__ import annotations

import pytest

from nardy_pi.game import events as ge
from nardy_pi.game.errors import IllegalEventError
from nardy_pi.game.match import Match
from nardy_pi.game.state import Phase
from nardy_pi.records.mat_export import export_mat, steps_text
from nardy_pi.rules.movegen import legal_plays
from nardy_pi.rules.position import Position
from nardy_pi.rules.sides import Side


def opened() -> Match:
    match = Match.new("backgammon", 3)
    match.apply(ge.OpeningRoll(3, 1))
    return match


def test_correction_sets_position_turn_and_dice() -> None:
    match = opened()
    board = Position.start(turn=Side.BLACK)
    match.apply(ge.Correct.of(board, (6, 5)))
    game = match.state.game
    assert game.phase is Phase.MOVE and game.turn is Side.BLACK and game.dice == (6, 5)
    assert game.position.points == board.points
    play = legal_plays(board, (6, 5), "backgammon")[0]
    match.apply(ge.Move.of(Side.BLACK, play))  # the next play is judged from the new board
    assert match.state.game.turn is Side.WHITE


def test_impossible_corrections_are_refused_and_change_nothing() -> None:
    match = opened()
    before = match.state
    points = list(Position.start().points)
    points[5] -= 1  # a white checker vanished
    with pytest.raises(IllegalEventError, match="white has 14 checkers"):
        match.apply(ge.Correct(Side.WHITE, tuple(points), (0, 0), (0, 0)))
    with pytest.raises(IllegalEventError, match="die"):
        match.apply(ge.Correct.of(Position.start(), (7, 1)))
    assert match.state == before


def test_correction_round_trips_through_json_and_mat_export() -> None:
    event = ge.Correct.of(Position.start(turn=Side.BLACK), (6, 5))
    assert ge.event_from_json(ge.event_to_json(event)) == event
    match = opened()
    match.apply(event)
    play = legal_plays(Position.start(turn=Side.BLACK), (6, 5), "backgammon")[0]
    match.apply(ge.Move.of(Side.BLACK, play))
    text = export_mat(match.events)
    # The correction itself has no .mat form; black's play after it is recorded as usual.
    assert f"65: {steps_text(play)}" in text
