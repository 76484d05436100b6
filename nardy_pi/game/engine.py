"""The match state machine: `apply(state, event) -> state`, refusing illegal events.

Every rule of play comes from the rules core (legal plays, gulbar's left-over movements and
extra throws, win types); this module only sequences turns, the cube and the score. A refused
event raises `IllegalEventError` and leaves the caller's state untouched (states are values).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from nardy_pi.game import cube as cube_rules
from nardy_pi.game.cube import CubeContext
from nardy_pi.game.errors import IllegalEventError
from nardy_pi.game.events import (
    AcceptResign,
    Beaver,
    Correct,
    Double,
    GameEvent,
    MatchStarted,
    Move,
    OpeningRoll,
    Pass,
    Raccoon,
    RejectResign,
    Resign,
    Roll,
    Take,
    Timeout,
)
from nardy_pi.game.plays import list_movement_plays, list_plays, play_of
from nardy_pi.game.settings import MatchSettings
from nardy_pi.game.state import GameResult, GameState, MatchState, Phase
from nardy_pi.rules.long_rules import earns_extra_throw, is_ladder, unplayed_movements
from nardy_pi.rules.movegen import parse_dice
from nardy_pi.rules.play import Play
from nardy_pi.rules.position import Position, problems
from nardy_pi.rules.results import WinType, win_points
from nardy_pi.rules.sides import Side
from nardy_pi.rules.variants import Variant, get_variant

_RESIGN_TYPES = {1: WinType.SINGLE, 2: WinType.GAMMON, 3: WinType.BACKGAMMON}


# --- starting -----------------------------------------------------------------------------
def start_match(event: MatchStarted) -> MatchState:
    """The state after `MatchStarted`; raises ValueError on a bad variant or setting."""
    if not isinstance(event, MatchStarted):
        raise IllegalEventError("refusal.not_started")
    v = get_variant(event.variant)
    if not isinstance(event.match_length, int) or event.match_length < 0:
        raise IllegalEventError("match length must be a whole number >= 0 (0 = money)")
    settings = MatchSettings.from_dict(event.settings, v.family)
    game = _new_game(v, settings, 1, crawford=False)
    return MatchState(
        variant=v.name,
        match_length=event.match_length,
        players=(event.white, event.black),
        settings=settings,
        game=game,
        events=1,
    )


def _opening_rule(v: Variant, settings: MatchSettings) -> str:
    if settings.opening == "auto":
        return "play" if v.family == "backgammon" else "reroll"
    return settings.opening


def _new_game(v: Variant, settings: MatchSettings, number: int, crawford: bool) -> GameState:
    position = Position.start(v, Side.WHITE)
    if _opening_rule(v, settings) == "white_first":
        return GameState(number, position, Phase.ROLL, Side.WHITE, crawford=crawford,
                         starter=Side.WHITE)  # fmt: skip
    return GameState(number, position, Phase.OPENING, crawford=crawford)


def replay(events: Iterable[GameEvent]) -> MatchState:
    """Rebuild a match from its log; raises IllegalEventError at the first bad event."""
    it = iter(events)
    try:
        first = next(it)
    except StopIteration:
        raise IllegalEventError("an empty log holds no match") from None
    state = start_match(first)  # type: ignore[arg-type]
    for event in it:
        state = apply(state, event)
    return state


# --- the dispatcher -----------------------------------------------------------------------
def apply(state: MatchState, event: GameEvent) -> MatchState:
    """The state after `event`, or IllegalEventError with the reason."""
    if state.over:
        raise IllegalEventError("refusal.match_over")
    handler = _HANDLERS.get(type(event))
    if handler is None:
        raise IllegalEventError(f"{getattr(event, 'kind', event)!r} cannot happen during a match")
    new = handler(state, event)
    return replace(new, events=state.events + 1)


def _expect(game: GameState, *phases: Phase) -> None:
    if game.phase not in phases:
        wanted = " or ".join(p.value for p in phases)
        raise IllegalEventError("refusal.wrong_phase", phase=game.phase.value, wanted=wanted)


def _expect_turn(game: GameState, side: Side) -> None:
    if side is not game.turn:
        other = game.turn.label if game.turn is not None else "nobody"
        raise IllegalEventError("refusal.wrong_turn", turn=other, side=side.label)


def _variant(state: MatchState) -> Variant:
    return get_variant(state.variant)


def _on_opening(state: MatchState, event: OpeningRoll) -> MatchState:
    game = state.game
    _expect(game, Phase.OPENING)
    for die in (event.white_die, event.black_die):
        if not isinstance(die, int) or not 1 <= die <= 6:
            raise IllegalEventError(f"a die shows 1-6, got {die!r}")
    if event.white_die == event.black_die:
        cube = cube_rules.automatic_double(game.cube, state.settings, state.money)
        return replace(state, game=replace(game, cube=cube))
    winner = Side.WHITE if event.white_die > event.black_die else Side.BLACK
    game = replace(game, starter=winner)
    if _opening_rule(_variant(state), state.settings) == "play":
        own = event.white_die if winner is Side.WHITE else event.black_die
        other = event.black_die if winner is Side.WHITE else event.white_die
        return _begin_move(state, game, winner, (own, other))
    return replace(state, game=replace(game, phase=Phase.ROLL, turn=winner))


def _on_roll(state: MatchState, event: Roll) -> MatchState:
    game = state.game
    _expect(game, Phase.ROLL)
    _expect_turn(game, event.side)
    try:
        dice = parse_dice(event.dice)
    except ValueError as exc:
        raise IllegalEventError(str(exc)) from None
    return _begin_move(state, game, event.side, dice)


def _begin_move(
    state: MatchState, game: GameState, side: Side, dice: tuple[int, int]
) -> MatchState:
    position = game.position.with_turn(side)
    plays = list_plays(position, dice, _variant(state), state.settings.rules)  # None: too many
    game = replace(game, position=position, turn=side, dice=dice, movements=(),
                   movements_in_order=False)  # fmt: skip
    if plays == ():  # a legal pass ("dance")
        return _after_play(state, game, side, None)
    return replace(state, game=replace(game, phase=Phase.MOVE, plays=plays))


def _on_move(state: MatchState, event: Move) -> MatchState:
    game = state.game
    _expect(game, Phase.MOVE)
    _expect_turn(game, event.side)
    play = play_of(game, _variant(state), state.settings.rules, event, game.movements_in_order)
    return _after_play(state, game, event.side, play)


def _on_correct(state: MatchState, event: Correct) -> MatchState:
    game = state.game
    _expect(game, Phase.OPENING, Phase.ROLL, Phase.MOVE)
    try:
        position = event.position()
    except (TypeError, ValueError) as exc:
        raise IllegalEventError(f"a corrected position must be a board: {exc}") from None
    found = problems(position, state.variant)
    if found:
        raise IllegalEventError("refusal.bad_position", problems="; ".join(found))
    game = replace(game, position=position, turn=event.side, movements=(),
                   movements_in_order=False, plays=())  # fmt: skip
    if event.dice is None:
        return replace(state, game=replace(game, phase=Phase.ROLL, dice=None))
    try:
        dice = parse_dice(event.dice)
    except ValueError as exc:
        raise IllegalEventError(str(exc)) from None
    return _begin_move(state, game, event.side, dice)


def _after_play(
    state: MatchState, game: GameState, side: Side, play: Play | None
) -> MatchState:
    """Book a finished play (or pass) and decide who acts next."""
    v = _variant(state)
    rules = state.settings.rules
    position = play.result if play is not None else game.position.with_turn(side.opponent)
    forced = bool(game.movements)  # a gulbar opponent's left-overs, not a turn of its own
    turns = game.turns_played
    if not forced:
        turns = (turns[0] + 1, turns[1]) if side is Side.WHITE else (turns[0], turns[1] + 1)
    game = replace(game, position=position, plays=(), turns_played=turns)
    if game.finished is not None:  # the other side's final turn of a tournament draw
        if position.off[side] >= v.checkers:
            return _end_game(state, game, None, "draw", 0)
        return _finish_by_bear_off(state, game, game.finished)
    if position.off[side] >= v.checkers:
        if (
            state.settings.tournament_draw
            and v.family == "long"
            and side is game.starter
            and not forced
        ):
            nxt = side.opponent
            final_turn = replace(game, phase=Phase.ROLL, turn=nxt, dice=None,
                                 position=position.with_turn(nxt), finished=side)  # fmt: skip
            return replace(state, game=final_turn)
        return _finish_by_bear_off(state, game, side)
    if forced:
        nxt = game.next_turn or side.opponent
        return _to_roll(state, game, nxt)
    assert game.dice is not None
    used = play.dice_used if play is not None else ()
    extra = earns_extra_throw(v, game.dice, used, rules)
    nxt = side if extra else side.opponent
    left = unplayed_movements(v, game.dice, used, rules) if v.unplayed_to_opponent else ()
    if left:
        opp = side.opponent
        at_opp = position.with_turn(opp)
        ordered = is_ladder(v, game.dice)
        plays = list_movement_plays(at_opp, left, v, rules, ordered)  # None: too many
        if plays != ():
            return replace(state, game=replace(
                game, phase=Phase.MOVE, turn=opp, position=at_opp, movements=left,
                movements_in_order=ordered, plays=plays, next_turn=nxt, dice=None,
            ))  # fmt: skip
    return _to_roll(state, game, nxt)


def _to_roll(state: MatchState, game: GameState, side: Side) -> MatchState:
    return replace(state, game=replace(
        game, phase=Phase.ROLL, turn=side, dice=None, movements=(), next_turn=None,
        movements_in_order=False, position=game.position.with_turn(side),
    ))  # fmt: skip


# --- the cube -----------------------------------------------------------------------------
def _cube_context(state: MatchState, side: Side) -> CubeContext:
    game = state.game
    leader = None
    n = state.match_length
    if game.crawford:
        leader = Side.WHITE if state.score[0] == n - 1 else Side.BLACK
    post_crawford = n > 0 and state.crawford_done and not game.crawford
    trailer = state.score[side] < state.score[side.opponent]
    holland = (
        state.settings.holland and post_crawford and trailer and min(game.turns_played) < 2
    )
    return CubeContext(state.money, game.crawford, holland, leader)


def _on_double(state: MatchState, event: Double) -> MatchState:
    game = state.game
    _expect(game, Phase.ROLL)
    _expect_turn(game, event.side)
    if game.finished is not None:
        raise IllegalEventError("no doubling in the final turn of a finished game")
    cube = cube_rules.offer_double(game.cube, event.side, state.settings,
                                   _cube_context(state, event.side))  # fmt: skip
    return replace(state, game=replace(game, phase=Phase.CUBE, cube=cube))


def _on_animal(state: MatchState, event: Beaver | Raccoon) -> MatchState:
    game = state.game
    _expect(game, Phase.CUBE)
    turn = cube_rules.beaver if isinstance(event, Beaver) else cube_rules.raccoon
    cube = turn(game.cube, event.side, state.settings, _cube_context(state, event.side))
    return replace(state, game=replace(game, cube=cube))


def _on_take(state: MatchState, event: Take) -> MatchState:
    game = state.game
    _expect(game, Phase.CUBE)
    cube = cube_rules.take(game.cube, event.side)
    return replace(state, game=replace(game, phase=Phase.ROLL, cube=cube))


def _on_pass(state: MatchState, event: Pass) -> MatchState:
    game = state.game
    _expect(game, Phase.CUBE)
    points = cube_rules.refusal_points(game.cube, event.side, state.settings)
    return _end_game(state, game, event.side.opponent, "drop", points)


# --- resignations and time ----------------------------------------------------------------
def _on_resign(state: MatchState, event: Resign) -> MatchState:
    game = state.game
    _expect(game, Phase.ROLL, Phase.MOVE)
    if event.level not in _RESIGN_TYPES:
        raise IllegalEventError("resign a single (1), gammon (2) or backgammon (3) game")
    return replace(state, game=replace(game, phase=Phase.RESIGN, resign_by=event.side,
                                       resign_level=event.level, resume=game.phase))  # fmt: skip


def _answer_resign(state: MatchState, side: Side) -> GameState:
    game = state.game
    _expect(game, Phase.RESIGN)
    if game.resign_by is None or side is not game.resign_by.opponent:
        raise IllegalEventError("only the opponent of the resigning player answers")
    return game


def _on_accept_resign(state: MatchState, event: AcceptResign) -> MatchState:
    game = _answer_resign(state, event.side)
    settings = state.settings.result_settings(_variant(state).family)
    multiplier = settings.points(_RESIGN_TYPES[game.resign_level])
    if _jacoby_applies(state, game):
        multiplier = 1
    return _end_game(state, game, event.side, "resign", multiplier * game.cube.value)


def _on_reject_resign(state: MatchState, event: RejectResign) -> MatchState:
    game = _answer_resign(state, event.side)
    assert game.resume is not None
    return replace(state, game=replace(game, phase=game.resume, resign_by=None,
                                       resign_level=0, resume=None))  # fmt: skip


def side_to_act(game: GameState) -> Side | None:
    """Who must act now (roll, move, answer a double or a resignation)."""
    if game.phase is Phase.CUBE and game.cube.offered_by is not None:
        return game.cube.offered_by.opponent
    if game.phase is Phase.RESIGN and game.resign_by is not None:
        return game.resign_by.opponent
    if game.phase in (Phase.ROLL, Phase.MOVE):
        return game.turn
    return None


def _on_timeout(state: MatchState, event: Timeout) -> MatchState:
    game = state.game
    if not state.settings.timeout_loses or state.settings.move_seconds is None:
        raise IllegalEventError("running out of time does not lose a game in this match")
    if side_to_act(game) is not event.side:
        raise IllegalEventError(f"{event.side.label} is not the side to act")
    return _end_game(state, game, event.side.opponent, "timeout", game.cube.value)


# --- ending -------------------------------------------------------------------------------
def _jacoby_applies(state: MatchState, game: GameState) -> bool:
    return state.money and state.settings.jacoby and not game.cube.turned


def _finish_by_bear_off(state: MatchState, game: GameState, winner: Side) -> MatchState:
    v = _variant(state)
    settings = state.settings.result_settings(v.family)
    win, multiplier = win_points(game.position, v, winner, settings)
    if _jacoby_applies(state, game):
        multiplier = 1
    return _end_game(state, game, winner, win.value, multiplier * game.cube.value)


def _end_game(
    state: MatchState, game: GameState, winner: Side | None, result: str, points: int
) -> MatchState:
    record = GameResult(game.number, winner, result, game.cube.value, points, game.crawford)
    score = state.score
    if winner is not None:
        gained = (points, 0) if winner is Side.WHITE else (0, points)
        score = (score[0] + gained[0], score[1] + gained[1])
    n = state.match_length
    match_winner = None
    if n > 0 and max(score) >= n:
        match_winner = Side.WHITE if score[0] >= n else Side.BLACK
    crawford_next = False
    crawford_done = state.crawford_done
    if (
        n > 0
        and match_winner is None
        and state.settings.crawford
        and not crawford_done
        and n - 1 in score
    ):
        crawford_next = crawford_done = True
    final = replace(game, phase=Phase.MATCH_OVER, turn=None, dice=None, plays=())
    nxt = final if match_winner is not None else _new_game(
        _variant(state), state.settings, game.number + 1, crawford_next
    )
    return replace(state, game=nxt, results=(*state.results, record), score=score,
                   crawford_done=crawford_done, winner=match_winner)  # fmt: skip


_HANDLERS = {
    OpeningRoll: _on_opening,
    Roll: _on_roll,
    Move: _on_move,
    Correct: _on_correct,
    Double: _on_double,
    Beaver: _on_animal,
    Raccoon: _on_animal,
    Take: _on_take,
    Pass: _on_pass,
    Resign: _on_resign,
    AcceptResign: _on_accept_resign,
    RejectResign: _on_reject_resign,
    Timeout: _on_timeout,
}
