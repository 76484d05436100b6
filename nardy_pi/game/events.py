"""Game events: the only way a match changes. Frozen values that round-trip through JSON.

A match is `MatchStarted` followed by the events of its games. Game ends, Crawford games and
the next game's start are derived by the engine, never recorded, so a log cannot contradict
itself.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

from nardy_pi.rules.play import Play
from nardy_pi.rules.position import Position
from nardy_pi.rules.sides import Side


@dataclass(frozen=True, slots=True)
class MatchStarted:
    kind: ClassVar[str] = "match_started"
    variant: str = "backgammon"
    #: points to win; 0 = money play (a session of independent games)
    match_length: int = 0
    white: str = "White"
    black: str = "Black"
    #: `MatchSettings.to_dict()`; {} = defaults
    settings: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class OpeningRoll:
    """One die each to decide who starts (ties are thrown again)."""

    kind: ClassVar[str] = "opening_roll"
    white_die: int
    black_die: int


@dataclass(frozen=True, slots=True)
class Roll:
    kind: ClassVar[str] = "roll"
    side: Side
    dice: tuple[int, int]


@dataclass(frozen=True, slots=True)
class Move:
    """A play, recorded as the position it leaves (what a camera sees) plus its text."""

    kind: ClassVar[str] = "move"
    side: Side
    points: tuple[int, ...]
    bar: tuple[int, int]
    off: tuple[int, int]
    play: str = ""

    @classmethod
    def of(cls, side: Side, play: Play) -> Move:
        r = play.result
        return cls(side, r.points, r.bar, r.off, play.notation)

    def board_key(self) -> tuple[int, ...]:
        return (*self.points, *self.bar, *self.off)


@dataclass(frozen=True, slots=True)
class Correct:
    """A person set the record by hand (the referee misread the board, or a checker was
    knocked over): this position, `side` to move, with `dice` when they are already rolled.

    It keeps the log in step with the board after a correction, so the rest of the game is
    still recorded; a .mat record cannot express it and shows the moves that follow."""

    kind: ClassVar[str] = "correct"
    side: Side
    points: tuple[int, ...]
    bar: tuple[int, int]
    off: tuple[int, int]
    dice: tuple[int, int] | None = None

    @classmethod
    def of(cls, position: Position, dice: tuple[int, int] | None = None) -> Correct:
        return cls(position.turn, position.points, position.bar, position.off, dice)

    def position(self) -> Position:
        return Position(tuple(self.points), tuple(self.bar), tuple(self.off), self.side)  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class Double:
    kind: ClassVar[str] = "double"
    side: Side


@dataclass(frozen=True, slots=True)
class Beaver:
    """The doubled player takes and at once redoubles, keeping the cube (money only)."""

    kind: ClassVar[str] = "beaver"
    side: Side


@dataclass(frozen=True, slots=True)
class Raccoon:
    """After a beaver the original doubler turns the cube once more (money only)."""

    kind: ClassVar[str] = "raccoon"
    side: Side


@dataclass(frozen=True, slots=True)
class Take:
    kind: ClassVar[str] = "take"
    side: Side


@dataclass(frozen=True, slots=True)
class Pass:
    """Refuse a double (a "drop"): the game is lost."""

    kind: ClassVar[str] = "pass"
    side: Side


@dataclass(frozen=True, slots=True)
class Resign:
    """Offer to resign a single (1), gammon/mars (2) or backgammon/koks (3) game."""

    kind: ClassVar[str] = "resign"
    side: Side
    level: int = 1


@dataclass(frozen=True, slots=True)
class AcceptResign:
    kind: ClassVar[str] = "accept_resign"
    side: Side


@dataclass(frozen=True, slots=True)
class RejectResign:
    kind: ClassVar[str] = "reject_resign"
    side: Side


@dataclass(frozen=True, slots=True)
class Timeout:
    """The side to act ran out of time (loses the game when the rule is on)."""

    kind: ClassVar[str] = "timeout"
    side: Side


GameEvent = (
    MatchStarted
    | OpeningRoll
    | Roll
    | Move
    | Correct
    | Double
    | Beaver
    | Raccoon
    | Take
    | Pass
    | Resign
    | AcceptResign
    | RejectResign
    | Timeout
)

EVENT_TYPES: dict[str, type] = {
    cls.kind: cls
    for cls in (
        MatchStarted,
        OpeningRoll,
        Roll,
        Move,
        Correct,
        Double,
        Beaver,
        Raccoon,
        Take,
        Pass,
        Resign,
        AcceptResign,
        RejectResign,
        Timeout,
    )
}


def event_to_dict(event: GameEvent) -> dict[str, Any]:
    data: dict[str, Any] = {"kind": event.kind}
    for f in fields(event):
        value = getattr(event, f.name)
        if isinstance(value, Side):
            value = value.label
        elif isinstance(value, tuple):
            value = list(value)
        data[f.name] = value
    return data


def event_from_dict(data: dict[str, Any]) -> GameEvent:
    """Inverse of `event_to_dict`; raises ValueError naming what is wrong."""
    try:
        cls = EVENT_TYPES[data["kind"]]
    except (KeyError, TypeError):
        raise ValueError(f"not a game event: {data!r}") from None
    values: dict[str, Any] = {}
    for f in fields(cls):
        if f.name not in data:
            continue
        value = data[f.name]
        if f.name == "side":
            value = Side.parse(value)
        else:
            _check_field(cls.kind, f.name, value)
            if isinstance(value, list):
                value = tuple(value)
        values[f.name] = value
    try:
        return cls(**values)
    except TypeError as exc:
        raise ValueError(f"bad {cls.kind} event {data!r}: {exc}") from None


#: the shape of every stored field but `side` (a match log is a file like any other: a
#: damaged or hand-edited one gets a message naming the field, never a TypeError later)
_WHOLE = frozenset({"white_die", "black_die", "match_length", "level"})
_PAIRS = frozenset({"bar", "off", "dice"})
_NAMES = frozenset({"white", "black"})
MAX_PLAY_TEXT = 200


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_field(kind: str, name: str, value: Any) -> None:
    where = f"{kind} event, field {name!r}"
    if name in _WHOLE and not _is_int(value):
        raise ValueError(f"{where}: a whole number, got {value!r:.40}")
    if name == "points" and not (
        isinstance(value, list) and len(value) <= 26 and all(_is_int(v) for v in value)
    ):
        raise ValueError(f"{where}: a list of whole numbers, got {value!r:.60}")
    if name in _PAIRS and not (
        (value is None and name == "dice")
        or (isinstance(value, list) and len(value) == 2 and all(_is_int(v) for v in value))
    ):
        raise ValueError(f"{where}: two whole numbers, got {value!r:.40}")
    # Names: printable (a line break would corrupt a .mat record); the stricter rules of
    # the panel (`validation.player_name`) are left to the writers, so no log our own
    # older versions wrote becomes unreadable.
    if name in (*_NAMES, "variant", "play") and not (
        isinstance(value, str) and len(value) <= MAX_PLAY_TEXT and value.isprintable()
    ):
        raise ValueError(f"{where}: a short printable text, got {value!r:.40}")
    if name == "settings" and not isinstance(value, dict):
        raise ValueError(f"{where}: a table of settings, got {value!r:.40}")


def event_to_json(event: GameEvent) -> str:
    return json.dumps(event_to_dict(event), separators=(",", ":"), sort_keys=True)


def event_from_json(text: str) -> GameEvent:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"event is not JSON: {exc}") from None
    return event_from_dict(data)


def move_position(move: Move, turn: Side) -> Position:
    return Position(tuple(move.points), tuple(move.bar), tuple(move.off), turn)  # type: ignore[arg-type]
