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
from nardy_pi.rules.errors import TooManyPlaysError
from nardy_pi.rules.notation.xgid import parse_position
from nardy_pi.rules.position import Position
from nardy_pi.rules.variants import get_variant
from tests.rules.long.test_ladder_bounds import SPREAD, _random_ladder_play
from tests.rules.long.util import random_ladder_play

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


LEFT = (4, 4, 5, 5, 6, 6)  # the rest of a mad-gulbar ladder: over 5,000 plays from SPREAD


def test_left_over_ladder_movements_too_many_to_list_are_judged_by_their_board() -> None:
    from dataclasses import replace

    from nardy_pi.rules.movegen import legal_plays_for_movements

    v = get_variant("mad-gulbar")
    position, _ = parse_position(SPREAD, v)
    side = position.turn
    with pytest.raises(TooManyPlaysError):
        legal_plays_for_movements(position, LEFT, v, ordered=True, limit=5000)
    state = apply(start_match(MatchStarted("mad-gulbar", 0)), Correct.of(position))
    game = replace(state.game, phase=Phase.MOVE, turn=side, position=position, dice=None,
                   movements=LEFT, movements_in_order=True, plays=None,
                   next_turn=side.opponent)  # fmt: skip
    state = replace(state, game=game)
    after = random_ladder_play(position, LEFT, "mad-gulbar", seed=5)
    new = apply(state, _move(side, after))
    assert new.game.phase is Phase.ROLL and new.game.turn is side.opponent
    assert new.game.position.points == after.points
    own, opp = position.view(v)
    own[23] -= 1
    own[22] += 1
    with pytest.raises(IllegalEventError, match="not reachable"):
        apply(state, _move(side, Position.from_view(v, side, own, opp)))
