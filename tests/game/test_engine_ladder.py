"""The match engine on a ladder of doubles too big to list (crazy long nardy, 1-1 from a
spread position: 236,858 plays): it never lists them, it judges the board a move leaves by
a search aimed at it, takes a legal move and refuses an illegal one with the rule broken.
Timings are in bench/bench_rules.py (engine figures), never asserted here."""

from __future__ import annotations

import pytest

from nardy_pi.game.engine import apply, start_match
from nardy_pi.game.errors import IllegalEventError
from nardy_pi.game.events import Correct, MatchStarted, Move
from nardy_pi.game.plays import played
from nardy_pi.game.state import MatchState, Phase
from nardy_pi.records.mat_export import export_mat
from nardy_pi.rules.notation.xgid import parse_position
from nardy_pi.rules.position import Position
from nardy_pi.rules.variants import get_variant
from tests.rules.long.test_ladder_bounds import SPREAD, _random_ladder_play

V = get_variant("crazy-long")


def _at_spread() -> tuple[MatchState, Position, list]:
    position, _ = parse_position(SPREAD, V)
    start = MatchStarted("crazy-long", 0)
    correct = Correct.of(position, (1, 1))
    return apply(start_match(start), correct), position, [start, correct]


def _move(side, after: Position, text: str = "") -> Move:
    return Move(side, after.points, after.bar, after.off, text)


def test_a_huge_ladder_is_not_listed_and_a_legal_move_is_taken() -> None:
    state, position, log = _at_spread()
    assert state.game.phase is Phase.MOVE and state.game.plays is None  # too many to list
    after = _random_ladder_play(position, (1, 1))
    move = _move(position.turn, after)
    play = played(state, move)
    assert play is not None and len(play.steps) == 12
    new = apply(state, move)
    assert new.game.phase is Phase.ROLL and new.game.turn is position.turn.opponent
    assert new.game.position.points == after.points
    mat = export_mat([*log, move])  # the record spells the twelve steps out
    assert mat.count("/") >= 12


def test_an_illegal_board_on_a_huge_ladder_is_refused_with_the_rule() -> None:
    state, position, _ = _at_spread()
    side = position.turn
    with pytest.raises(IllegalEventError, match="no checker moved"):
        apply(state, _move(side, position))
    own, opp = position.view(V)
    own[23] -= 1
    own[22] += 1  # one checker one pip: 1-1's ladder is twelve movements
    short = Position.from_view(V, side, own, opp)
    with pytest.raises(IllegalEventError, match="illegal move"):
        apply(state, _move(side, short))
    assert state.game.plays is None  # refusals leave the state as it was


def test_small_rolls_are_still_listed_for_hints_and_the_forced_play() -> None:
    state, position, _ = _at_spread()
    plain = apply(start_match(MatchStarted("crazy-long", 0)), Correct.of(position, (6, 5)))
    assert plain.game.plays is not None and len(plain.game.plays) > 1
    assert state.game.plays is None
