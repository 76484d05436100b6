"""Rule settings where the sources disagree (DIGEST §4). Defaults are documented per field."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, Literal

HitAndHideBearOff = Literal["if_forced", "allowed", "forbidden"]


@dataclass(frozen=True, slots=True)
class RuleSettings:
    """Switches of the move rules. All have defaults; build with `RuleSettings.from_dict`."""

    #: Caucasian variant (§2.2, §4 item 19): may the checker that hit in its own home be borne
    #: off in the same turn? "if_forced" (default, [E]): only when no other play exists;
    #: "allowed": always; "forbidden": never, even with doubles ("prison rules", §2.1.6 d).
    hit_and_hide_bear_off: HitAndHideBearOff = "if_forced"

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RuleSettings:
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown rule setting(s): {', '.join(unknown)}")
        return replace(cls(), **data)


DEFAULT_SETTINGS = RuleSettings()
