"""The worked 7-point match of DIGEST §2.1.10 ([M]), played through the engine."""

from __future__ import annotations

from nardy_pi.game.events import Double, Move, OpeningRoll, Pass, Roll, Take
from nardy_pi.game.match import Match
from nardy_pi.rules.sides import Side
from tests.game.driver import fastest, play_game

A, B = Side.WHITE, Side.BLACK


def _b_opens_and_both_play(m: Match) -> None:
    m.apply(OpeningRoll(1, 6))
    m.apply(Move.of(B, fastest(m, list(m.state.game.plays))))
    m.apply(Roll(A, (2, 1)))
    m.apply(Move.of(A, fastest(m, list(m.state.game.plays))))


def test_worked_seven_point_match() -> None:
    m = Match.new("backgammon", 7, "A", "B")

    # Game 1: A wins a gammon, no double -> 2 to A
    play_game(m, A, winner_dice=(6, 6), loser_dice=(4, 4))
    assert m.state.score == (2, 0)

    # Game 2: B doubles, A takes, B wins a gammon -> 2 x 2 = 4 to B
    _b_opens_and_both_play(m)
    m.apply(Double(B))
    m.apply(Take(A))
    play_game(m, B, winner_dice=(6, 6), loser_dice=(5, 4))
    assert m.state.score == (2, 4)

    # Game 3: B doubles, A passes -> 1 to B
    _b_opens_and_both_play(m)
    m.apply(Double(B))
    m.apply(Pass(A))
    assert m.state.score == (2, 5)

    # Game 4: A doubles, B takes, B wins a single game -> 2 to B
    m.apply(OpeningRoll(1, 6))
    m.apply(Move.of(B, fastest(m, list(m.state.game.plays))))
    m.apply(Double(A))
    m.apply(Take(B))
    play_game(m, B, winner_dice=(5, 5), loser_dice=(4, 4))
    assert m.state.score == (2, 7)

    results = [(r.winner, r.result, r.cube, r.points) for r in m.state.results]
    assert results == [
        (A, "gammon", 1, 2),
        (B, "gammon", 2, 4),
        (B, "drop", 1, 1),
        (B, "single", 2, 2),
    ]
    assert m.state.over and m.state.winner is B
    # nobody was ever on exactly 6, so no game was a Crawford game
    assert not m.state.crawford_done
    assert not any(r.crawford for r in m.state.results)
