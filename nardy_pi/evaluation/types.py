"""The values the evaluation engines exchange with the program (no I/O here)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol

from nardy_pi.rules.play import Play
from nardy_pi.rules.position import Position
from nardy_pi.rules.sides import Side

EngineChoice = Literal["auto", "gnubg-nn", "gnubg", "none"]
#: gnubg's nets know standard backgammon; these share its board and moves (DIGEST §2.1)
ENGINE_VARIANTS = frozenset({"backgammon", "nackgammon"})


@dataclass(frozen=True, slots=True)
class Evaluation:
    """Chances and equity for the side on roll, with the cube where it stands."""

    win: float
    win_gammon: float
    win_backgammon: float
    lose_gammon: float
    lose_backgammon: float
    cubeless: float
    #: cubeful equity (per unit of the cube); None when the engine cannot give one
    cubeful: float | None = None

    @property
    def equity(self) -> float:
        return self.cubeful if self.cubeful is not None else self.cubeless


@dataclass(frozen=True, slots=True)
class CubeView:
    """The match around a position, as an engine needs it (sides as `Side`)."""

    value: int = 1
    owner: Side | None = None
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    crawford: bool = False
    jacoby: bool = False


class Evaluator(Protocol):
    name: str

    def best_play(
        self, position: Position, dice: tuple[int, int], plays: list[Play]
    ) -> Play | None:
        """The engine's choice among `plays` for the side to move (position.turn)."""
        ...

    def evaluate(self, position: Position, cube: CubeView) -> Evaluation:
        """Chances and equity for the side on roll (position.turn), before it rolls."""
        ...
