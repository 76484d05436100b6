"""Hints for the point LEDs: where a lifted checker may go (the referee reports that as
`MoveProgress`), and on request the best play (an evaluation engine, `nardy_pi.evaluation`,
backgammon family) or every legal destination (long nardy, or no engine).

Points here are physical (board-frame.md), with 25 = the mover's bar and 0 = borne off.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Literal

from nardy_pi.evaluation import ENGINE_VARIANTS, Evaluator, engine_best_play
from nardy_pi.rules.errors import TooManyPlaysError
from nardy_pi.rules.long_rules import movement_sequence
from nardy_pi.rules.movegen import (
    PLAY_LIST_LIMIT,
    Relax,
    legal_plays,
    legal_plays_for_movements,
)
from nardy_pi.rules.play import Play
from nardy_pi.rules.position import BAR, OFF, Position
from nardy_pi.rules.settings import DEFAULT_SETTINGS, RuleSettings
from nardy_pi.rules.variants import Variant, get_variant

log = logging.getLogger(__name__)
MID_PLAY = Relax(six_block=True)


@dataclass(frozen=True, slots=True)
class Hint:
    #: "first": too many plays to list (a ladder of doubles): where the first movement goes
    kind: Literal["best", "all", "first", "none"]
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
    kind: Literal["all", "first"] = "all"
    try:
        plays = legal_plays(position, dice, v, settings, limit=PLAY_LIST_LIMIT)
    except TooManyPlaysError:  # never wait on a huge ladder: light its first movement
        kind = "first"
        first = movement_sequence(v, dice, settings)[:1]
        # A six-block is judged on a whole play's result, never on a step on the way.
        plays = legal_plays_for_movements(position, first, v, settings, MID_PLAY)
    if not plays:
        return Hint("none", (), ())
    white = position.turn == 0
    sources: set[int] = set()
    dests: set[int] = set()
    for play in plays:
        s, d = _play_points(play, v, white)
        sources |= s
        dests |= d
    return Hint(kind, tuple(sorted(sources)), tuple(sorted(dests)))


def play_points(play: Play, variant: str | Variant, side: int) -> tuple[tuple[int, ...],
                                                                       tuple[int, ...]]:
    """(sources, destinations) of one play, physical, for the point LEDs."""
    src, dst = _play_points(play, get_variant(variant), side == 0)
    return tuple(sorted(src)), tuple(sorted(dst))


def hint(
    position: Position,
    dice: tuple[int, int],
    variant: str | Variant,
    settings: RuleSettings = DEFAULT_SETTINGS,
    evaluator: Evaluator | None = None,
) -> Hint:
    """The best play when an evaluation engine can say, otherwise every legal destination."""
    v = get_variant(variant)
    if evaluator is not None and v.name in ENGINE_VARIANTS:
        plays = legal_plays(position, dice, v, settings, limit=PLAY_LIST_LIMIT)
        play = engine_best_play(evaluator, position, dice, v.name, settings, plays)
        if play is not None:
            src, dst = _play_points(play, v, position.turn == 0)
            return Hint("best", tuple(sorted(src)), tuple(sorted(dst)), play.notation)
    return all_destinations(position, dice, v, settings)
