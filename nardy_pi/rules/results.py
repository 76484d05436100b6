"""How big a win is: single / mars (gammon) / koks (backgammon) / home mars (DIGEST §1.8,
§2.1.7, §2.3.8, §4 items 7-10).

The sources disagree on every definition, so each is a setting. Defaults per family:
- backgammon family ([A],[E],[K],[M]): mars = the loser bore off nothing (x2); koks = mars
  plus a loser's checker on the bar or in the winner's home (x3); no separate home mars.
- long family ([J],[F]): oin x1, mars = the loser bore off nothing (x2); no koks, no home
  mars (they are settings: [Q]'s "not all home" mars, head koks x3 and home mars x4).
Pure functions of a final position; no cube, no match (the game engine multiplies).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from enum import StrEnum
from typing import Any, Literal, get_args

from nardy_pi.rules.field_types import check_plain_types
from nardy_pi.rules.position import BAR, OFF, Position
from nardy_pi.rules.sides import Side
from nardy_pi.rules.variants import Variant, get_variant

#: "none_off": the loser has borne off no checker (§4 item 7 reading B);
#: "not_all_home": the loser has not brought every checker home (reading A, [B],[C],[Q]).
MarsRule = Literal["none_off", "not_all_home"]
#: "none": no koks; "bar_or_winner_home": mars plus a checker on the bar or in the winner's
#: home (§4 item 8 reading B); "start_untouched": the loser still has a checker on his
#: starting point, own 24 (reading A; exact in long nardy, where own 24 is the head and no
#: checker ever returns to it; an approximation for the backgammon family).
KoksRule = Literal["none", "bar_or_winner_home", "start_untouched"]

HOME_TOP = 6


class WinType(StrEnum):
    SINGLE = "single"
    GAMMON = "gammon"  # mars
    BACKGAMMON = "backgammon"  # koks
    HOME_MARS = "home_mars"


@dataclass(frozen=True, slots=True)
class ResultSettings:
    """Definitions and multipliers of the win types. Build with `for_family` / `from_dict`."""

    mars_rule: MarsRule = "none_off"
    koks_rule: KoksRule = "bar_or_winner_home"
    #: home mars (all home, none off) as its own win type; only meaningful with
    #: mars_rule "not_all_home" (with "none_off" such a loser is simply marsed).
    home_mars: bool = False
    single_points: int = 1
    mars_points: int = 2
    koks_points: int = 3
    #: x4 in [B],[Q]; x3 in [C]; x2 in [F] (§4 item 9).
    home_mars_points: int = 4

    def __post_init__(self) -> None:
        check_plain_types(self, "result setting")
        if self.mars_rule not in get_args(MarsRule):
            raise ValueError(f"mars_rule must be one of {get_args(MarsRule)}")
        if self.koks_rule not in get_args(KoksRule):
            raise ValueError(f"koks_rule must be one of {get_args(KoksRule)}")
        for name in ("single_points", "mars_points", "koks_points", "home_mars_points"):
            if not isinstance(getattr(self, name), int) or getattr(self, name) < 1:
                raise ValueError(f"{name} must be a positive whole number")

    @classmethod
    def for_family(cls, family: str) -> ResultSettings:
        if family == "long":
            return cls(mars_rule="none_off", koks_rule="none")
        return cls()

    @classmethod
    def from_dict(cls, data: dict[str, Any], family: str = "backgammon") -> ResultSettings:
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown result setting(s): {', '.join(unknown)}")
        return replace(cls.for_family(family), **data)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def points(self, win: WinType) -> int:
        return {
            WinType.SINGLE: self.single_points,
            WinType.GAMMON: self.mars_points,
            WinType.BACKGAMMON: self.koks_points,
            WinType.HOME_MARS: self.home_mars_points,
        }[win]


def _loser_checkers_in_winner_home(position: Position, v: Variant, winner: Side) -> int:
    _, opp = position.view(v, winner)  # opp[p]: loser's checkers on the winner's own point p
    return sum(opp[1 : HOME_TOP + 1])


def classify_win(
    position: Position,
    variant: str | Variant,
    winner: Side,
    settings: ResultSettings | None = None,
) -> WinType:
    """The win type of `winner` in the final `position` (the winner need not have finished:
    a resignation or timeout is judged on the position as it stands)."""
    v = get_variant(variant)
    s = settings or ResultSettings.for_family(v.family)
    loser = winner.opponent
    own, _ = position.view(v, loser)
    if own[OFF] > 0:
        return WinType.SINGLE
    if s.koks_rule == "bar_or_winner_home" and (
        own[BAR] > 0 or _loser_checkers_in_winner_home(position, v, winner) > 0
    ):
        return WinType.BACKGAMMON
    if s.koks_rule == "start_untouched" and own[24] > 0:
        return WinType.BACKGAMMON
    if s.mars_rule == "none_off":
        return WinType.GAMMON
    all_home = sum(own[HOME_TOP + 1 :]) == 0
    if not all_home:
        return WinType.GAMMON
    return WinType.HOME_MARS if s.home_mars else WinType.SINGLE


def win_points(
    position: Position,
    variant: str | Variant,
    winner: Side,
    settings: ResultSettings | None = None,
) -> tuple[WinType, int]:
    """The win type and its multiplier (before the cube)."""
    v = get_variant(variant)
    s = settings or ResultSettings.for_family(v.family)
    win = classify_win(position, v, winner, s)
    return win, s.points(win)
