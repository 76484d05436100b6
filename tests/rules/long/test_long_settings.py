"""Long-family rule settings: documented defaults and validated values (DIGEST §4)."""

from __future__ import annotations

import pytest

from nardy_pi.rules.settings import DEFAULT_SETTINGS, RuleSettings


def test_defaults_are_the_documented_readings() -> None:
    assert DEFAULT_SETTINGS.head_exception == "first_turn_if_needed"  # [L]/[O]
    assert DEFAULT_SETTINGS.six_block == "opponent_ahead"  # reading (a)
    assert DEFAULT_SETTINGS.higher_die_first is False  # only [Q] has it
    assert DEFAULT_SETTINGS.oversize_bear_off == "highest"
    assert DEFAULT_SETTINGS.gulbar_extra_throw == "all_played"  # [B], [N]
    assert DEFAULT_SETTINGS.ladder_moves_per_double == 2  # [B]/[G]: 4-4 -> 4,4,5,5,6,6


def test_from_dict_builds_other_readings() -> None:
    s = RuleSettings.from_dict({"six_block": "until_home", "head_exception": "doubles_any_turn"})
    assert s.six_block == "until_home" and s.head_exception == "doubles_any_turn"


@pytest.mark.parametrize(
    "bad",
    [
        {"six_block": "b"},
        {"head_exception": "always"},
        {"higher_die_first": "yes"},
        {"higher_die_first": 1},
        {"oversize_bear_off": "lowest"},
        {"gulbar_extra_throw": True},
        {"ladder_moves_per_double": 3},
        {"ladder_moves_per_double": True},
    ],
)
def test_bad_values_are_rejected_with_the_choices(bad: dict) -> None:
    name = next(iter(bad))
    with pytest.raises(ValueError, match=f"{name} must be one of"):
        RuleSettings.from_dict(bad)


def test_unknown_setting_is_rejected() -> None:
    with pytest.raises(ValueError, match="unknown rule setting"):
        RuleSettings.from_dict({"six_blocks": "until_home"})
