"""Hints for the point LEDs: where a lifted checker may go (the referee reports that as
`MoveProgress`), and on request the best play (GNU Backgammon's net via the optional
`gnubg-nn` package, backgammon family) or every legal destination (long nardy, or no engine).

Points here are physical (board-frame.md), with 25 = the mover's bar and 0 = borne off.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Literal

from nardy_pi.rules.movegen import legal_plays
from nardy_pi.rules.play import Play
from nardy_pi.rules.position import BAR, OFF, Position
from nardy_pi.rules.settings import DEFAULT_SETTINGS, RuleSettings
from nardy_pi.rules.variants import Variant, get_variant

log = logging.getLogger(__name__)

# gnubg's net knows standard backgammon; these share its board and moves (DIGEST §2.1).
ENGINE_VARIANTS = frozenset({"backgammon", "nackgammon"})


@dataclass(frozen=True, slots=True)
class Hint:
    kind: Literal["best", "all", "none"]
    sources: tuple[int, ...]  # physical points checkers leave
    destinations: tuple[int, ...]  # physical points checkers reach
    notation: str = ""


def physical(variant: Variant, white: bool, own_point: int) -> int:
    return own_point if own_point in (BAR, OFF) else variant.own_to_physical(white, own_point)


def _play_points(play: Play, variant: Variant, white: bool) -> tuple[set[int], set[int]]:
    return (
        {physical(variant, white, s.src) for s in play.steps},
        {physical(variant, white, s.dst) for s in play.steps},
    )


def all_destinations(
    position: Position,
    dice: tuple[int, int],
    variant: str | Variant,
    settings: RuleSettings = DEFAULT_SETTINGS,
) -> Hint:
    v = get_variant(variant)
    plays = legal_plays(position, dice, v, settings)
    if not plays:
        return Hint("none", (), ())
    white = position.turn == 0
    sources: set[int] = set()
    dests: set[int] = set()
    for play in plays:
        s, d = _play_points(play, v, white)
        sources |= s
        dests |= d
    return Hint("all", tuple(sorted(sources)), tuple(sorted(dests)))


def _gnubg_board(position: Position, v: Variant) -> list[list[int]]:
    """gnubg's board: [side not on roll, side on roll], own points 1..24 then the bar."""
    mover, _ = position.view(v, position.turn)
    other, _ = position.view(v, position.turn.opponent)
    return [other[1:26], mover[1:26]]


def best_play(
    position: Position,
    dice: tuple[int, int],
    variant: str | Variant,
    settings: RuleSettings = DEFAULT_SETTINGS,
) -> Play | None:
    """gnubg's choice among our legal plays; None without the engine or for other variants."""
    v = get_variant(variant)
    if v.name not in ENGINE_VARIANTS:
        return None
    try:
        import gnubg_nn  # optional extra, heavy: only when a hint is asked for
    except ImportError:
        return None
    plays = legal_plays(position, dice, v, settings)
    if not plays:
        return None
    try:
        _moves, key = gnubg_nn.best_move(_gnubg_board(position, v), dice[0], dice[1], b=1)
        mover, other = gnubg_nn.boardfromkey(key)  # best_move gives the mover first
    except Exception as exc:  # the engine is advice only: never let it break the game
        log.warning("gnubg best move failed: %s", exc)
        return None
    # gnubg's board after the move, in the mover's own numbering (index 0..23 = points 1..24).
    own = [v.checkers - sum(mover), *mover[:24], mover[24]]
    opp = [0] * 26
    opp[OFF] = v.checkers - sum(other)
    opp[BAR] = other[24]
    for q in range(1, 25):  # the opponent's own point q is our own point 25 - q
        opp[25 - q] = other[q - 1]
    for play in plays:
        if play.result.view(v, position.turn) == (own, opp):
            return play
    return None


def hint(
    position: Position,
    dice: tuple[int, int],
    variant: str | Variant,
    settings: RuleSettings = DEFAULT_SETTINGS,
    use_engine: bool = True,
) -> Hint:
    """The best play when the engine can say, otherwise every legal destination."""
    v = get_variant(variant)
    if use_engine:
        play = best_play(position, dice, v, settings)
        if play is not None:
            src, dst = _play_points(play, v, position.turn == 0)
            return Hint("best", tuple(sorted(src)), tuple(sorted(dst)), play.notation)
    return all_destinations(position, dice, v, settings)
