"""Judging a throw from where the dice lie (DIGEST §1.3, §6.1-7)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from nardy_pi.rules.sides import Side
from nardy_pi.vision.types import DieOnBoard

HalfRule = Literal["any", "thrower_right"]


@dataclass(frozen=True, slots=True)
class Throw:
    """A judged throw: the dice values when valid, else the reasons to throw again."""

    values: tuple[int, ...]
    reasons: tuple[str, ...]

    @property
    def valid(self) -> bool:
        return not self.reasons


def _die_reasons(dice: tuple[DieOnBoard, ...]) -> list[str]:
    reasons: list[str] = []
    for die in dice:
        if not die.on_board:
            reasons.append("off_board")
        elif die.on_checker:
            reasons.append("on_checker")
        elif not die.flat:
            reasons.append("cocked")
        elif die.value is None:  # flat, but its top face could not be read
            reasons.append("unreadable")
    return reasons


def _unique(reasons: list[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(reasons))


def right_half_of(side: Side) -> str:
    """The half on a seated player's right: white sits at the bottom (board-frame.md)."""
    return "right" if side is Side.WHITE else "left"


def judge_throw(
    dice: tuple[DieOnBoard, ...], thrower: Side, half_rule: HalfRule = "any"
) -> Throw:
    reasons = _die_reasons(dice)
    if len(dice) < 2:
        reasons.append("missing_die")
    elif len(dice) > 2:
        reasons.append("extra_die")
    halves = {d.half for d in dice if d.on_board}
    if len(halves) > 1:
        reasons.append("split_halves")
    elif half_rule == "thrower_right" and halves and halves != {right_half_of(thrower)}:
        reasons.append("wrong_half")
    if reasons:
        return Throw((), _unique(reasons))
    return Throw(tuple(d.value for d in dice if d.value is not None), ())


def judge_opening(dice: tuple[DieOnBoard, ...]) -> tuple[Throw, int | None, int | None]:
    """Each player throws one die into the half on his right: white's lands in the right
    half, black's in the left. Returns the throw and (white's, black's) values."""
    reasons = _die_reasons(dice)
    if len(dice) < 2:
        reasons.append("missing_die")
    elif len(dice) > 2:
        reasons.append("extra_die")
    elif not reasons and dice[0].half == dice[1].half:
        reasons.append("same_half")
    if reasons:
        return Throw((), _unique(reasons)), None, None
    white = next(d.value for d in dice if d.half == "right")
    black = next(d.value for d in dice if d.half == "left")
    return Throw((white or 0, black or 0), ()), white, black
