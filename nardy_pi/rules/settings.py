"""Rule settings where the sources disagree (DIGEST §4). Defaults are documented per field."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, Literal, get_args

from nardy_pi.rules.field_types import check_plain_types

HitAndHideBearOff = Literal["if_forced", "allowed", "forbidden"]
HeadException = Literal[
    "first_turn_if_needed", "doubles_any_turn", "first_turn_small_doubles", "none"
]
SixBlockReading = Literal["opponent_ahead", "until_home"]
OversizeBearOff = Literal["highest", "any"]
GulbarExtraThrow = Literal["all_played", "always"]

# Allowed values per field, checked on construction (a typo must not silently change a rule).
_ALLOWED: dict[str, tuple[Any, ...]] = {
    "hit_and_hide_bear_off": get_args(HitAndHideBearOff),
    "head_exception": get_args(HeadException),
    "six_block": get_args(SixBlockReading),
    "higher_die_first": (False, True),
    "oversize_bear_off": get_args(OversizeBearOff),
    "gulbar_extra_throw": get_args(GulbarExtraThrow),
    "ladder_moves_per_double": (2, 4),
}


@dataclass(frozen=True, slots=True)
class RuleSettings:
    """Switches of the move rules. All have defaults; build with `RuleSettings.from_dict`."""

    #: Caucasian variant (§2.2, §4 item 19): may the checker that hit in its own home be borne
    #: off in the same turn? "if_forced" (default, [E]): only when no other play exists;
    #: "allowed": always; "forbidden": never, even with doubles ("prison rules", §2.1.6 d).
    hit_and_hide_bear_off: HitAndHideBearOff = "if_forced"

    #: Long nardy head rule exception (§2.3.5, §4 item 13). One checker leaves the head per
    #: turn; a second may leave:
    #: "first_turn_if_needed" (default): on a side's first turn, only when one checker alone
    #: cannot play the roll in full (reproduces every worked example of [L] and [O]);
    #: "doubles_any_turn" ([J]): on 3-3, 4-4 and 6-6 on any turn;
    #: "first_turn_small_doubles" ([F] FAQ): on a first turn of 5-5, 2-2 or 1-1;
    #: "none": never.
    head_exception: HeadException = "first_turn_if_needed"

    #: Long nardy six-block rule (§2.3.4, §4 item 14). Six or more own points in a row are:
    #: "opponent_ahead" (default, reading (a) of [L],[O],[Q],[F]): illegal unless at least one
    #: opposing checker is already past the block; "until_home" (reading (b), [J]): illegal
    #: while an opposing checker is behind it and the opponent has no checker in his home yet.
    six_block: SixBlockReading = "opponent_ahead"

    #: Long nardy [Q] (§2.3.7): in a turn that bears off or starts with every checker home,
    #: the larger die is played first (unless it cannot be). Off by default (only [Q] has it).
    higher_die_first: bool = False

    #: Bearing off with a die larger than every checker's distance (§1.6, §4 item 17):
    #: "highest" (default, the generic rule): only from the highest occupied home point;
    #: "any" ([Q]'s "from any other point"): from any point, once no checker stands on the
    #: rolled point or above it.
    oversize_bear_off: OversizeBearOff = "highest"

    #: Gulbar family (§2.4, §4 item 28): a double earns another throw "all_played" (default,
    #: [B],[N]: only when every movement of it was played) or "always" ([F]).
    gulbar_extra_throw: GulbarExtraThrow = "all_played"

    #: Mad gulbar / crazy long nardy (§2.5-2.6, §4 item 29): movements per double value in the
    #: ladder of doubles. 2 (default): [B]/[G]'s example 4-4 -> 4,4,5,5,6,6; 4: every double in
    #: the ladder is played as a full double (4-4 -> four 4s, four 5s, four 6s).
    ladder_moves_per_double: int = 2

    def __post_init__(self) -> None:
        for name, allowed in _ALLOWED.items():
            value = getattr(self, name)
            # bool is an int subtype: reject True/False where 2/4 are meant and vice versa.
            if value not in allowed or type(value) is not type(allowed[0]):
                choices = ", ".join(repr(a) for a in allowed)
                raise ValueError(f"rule setting {name} must be one of {choices}, got {value!r}")
        check_plain_types(self, "rule setting")  # the fields without a list of choices

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RuleSettings:
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown rule setting(s): {', '.join(unknown)}")
        return replace(cls(), **data)


DEFAULT_SETTINGS = RuleSettings()
