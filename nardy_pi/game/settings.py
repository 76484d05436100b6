"""Match settings: the cube, opening and timer rules where the sources disagree (DIGEST §4
items 1-6, 15, 23-24, 32). Every field has a documented default; `from_dict` refuses typos.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any, Literal, get_args

from nardy_pi.rules.field_types import check_plain_types
from nardy_pi.rules.results import ResultSettings
from nardy_pi.rules.settings import DEFAULT_SETTINGS, RuleSettings

#: "auto": backgammon family plays the two opening dice ([E],[M]), long family rolls afresh
#: ([J]); "play" / "reroll" force one; "white_first": no opening roll, White starts ([J]
#: international long-nardy tournaments).
OpeningRule = Literal["auto", "play", "reroll", "white_first"]
#: what a refused double or redouble costs (§4 item 2): "before" ([A],[E],[M]) the value
#: before that double; "initial" ([B]) the stake agreed at the start of the game.
RefusalCost = Literal["before", "initial"]
#: §4 item 3: "geometric" 1-2-4-8 ([K]) or "arithmetic" 1-2-3-4 ([B],[C] by agreement).
Progression = Literal["geometric", "arithmetic"]
#: §4 item 6: "both" no doubling at all in the Crawford game ([F],[K],[M]); "trailer" only
#: the opponent of the player one point short may not double ([D]).
CrawfordScope = Literal["both", "trailer"]

_CHOICES: dict[str, tuple[Any, ...]] = {
    "opening": get_args(OpeningRule),
    "refusal_cost": get_args(RefusalCost),
    "progression": get_args(Progression),
    "crawford_scope": get_args(CrawfordScope),
}


@dataclass(frozen=True, slots=True)
class MatchSettings:
    """How a match is played beyond the move rules (`RuleSettings`) and win types."""

    opening: OpeningRule = "auto"
    cube: bool = True
    #: highest cube value (§4 item 1: 64 in [A],[J]); 0 = no limit ([E],[M]).
    cube_limit: int = 64
    refusal_cost: RefusalCost = "before"
    progression: Progression = "geometric"
    #: beaver / raccoon (§2.1.9): money play only ([A],[M]); off unless agreed.
    beaver: bool = False
    raccoon: bool = False
    #: allow them in match play too: [J]'s counter-double in long-nardy tournaments (the
    #: doubled player answers x4 and keeps the next doubling right), §2.3.9.
    beaver_in_matches: bool = False
    #: Jacoby rule (money only): mars and koks count single unless the cube was turned.
    jacoby: bool = False
    #: Crawford rule (matches only), on by default ([K],[M]).
    crawford: bool = True
    crawford_scope: CrawfordScope = "both"
    #: Holland rule ([M]): post-Crawford, the trailer doubles only after both sides have
    #: played two rolls.
    holland: bool = False
    #: automatic doubles on opening ties (money only, [E],[F]): at most this many (0 = off).
    auto_doubles: int = 0
    #: stake per point in money play (the money shown is points x stake).
    stake: float = 1.0
    #: seconds per move (None = no timer); with `timeout_loses` running out loses the game
    #: ([Q]'s 90-second rule, §2.3.9).
    move_seconds: float | None = None
    timeout_loses: bool = False
    #: long-nardy international tournament draw ([J], §1.7, §4 item 15): when the starter
    #: finishes, the other side gets one final turn; finishing too makes the game a draw.
    tournament_draw: bool = False
    rules: RuleSettings = DEFAULT_SETTINGS
    #: None = the variant family's defaults (`ResultSettings.for_family`).
    results: ResultSettings | None = field(default=None)

    def __post_init__(self) -> None:
        check_plain_types(self, "match setting")
        if not isinstance(self.rules, RuleSettings):
            raise ValueError("match setting rules must be a table of rule settings")
        if self.results is not None and not isinstance(self.results, ResultSettings):
            raise ValueError("match setting results must be a table of result settings")
        for name, allowed in _CHOICES.items():
            if getattr(self, name) not in allowed:
                raise ValueError(f"match setting {name} must be one of {allowed}")
        if self.cube_limit < 0 or self.auto_doubles < 0:
            raise ValueError("cube_limit and auto_doubles cannot be negative")
        if self.move_seconds is not None and self.move_seconds <= 0:
            raise ValueError("move_seconds must be positive")

    def result_settings(self, family: str) -> ResultSettings:
        return self.results or ResultSettings.for_family(family)

    def next_cube_value(self, value: int) -> int:
        return value + 1 if self.progression == "arithmetic" else value * 2

    def within_limit(self, value: int) -> bool:
        return self.cube_limit == 0 or value <= self.cube_limit

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["rules"] = asdict(self.rules)
        data["results"] = None if self.results is None else self.results.to_dict()
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any], family: str = "backgammon") -> MatchSettings:
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown match setting(s): {', '.join(unknown)}")
        values = dict(data)
        if isinstance(values.get("rules"), dict):
            values["rules"] = RuleSettings.from_dict(values["rules"])
        if isinstance(values.get("results"), dict):
            values["results"] = ResultSettings.from_dict(values["results"], family)
        return replace(cls(), **values)


DEFAULT_MATCH_SETTINGS = MatchSettings()
