"""Which play a `Move` makes, without ever listing every play of a huge roll.

A roll's legal plays are listed (for hints, the forced play and matching) only up to
`PLAY_LIST_LIMIT`; a ladder of doubles can have hundreds of thousands (crazy long nardy,
1-1: 236,858 from one position, 16 s of CPU to list). Past the limit `GameState.plays` is
None and a move is judged by a search aimed at the board it leaves, as the referee judges a
settled board: the cost then depends on that one board, not on the size of the tree.
"""

from __future__ import annotations

from nardy_pi.game.errors import IllegalEventError
from nardy_pi.game.events import Move
from nardy_pi.game.state import GameState, MatchState
from nardy_pi.rules.errors import RulesError, TooManyPlaysError
from nardy_pi.rules.inference import INFERENCE_PLAY_LIMIT, Inference, infer
from nardy_pi.rules.movegen import (
    PLAY_LIST_LIMIT,
    full_movements_exist,
    legal_plays,
    legal_plays_for_movements,
    movements_play_reaching,
)
from nardy_pi.rules.play import Play
from nardy_pi.rules.position import Position
from nardy_pi.rules.settings import RuleSettings
from nardy_pi.rules.variants import Variant, get_variant


def list_plays(
    position: Position, dice: tuple[int, int], v: Variant, rules: RuleSettings
) -> tuple[Play, ...] | None:
    """The legal plays of a roll, or None when there are more than `PLAY_LIST_LIMIT`."""
    try:
        return tuple(legal_plays(position, dice, v, rules, limit=PLAY_LIST_LIMIT))
    except TooManyPlaysError:
        return None


def list_movement_plays(
    position: Position, moves: tuple[int, ...], v: Variant, rules: RuleSettings, ordered: bool
) -> tuple[Play, ...] | None:
    """`list_plays` for the movements a gulbar opponent left (`legal_plays_for_movements`)."""
    try:
        return tuple(legal_plays_for_movements(position, moves, v, rules, ordered=ordered,
                                               limit=PLAY_LIST_LIMIT))  # fmt: skip
    except TooManyPlaysError:
        return None


def _key(position: Position) -> tuple[int, ...]:
    return (*position.points, *position.bar, *position.off)


def _after(event: Move) -> Position | None:
    try:
        return Position(tuple(event.points), tuple(event.bar), tuple(event.off), event.side)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None


def play_of(
    game: GameState, v: Variant, rules: RuleSettings, event: Move, ordered: bool = False
) -> Play:
    """The legal play `event` makes in `game` (phase MOVE), or IllegalEventError saying why.

    `ordered`: left-over movements are the rest of a ladder, played in order."""
    shown = f" ({event.play})" if event.play else ""
    if game.plays is not None:
        key = event.board_key()
        for play in game.plays:
            if _key(play.result) == key:
                return play
        return _refuse(game, v, rules, event, shown, None)
    after = _after(event)
    if after is None:
        raise IllegalEventError(f"the position after the move{shown} is not a board")
    if game.movements:
        play = movements_play(game.position, game.movements, v, rules, after, ordered)
        if play is None:
            raise IllegalEventError(
                f"the position after the move{shown} is not reachable by a legal play"
            )
        return play
    assert game.dice is not None
    result = _infer(game, v, rules, after)
    if result is not None and result.legal and result.play is not None:
        return result.play
    return _refuse(game, v, rules, event, shown, result)


def played(state: MatchState, event: Move) -> Play | None:
    """The play `event` makes from `state` (the match before it), or None if refused: for
    the records of accepted moves (the move list, the .mat export)."""
    game = state.game
    try:
        return play_of(game, get_variant(state.variant), state.settings.rules, event,
                       game.movements_in_order)  # fmt: skip
    except IllegalEventError:
        return None


def _infer(game: GameState, v: Variant, rules: RuleSettings, after: Position) -> Inference | None:
    assert game.dice is not None
    try:
        return infer(game.position, game.dice, after, v, rules)
    except (RulesError, ValueError):
        return None


def movements_play(
    position: Position, moves: tuple[int, ...], v: Variant, rules: RuleSettings,
    after: Position, ordered: bool,
) -> Play | None:
    """The legal play of a gulbar opponent's left-over movements reaching `after`, when
    there are too many to list: a full play aimed at `after`; only when none exists at all
    may a shorter one be legal (a smaller tree, listed with a bound)."""
    try:
        play = movements_play_reaching(position, moves, v, after, rules, ordered)
        if play is not None or full_movements_exist(position, moves, v, rules, ordered):
            return play
        plays = legal_plays_for_movements(position, moves, v, rules, ordered=ordered,
                                          limit=INFERENCE_PLAY_LIMIT)  # fmt: skip
    except (RulesError, ValueError):
        return None  # TooManyPlaysError included: refused rather than waited on
    key = _key(after)
    return next((p for p in plays if _key(p.result) == key), None)


def _refuse(
    game: GameState,
    v: Variant,
    rules: RuleSettings,
    event: Move,
    shown: str,
    result: Inference | None,
) -> Play:
    if game.dice is None or game.movements:
        raise IllegalEventError(
            f"the position after the move{shown} is not reachable by a legal play"
        )
    if result is None:
        after = _after(event)
        result = _infer(game, v, rules, after) if after is not None else None
    if result is not None and result.diagnosis is not None:
        raise IllegalEventError(f"illegal move{shown}: {result.diagnosis.message('en')}")
    raise IllegalEventError(
        f"illegal move{shown}: no legal play of {game.dice[0]}{game.dice[1]} leads there"
    )
