"""XGID of every position of a match (for GNU Backgammon / eXtreme Gammon), or the
long-nardy short form `board:T` where no XGID exists (notation.md)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from nardy_pi.game.engine import apply, start_match
from nardy_pi.game.events import GameEvent, MatchStarted
from nardy_pi.game.state import MatchState, Phase
from nardy_pi.rules.notation.gnubg_id import (
    MAT_PLAYER,
    GameState,
    MatchId,
    encode_match_id,
    encode_position_id,
)
from nardy_pi.rules.notation.xgid import MAX_CUBE_LOG2, XgidRecord, format_short, format_xgid
from nardy_pi.rules.variants import get_variant

_ACTION = {"double": "D", "beaver": "B", "raccoon": "R"}


@dataclass(frozen=True, slots=True)
class PositionId:
    game: int
    event: int  # index in the log of the event that led here
    phase: str
    xgid: str


def _log2(value: int) -> int:
    return min(MAX_CUBE_LOG2, max(0, value.bit_length() - 1))


def xgid_of(state: MatchState) -> str:
    """The XGID (or long-nardy short form) of the match's current position."""
    game = state.game
    position = game.position if game.turn is None else game.position.with_turn(game.turn)
    if get_variant(state.variant).family != "backgammon":
        return format_short(position)
    cube = game.cube
    dice = game.dice if game.phase is Phase.MOVE and not game.movements else None
    action = _ACTION.get(cube.offer_kind or "") if game.phase is Phase.CUBE else None
    if action is not None and cube.offered_by is not None:
        position = position.with_turn(cube.offered_by)
    if state.money:
        rules = (1 if state.settings.jacoby else 0) | (2 if state.settings.beaver else 0)
    else:
        rules = 1 if game.crawford else 0
    score = state.score
    if state.match_length:  # XGID cannot show a finished match's score
        cap = state.match_length - 1
        score = (min(score[0], cap), min(score[1], cap))
    limit = state.settings.cube_limit
    record = XgidRecord(
        position,
        cube_log2=_log2(cube.value),
        cube_owner=cube.owner,
        dice=dice,
        cube_action=action,  # type: ignore[arg-type]
        score=score,
        rules=rules,
        match_length=state.match_length,
        max_cube_log2=_log2(limit) if limit else MAX_CUBE_LOG2,
    )
    return format_xgid(record)


def gnubg_id_of(state: MatchState) -> str:
    """`PositionID:MatchID` of the match's current position, as GNU Backgammon shows it for
    this match imported from our .mat (white, listed first, is gnubg's player 0); "" for the
    long family, which gnubg does not know."""
    game = state.game
    if get_variant(state.variant).family != "backgammon" or game.turn is None:
        return ""
    cube = game.cube
    offered = game.phase is Phase.CUBE and cube.offered_by is not None
    on_roll = cube.offered_by if offered and cube.offered_by is not None else game.turn
    dice = game.dice if game.phase is Phase.MOVE and not game.movements else None
    score = state.score
    if state.match_length:
        cap = state.match_length - 1
        score = (min(score[0], cap), min(score[1], cap))
    match = MatchId(
        cube_log2=_log2(cube.value), cube_owner=cube.owner, on_roll=on_roll,
        crawford=game.crawford, game_state=GameState.PLAYING,
        to_act=on_roll.opponent if offered else on_roll, double_offered=offered,
        dice=None if dice is None else (max(dice), min(dice)),
        match_length=state.match_length, score=score,
        jacoby=state.money and state.settings.jacoby,
    )
    position = game.position.with_turn(on_roll)
    return f"{encode_position_id(position)}:{encode_match_id(match, MAT_PLAYER)}"


def match_xgids(events: Sequence[GameEvent]) -> list[PositionId]:
    """One id per accepted event that leaves a game in progress."""
    start = events[0]
    assert isinstance(start, MatchStarted)
    state = start_match(start)
    out = []
    for index, event in enumerate(events[1:], start=1):
        state = apply(state, event)
        if state.game.phase in (Phase.ROLL, Phase.MOVE, Phase.CUBE):
            out.append(PositionId(state.game.number, index, state.game.phase.value, xgid_of(state)))
    return out
