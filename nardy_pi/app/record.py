"""The app's account of the current game, kept from referee events, and the `State` built
from it with the referee (and, when present, the match engine's cube and score fields)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from nardy_pi.referee import Referee
from nardy_pi.referee import events as ev
from nardy_pi.referee.messages import opening_tie_text, reroll_text
from nardy_pi.rules.notation.board_field import format_board_field
from nardy_pi.rules.play import touched_points
from nardy_pi.rules.sides import Side
from nardy_pi.state import Alert, DeviceStatus, MoveRecord, PlayerState, State


@dataclass
class GameRecord:
    """Moves and passing notices of the game in progress (the match keeps the whole match)."""

    moves: list[MoveRecord] = field(default_factory=list)
    last_points: tuple[int, ...] = ()
    notice: Alert | None = None  # a re-roll or opening tie, until the next throw is judged
    winner: Side | None = None
    hint_points: tuple[int, ...] = ()
    hint_sources: tuple[int, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)

    def apply(self, event: ev.RefereeEvent, referee: Referee) -> None:
        if isinstance(event, ev.RerollRequired):
            en, ru = reroll_text(event.reasons)
            self.notice = Alert("reroll", ",".join(event.reasons), en, ru,
                                {"reasons": list(event.reasons)})
        elif isinstance(event, ev.OpeningTie):
            en, ru = opening_tie_text(event.value)
            self.notice = Alert("reroll", "opening_tie", en, ru, {"value": event.value})
        elif isinstance(event, ev.RollAccepted | ev.OpeningRolled):
            self.notice = None
            self.hint_points = self.hint_sources = ()
        elif isinstance(event, ev.MoveProgress):
            self.hint_sources = () if event.lifted_from is None else (event.lifted_from,)
            self.hint_points = event.destinations
        elif isinstance(event, ev.MovePlayed):
            self._played(event, referee)
        elif isinstance(event, ev.Undone):
            if self.moves:
                self.moves.pop()
            self.last_points = ()
        elif isinstance(event, ev.GameFinished):
            self.winner = event.winner
        elif isinstance(event, ev.BoardReset):
            self.moves.clear()
            self.last_points = ()
            self.winner = None
            self.notice = None

    def _played(self, event: ev.MovePlayed, referee: Referee) -> None:
        number = len(self.moves) + 1
        text = event.notation if event.play is not None else "(no play)"
        self.moves.append(MoveRecord(number, event.side.label, event.dice, text))
        play = event.play
        self.last_points = (
            touched_points(play, referee.variant, event.side) if play is not None else ()
        )
        self.hint_points = self.hint_sources = ()
        self.notice = None


def referee_alerts(referee: Referee, record: GameRecord) -> tuple[Alert, ...]:
    alerts: list[Alert] = []
    if referee.alarm is not None:
        a = referee.alarm
        alerts.append(Alert("illegal_move", a.code, a.message_en, a.message_ru, dict(a.params)))
    if referee.desync is not None and referee.last_desync is not None:
        d = referee.last_desync
        alerts.append(Alert("desync", d.code, d.message_en, d.message_ru))
    if record.notice is not None:
        alerts.append(record.notice)
    return tuple(alerts)


def build_state(
    referee: Referee,
    record: GameRecord,
    devices: dict[str, DeviceStatus],
    seq: int,
    match_fields: Callable[[State], dict[str, Any]] | None = None,
) -> State:
    """The snapshot every output reads. `match_fields` (cube, score, names, phase while a
    double is offered...) come from the match engine and override the referee's view."""
    pos = referee.position
    v = referee.variant

    def player(side: Side, name: str) -> PlayerState:
        return PlayerState(name, 0, pos.pip_count(v, side), pos.off[side], pos.bar[side])

    state = State(
        variant=v.name,
        board=format_board_field(pos.points, pos.bar[0], pos.bar[1]),
        points=pos.points,
        turn=pos.turn.label if referee.phase.value != "opening" else None,  # type: ignore[arg-type]
        phase=referee.phase.value,
        dice=referee.dice or (),
        white=player(Side.WHITE, "White"),
        black=player(Side.BLACK, "Black"),
        last_move=record.moves[-1] if record.moves else None,
        last_move_points=record.last_points,
        moves=tuple(record.moves),
        alerts=referee_alerts(referee, record),
        winner=record.winner.label if record.winner is not None else None,  # type: ignore[arg-type]
        devices=dict(devices),
        seq=seq,
    )
    if match_fields is not None:
        state = replace(state, **match_fields(state))
    return state
