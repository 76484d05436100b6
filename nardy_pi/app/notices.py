"""Passing notices for the page: a void throw, a tied opening throw, a roll with no legal
play, what an undo took back. Each lasts until the next throw is judged (or the next
notice); the game's account itself lives in the match engine."""

from __future__ import annotations

from nardy_pi.referee import events as ev
from nardy_pi.referee.messages import opening_tie_text, reroll_text
from nardy_pi.state import Alert

_UNDO_RU = {
    "play": "ход", "roll": "бросок", "double": "удвоение", "take": "принятие удвоения",
    "correction": "исправление", "opening_roll": "первый бросок", "pass": "отказ от удвоения",
    "beaver": "бобёр", "raccoon": "енот", "resign": "сдача", "resign_accepted": "сдача",
    "timeout": "просрочка времени",
}
_SIDE_RU = {"white": "белые", "black": "чёрные"}


class Notices:
    def __init__(self) -> None:
        self._notice: Alert | None = None

    def alerts(self) -> tuple[Alert, ...]:
        return () if self._notice is None else (self._notice,)

    def clear(self) -> None:
        self._notice = None

    def heard(self, event: ev.RefereeEvent) -> None:
        if isinstance(event, ev.RerollRequired):
            en, ru = reroll_text(event.reasons)
            self._notice = Alert("reroll", ",".join(event.reasons), en, ru,
                                 {"reasons": list(event.reasons)})
        elif isinstance(event, ev.OpeningTie):
            en, ru = opening_tie_text(event.value)
            self._notice = Alert("reroll", "opening_tie", en, ru, {"value": event.value})
        elif isinstance(event, ev.RollAccepted | ev.OpeningRolled | ev.MovePlayed
                        | ev.BoardReset):
            self._notice = None

    def passed(self, side: str, dice: tuple[int, ...]) -> None:
        """The roll has no legal play: the turn passes."""
        roll = "-".join(map(str, dice))
        self._notice = Alert(
            "info", "no_legal_play_pass",
            f"{side} cannot play {roll}: the turn passes",
            f"{_SIDE_RU.get(side, side)}: с броском {roll} хода нет, ход переходит",
            {"side": side, "dice": list(dice)},
        )

    def undone(self, kind: str, side: str | None) -> None:
        who = f"{side}'s " if side else ""
        who_ru = f" ({_SIDE_RU.get(side, side)})" if side else ""
        self._notice = Alert(
            "info", "undone",
            f"undo: took back {who}{kind.replace('_', ' ')}",
            f"отменено: {_UNDO_RU.get(kind, kind)}{who_ru}",
            {"kind": kind, "side": side},
        )
