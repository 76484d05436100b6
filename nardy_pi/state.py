"""The full state snapshot pushed to every output (web page, LEDs, point strip, log).

Outputs only ever read a `State`; they never reach into the match or the referee. It is a
plain frozen value so it can be cached, compared and serialised (`to_json`) as a whole.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

DeviceStatus = Literal["ok", "absent", "error", "reconnecting", "disabled"]
AlertKind = Literal["reroll", "illegal_move", "desync", "info", "timeout"]
SideName = Literal["white", "black"]


@dataclass(frozen=True, slots=True)
class Alert:
    """Something players must see now: a re-roll, an illegal move and why, a desync."""

    kind: AlertKind
    code: str  # machine key, e.g. "off_board" or "landed_on_closed_point"
    message_en: str
    message_ru: str
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class MoveRecord:
    number: int
    side: Literal["white", "black"]
    dice: tuple[int, ...]
    text: str  # gnubg notation, or a cube action like "Doubles => 2"


@dataclass(frozen=True, slots=True)
class PlayerState:
    name: str
    score: int
    pips: int
    borne_off: int
    on_bar: int
    clock_seconds: float | None = None


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """How a finished game ended, for the result banner."""

    number: int
    winner: SideName | None  # None: a draw (long-nardy tournament rule)
    winner_name: str
    #: "single" | "gammon" | "backgammon" (backgammon family); "oin" | "mars" | "koks" |
    #: "home_mars" (long family, per the result settings); or "drop" | "resign" |
    #: "timeout" | "draw" for games that did not end by bearing off
    win_type: str
    points: int  # points won, cube included
    cube: int
    crawford: bool = False  # the game was the Crawford game


@dataclass(frozen=True, slots=True)
class TimerState:
    """The move timer: `remaining` seconds for `side` as measured at wall-clock `at`."""

    limit: float
    remaining: float
    side: SideName | None
    running: bool
    at: float  # time.time() of the reading: the page counts down from here
    timeout_loses: bool = False


@dataclass(frozen=True, slots=True)
class State:
    """Everything an output may show, at one moment."""

    variant: str
    board: str  # 26-char XGID board field, physical numbering (board-frame.md)
    points: tuple[int, ...]  # physical point i+1: +white / -black
    turn: Literal["white", "black"] | None
    phase: str  # e.g. "opening", "rolling", "moving", "cube_offered", "game_over", "match_over"
    dice: tuple[int, ...] = ()
    cube_value: int = 1
    cube_owner: Literal["white", "black", "center"] = "center"
    cube_offered: bool = False
    match_length: int = 0  # 0 = money play
    crawford: bool = False
    game_number: int = 1
    white: PlayerState = field(default_factory=lambda: PlayerState("White", 0, 0, 0, 0))
    black: PlayerState = field(default_factory=lambda: PlayerState("Black", 0, 0, 0, 0))
    last_move: MoveRecord | None = None
    last_move_points: tuple[int, ...] = ()  # physical points touched by the last play
    moves: tuple[MoveRecord, ...] = ()
    alerts: tuple[Alert, ...] = ()
    winner: Literal["white", "black"] | None = None  # of the game just ended, or the match
    devices: dict[str, DeviceStatus] = field(default_factory=dict)
    seq: int = 0  # increases with every new snapshot
    #: the last finished game of this match (None before the first ends)
    last_result: GameOutcome | None = None
    match_winner: SideName | None = None
    #: the only legal play of the roll in gnubg notation ("" when there is a choice or none)
    forced_play: str = ""
    #: gulbar: the movements the mover left, which the side to move plays now
    movements: tuple[int, ...] = ()
    #: the evaluation engine in use: "gnubg-nn", "gnubg" (GNU Backgammon's program) or "none"
    engine: str = "none"
    timer: TimerState | None = None
    #: GNU Backgammon's `PositionID:MatchID` of the position (backgammon family; "" else),
    #: numbered as gnubg numbers this match imported from the .mat export
    gnubg_id: str = ""
    #: dice fairness per "white", "black" and "all": rolls, faces (counts of 1-6),
    #: faces_p (chi-square p-value), doubles, doubles_p, reliable (enough rolls to judge)
    dice_stats: dict[str, Any] = field(default_factory=dict)
    #: the match settings in force (`MatchSettings.to_dict()`): rules, cube, results, timer
    settings: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)
