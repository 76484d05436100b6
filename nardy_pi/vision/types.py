"""Typed values that leave the vision room (board-frame.md §3)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Half = Literal["left", "right"]
CubePlace = Literal["center", "top", "bottom", "off"]
RerollReason = Literal[
    "off_board", "split_halves", "cocked", "on_checker", "missing_die", "extra_die"
]


@dataclass(frozen=True, slots=True)
class DieReading:
    """One die found in an image. `value` is None when the top face cannot be read."""

    value: int | None
    center: tuple[float, float]
    box: tuple[float, float, float, float]  # x0, y0, x1, y1 in image pixels
    flat: bool = True
    confidence: float = 1.0


@dataclass(frozen=True, slots=True)
class DieOnBoard:
    """A die placed in the board frame: where it lies and whether it may count."""

    value: int | None
    center: tuple[float, float]
    flat: bool
    on_board: bool
    half: Half | None
    on_checker: bool


@dataclass(frozen=True, slots=True)
class CubeReading:
    value: int
    position: CubePlace


@dataclass(frozen=True, slots=True)
class RollVerdict:
    valid: bool
    reasons: tuple[RerollReason, ...] = ()


@dataclass(frozen=True, slots=True)
class Observation:
    """What one frame shows. `points[i]` is physical point i+1: +white, -black."""

    points: tuple[int, ...]
    bar_white: int
    bar_black: int
    off_white: int | None
    off_black: int | None
    dice: tuple[DieOnBoard, ...] = ()
    cube: CubeReading | None = None
    roll: RollVerdict = field(default_factory=lambda: RollVerdict(valid=False, reasons=()))
    occluded: bool = False
    #: the reader's belief per slot (points 1..24, white bar, black bar): 31 probabilities over
    #: signed counts -15..15 (index k is count k - 15); None when the reader gives none
    point_probs: tuple[tuple[float, ...], ...] | None = None
    #: board-frame.md §4's optional fields: belief that the whole reading is right, and per point
    confidence: float | None = None
    point_confidence: tuple[float, ...] | None = None
