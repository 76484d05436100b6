"""What the referee tells the rest of the program. Frozen values; sides as `Side`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from nardy_pi.rules.inference import Diagnosis
from nardy_pi.rules.play import Play
from nardy_pi.rules.position import Position
from nardy_pi.rules.sides import Side


@dataclass(frozen=True, slots=True)
class OpeningRolled:
    """Each player threw one die and they differ: `starter` moves first."""

    white_die: int
    black_die: int
    starter: Side
    #: the starter plays these dice now (short nardy); None: he throws afresh (long nardy)
    dice: tuple[int, int] | None


@dataclass(frozen=True, slots=True)
class OpeningTie:
    """Both opening dice show `value`: throw again (and, with automatic doubles, turn the cube)."""

    value: int


@dataclass(frozen=True, slots=True)
class RollAccepted:
    side: Side
    dice: tuple[int, int]


@dataclass(frozen=True, slots=True)
class RerollRequired:
    """The throw is void. `reasons`: board-frame.md roll reasons, plus "same_half" for an
    opening throw whose two dice lie in one half (they cannot be told apart), "wrong_half"
    (the half rule) and "unreadable" (a flat die whose top face the camera cannot read)."""

    side: Side | None  # None in the opening roll
    reasons: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class MovePlayed:
    """A finished legal play (`play` None: a legal pass, nothing could move)."""

    side: Side
    dice: tuple[int, int]
    play: Play | None
    before: Position
    after: Position  # turn passed to the opponent

    @property
    def notation(self) -> str:
        return self.play.notation if self.play else ""


@dataclass(frozen=True, slots=True)
class IllegalMove:
    """The finished move is not legal; the board must be put back or corrected."""

    side: Side
    dice: tuple[int, int]
    code: str
    params: dict[str, Any]
    message_en: str
    message_ru: str

    @classmethod
    def from_diagnosis(cls, side: Side, dice: tuple[int, int], d: Diagnosis) -> IllegalMove:
        return cls(side, dice, d.code, dict(d.params), d.message("en"), d.message("ru"))


@dataclass(frozen=True, slots=True)
class Desync:
    """The board matches no legal continuation of the record. `code`: why, machine key."""

    code: str  # "board_changed", "checker_count", "opponent_disturbed", "wrong_side", ...
    message_en: str
    message_ru: str


@dataclass(frozen=True, slots=True)
class Resynced:
    """The board agrees with the record again (put back, or the record was corrected)."""

    how: str  # "board_restored" or "corrected"


@dataclass(frozen=True, slots=True)
class AlarmCleared:
    """An illegal-move alarm is over: the move was taken back to the position before it."""


@dataclass(frozen=True, slots=True)
class MoveProgress:
    """A settled half-made move: the board is on the way to some legal play (no judgement).

    `lifted_from` is the physical point (25 = bar) a checker was just taken from, with the
    physical points it may go to; empty when no checker is in the air."""

    side: Side
    lifted_from: int | None
    destinations: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Undone:
    """The last play was taken back in the record; its side moves again with the same dice."""

    side: Side
    dice: tuple[int, int]
    position: Position


@dataclass(frozen=True, slots=True)
class Corrected:
    """A person set the recorded position by hand (with the dice, if already rolled)."""

    position: Position
    dice: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class GameFinished:
    """The last play bore off the mover's last checker."""

    winner: Side


@dataclass(frozen=True, slots=True)
class BoardReset:
    """After a game the board shows the start position again: a new game's opening roll."""


RefereeEvent = (
    OpeningRolled
    | OpeningTie
    | RollAccepted
    | RerollRequired
    | MovePlayed
    | IllegalMove
    | Desync
    | Resynced
    | AlarmCleared
    | MoveProgress
    | Undone
    | Corrected
    | GameFinished
    | BoardReset
)
