"""Play games through the engine with chosen dice and simple, rule-blind policies.

The policies only pick among the engine's legal plays; the tests decide the dice, so a
game's outcome (single, gammon, ...) is steered without touching the rules.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from nardy_pi.game.events import Move, OpeningRoll, Roll
from nardy_pi.game.match import Match
from nardy_pi.game.state import Phase
from nardy_pi.rules.play import Play
from nardy_pi.rules.sides import Side
from nardy_pi.rules.variants import get_variant

Policy = Callable[[Match, list[Play]], Play]


def fastest(match: Match, plays: list[Play]) -> Play:
    """The play leaving the fewest pips, without hitting when possible."""
    side = match.state.game.turn
    assert side is not None
    v = match.state.variant
    return min(plays, key=lambda p: (any(s.hit for s in p.steps),
                                     p.result.pip_count(v, side), p.notation))  # fmt: skip


def rear_first(match: Match, plays: list[Play]) -> Play:
    """Run the rearmost checkers first (brings stragglers out of the far quarter)."""
    side = match.state.game.turn
    assert side is not None
    v = get_variant(match.state.variant)

    def spread(p: Play) -> tuple[int, ...]:
        own, _ = p.result.view(v, side)
        return (sum(q * q * own[q] for q in range(26)), p.notation)  # type: ignore[return-value]

    return min(plays, key=spread)


def play_game(
    match: Match,
    winner: Side,
    winner_dice: tuple[int, int] = (6, 6),
    loser_dice: tuple[int, int] = (2, 1),
    loser_policy: Policy = fastest,
    opening: tuple[int, int] | None = None,
) -> None:
    """Play the current game to its end: `winner` throws `winner_dice` every turn."""
    start = match.state.results
    if match.state.game.phase is Phase.OPENING:
        w, b = opening or ((6, 1) if winner is Side.WHITE else (1, 6))
        match.apply(OpeningRoll(w, b))
    for _ in range(500):
        if len(match.state.results) > len(start) or match.state.over:
            return
        game = match.state.game
        side = game.turn
        assert side is not None
        if game.phase is Phase.ROLL:
            match.apply(Roll(side, winner_dice if side is winner else loser_dice))
        elif game.phase is Phase.MOVE:
            policy = fastest if side is winner else loser_policy
            match.apply(Move.of(side, policy(match, list(game.plays))))
        else:
            raise AssertionError(f"play_game cannot answer phase {game.phase}")
    raise AssertionError("game did not end")


def turns(match: Match, count: int, dice: Iterator[tuple[int, int]]) -> None:
    """Play `count` turns (roll + fastest play) with the given dice."""
    for _ in range(count):
        game = match.state.game
        side = game.turn
        assert side is not None and game.phase is Phase.ROLL
        match.apply(Roll(side, next(dice)))
        if match.state.game.phase is Phase.MOVE:
            match.apply(Move.of(side, fastest(match, list(match.state.game.plays))))
