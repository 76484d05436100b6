"""The match as a value: what every output reads and what each event turns into a new value."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from nardy_pi.game.cube import CubeState
from nardy_pi.game.settings import MatchSettings
from nardy_pi.rules.play import Play
from nardy_pi.rules.position import Position
from nardy_pi.rules.sides import Side


class Phase(StrEnum):
    """The one phase of play every part names: the engine, the referee and `State`."""

    OPENING = "opening"  # waiting for the opening roll (one die each)
    ROLL = "rolling"  # `turn` may double, then rolls
    MOVE = "moving"  # `turn` plays `dice` (or the movements an opponent left, gulbar)
    CUBE = "cube_offered"  # the opponent of `cube.offered_by` answers a double/beaver/raccoon
    RESIGN = "resign_offered"  # the opponent of the resigner accepts or rejects
    #: the referee only: a game ended, the board is being set up for the next one
    GAME_OVER = "game_over"
    MATCH_OVER = "match_over"


@dataclass(frozen=True, slots=True)
class GameResult:
    number: int
    winner: Side | None  # None = a draw (long-nardy tournament rule)
    #: "single" | "gammon" | "backgammon" | "home_mars" | "drop" | "resign" | "timeout" |
    #: "draw"
    result: str
    cube: int
    points: int
    crawford: bool = False


@dataclass(frozen=True, slots=True)
class GameState:
    number: int
    position: Position
    phase: Phase
    turn: Side | None = None
    dice: tuple[int, int] | None = None
    #: gulbar: movements the opponent left unplayed, which `turn` plays now
    movements: tuple[int, ...] = ()
    #: the movements are the rest of a ladder of doubles, played in their order
    movements_in_order: bool = False
    #: the legal plays now, or None when there are too many to list (`game.plays`)
    plays: tuple[Play, ...] | None = ()
    cube: CubeState = field(default_factory=CubeState)
    crawford: bool = False
    starter: Side | None = None
    #: completed turns per side (white, black), for the Holland rule
    turns_played: tuple[int, int] = (0, 0)
    resign_by: Side | None = None
    resign_level: int = 0
    #: the phase a rejected resignation returns to
    resume: Phase | None = None
    #: who throws after a gulbar opponent has played the left-over movements
    next_turn: Side | None = None
    #: tournament draw: the side who finished first, while the other plays its final turn
    finished: Side | None = None


@dataclass(frozen=True, slots=True)
class MatchState:
    variant: str
    match_length: int
    players: tuple[str, str]
    settings: MatchSettings
    game: GameState
    results: tuple[GameResult, ...] = ()
    score: tuple[int, int] = (0, 0)
    crawford_done: bool = False
    winner: Side | None = None
    events: int = 0

    @property
    def money(self) -> bool:
        return self.match_length == 0

    @property
    def over(self) -> bool:
        return self.game.phase is Phase.MATCH_OVER

    def money_won(self, side: Side) -> float:
        """Net winnings of `side` in money play (points x stake)."""
        diff = self.score[side] - self.score[side.opponent]
        return diff * self.settings.stake
