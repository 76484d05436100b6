"""The one place a `State` is built: from the match engine (board, turn, dice, cube, score,
results, moves), with the referee's alarms and the loop's notices on top."""

from __future__ import annotations

from typing import Any

from nardy_pi.app.session import MatchSession
from nardy_pi.game.state import GameResult, Phase
from nardy_pi.records.xgid_export import gnubg_id_of
from nardy_pi.referee import Referee
from nardy_pi.rules.notation.board_field import format_board_field
from nardy_pi.rules.position import Position
from nardy_pi.rules.sides import Side
from nardy_pi.rules.variants import get_variant
from nardy_pi.state import Alert, DeviceStatus, GameOutcome, PlayerState, State, TimerState

#: the long family's names of the win types (DIGEST §2.3.8)
_LONG_NAMES = {"single": "oin", "gammon": "mars", "backgammon": "koks"}
_OWNER = {None: "center", Side.WHITE: "white", Side.BLACK: "black"}


def outcome(result: GameResult, players: tuple[str, str], family: str) -> GameOutcome:
    win_type = result.result
    if family == "long":
        win_type = _LONG_NAMES.get(win_type, win_type)
    winner = result.winner
    return GameOutcome(
        number=result.number,
        winner=winner.label if winner is not None else None,  # type: ignore[arg-type]
        winner_name=players[winner] if winner is not None else "",
        win_type=win_type,
        points=result.points,
        cube=result.cube,
        crawford=result.crawford,
    )


def referee_alerts(referee: Referee) -> list[Alert]:
    alerts: list[Alert] = []
    if referee.alarm is not None:
        a = referee.alarm
        alerts.append(Alert("illegal_move", a.code, a.message_en, a.message_ru, dict(a.params)))
    if referee.desync is not None and referee.last_desync is not None:
        d = referee.last_desync
        alerts.append(Alert("desync", d.code, d.message_en, d.message_ru))
    return alerts


def build_state(
    session: MatchSession,
    referee: Referee,
    notices: tuple[Alert, ...] = (),
    devices: dict[str, DeviceStatus] | None = None,
    seq: int = 0,
    engine: str = "none",
    timer: TimerState | None = None,
) -> State:
    """The snapshot every output reads."""
    m = session.state
    game = m.game
    v = get_variant(m.variant)
    waiting_for_setup = referee.phase is Phase.GAME_OVER and game.phase is not Phase.MOVE
    phase = game.phase
    position: Position = game.position
    if phase is Phase.MATCH_OVER or waiting_for_setup:
        position = referee.position  # the final board stays until it is set up again
        if phase is not Phase.MATCH_OVER:
            phase = Phase.GAME_OVER
    last = m.results[-1] if m.results else None
    winner: Any = None
    if phase is Phase.MATCH_OVER:
        winner = m.winner.label if m.winner is not None else None
    elif phase is Phase.GAME_OVER and last is not None and last.winner is not None:
        winner = last.winner.label
    turn = game.turn if phase in (Phase.ROLL, Phase.MOVE, Phase.CUBE, Phase.RESIGN) else None
    forced = ""
    alerts = [*referee_alerts(referee), *notices]
    if phase is Phase.MOVE and game.plays is not None and len(game.plays) == 1:
        forced = game.plays[0].notation
        alerts.append(Alert("info", "forced_play", f"only one legal play: {forced}",
                            f"единственный возможный ход: {forced}", {"play": forced}))

    def player(side: Side) -> PlayerState:
        return PlayerState(m.players[side], m.score[side], position.pip_count(v, side),
                           position.off[side], position.bar[side])

    cube = game.cube
    return State(
        variant=v.name,
        board=format_board_field(position.points, position.bar[0], position.bar[1]),
        points=position.points,
        turn=turn.label if turn is not None else None,  # type: ignore[arg-type]
        phase=phase.value,
        dice=tuple(game.dice) if phase is Phase.MOVE and game.dice else (),
        cube_value=cube.value,
        cube_owner=_OWNER[cube.owner],  # type: ignore[arg-type]
        cube_offered=cube.offered is not None,
        match_length=m.match_length,
        crawford=game.crawford,
        game_number=game.number,
        white=player(Side.WHITE),
        black=player(Side.BLACK),
        last_move=session.moves[-1] if session.moves else None,
        last_move_points=session.last_points,
        moves=tuple(session.moves),
        alerts=tuple(alerts),
        winner=winner,
        devices=dict(devices or {}),
        seq=seq,
        last_result=outcome(last, m.players, v.family) if last is not None else None,
        match_winner=m.winner.label if m.winner is not None else None,  # type: ignore[arg-type]
        forced_play=forced,
        movements=tuple(game.movements) if phase is Phase.MOVE else (),
        engine=engine,
        timer=timer,
        settings=m.settings.to_dict(),
        dice_stats=session.dice_summary(),
        gnubg_id=gnubg_id_of(m) if phase in (Phase.ROLL, Phase.MOVE, Phase.CUBE) else "",
    )
