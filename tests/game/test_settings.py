"""Match settings: defaults, validation and the JSON round trip the event log relies on."""

from __future__ import annotations

import json

import pytest

from nardy_pi.game.settings import MatchSettings
from nardy_pi.rules.results import ResultSettings


def test_defaults_follow_the_majority_readings() -> None:
    s = MatchSettings()
    defaults = (s.cube_limit, s.refusal_cost, s.progression, s.crawford)
    assert defaults == (64, "before", "geometric", True)
    assert not (s.beaver or s.raccoon or s.jacoby or s.holland or s.auto_doubles)
    assert s.result_settings("long") == ResultSettings(koks_rule="none")
    assert s.result_settings("backgammon").koks_rule == "bar_or_winner_home"


def test_round_trip_through_json_with_nested_settings() -> None:
    s = MatchSettings.from_dict(
        {
            "cube_limit": 0,
            "beaver": True,
            "move_seconds": 90.0,
            "timeout_loses": True,
            "rules": {"head_exception": "doubles_any_turn"},
            "results": {"mars_rule": "not_all_home", "home_mars": True},
        },
        family="long",
    )
    assert s.within_limit(4096) and s.rules.head_exception == "doubles_any_turn"
    assert s.results is not None and s.results.koks_rule == "none"  # long family default kept
    again = MatchSettings.from_dict(json.loads(json.dumps(s.to_dict())), family="long")
    assert again == s


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        ({"cube_limt": 64}, "unknown match setting"),
        ({"refusal_cost": "half"}, "refusal_cost"),
        ({"opening": "coin"}, "opening"),
        ({"move_seconds": 0}, "positive"),
        ({"auto_doubles": -1}, "negative"),
    ],
)
def test_bad_settings_are_refused(data: dict, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        MatchSettings.from_dict(data)
