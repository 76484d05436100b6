"""Parsing control requests: accepted values become typed commands, others say why (with a
message key the page can translate)."""

from __future__ import annotations

import pytest

from nardy_pi.commands import (
    PARSERS,
    Calibrate,
    CommandError,
    CubeAction,
    NewMatch,
    SettleGame,
    match_settings,
    parse_calibrate,
    parse_correct_position,
    parse_cube_action,
    parse_new_match,
    parse_undo,
)
from nardy_pi.game.settings import MatchSettings
from nardy_pi.rules.settings import RuleSettings


def test_new_match_defaults_and_aliases() -> None:
    assert parse_new_match({}) == NewMatch("backgammon", 0)
    settings = {"hit_and_hide_bear_off": "allowed"}
    parsed = parse_new_match({"variant": "shesh-besh", "match_length": 7, "settings": settings})
    assert parsed.variant == "long"
    assert parsed.match_length == 7
    assert parsed.rules == RuleSettings(hit_and_hide_bear_off="allowed")
    assert parsed.settings == MatchSettings(rules=parsed.rules)


def test_new_match_carries_cube_results_and_timer_settings() -> None:
    parsed = parse_new_match({
        "variant": "long", "match_length": 0, "jacoby": True,
        "settings": {"head_exception": "none", "beaver": True, "raccoon": True,
                     "auto_doubles": 2, "cube_limit": 16, "move_seconds": 90,
                     "timeout_loses": True, "results": {"mars_rule": "not_all_home",
                                                        "home_mars": True}},
    })
    s = parsed.settings
    assert s.rules.head_exception == "none"
    assert (s.jacoby, s.beaver, s.raccoon, s.auto_doubles, s.cube_limit) == (True, True, True,
                                                                           2, 16)
    assert (s.move_seconds, s.timeout_loses) == (90, True)
    assert s.results is not None and s.results.home_mars
    assert s.results.koks_rule == "none"  # the long family's default where not given
    with pytest.raises(ValueError, match="unknown setting"):
        match_settings({"beavers": True}, "backgammon")


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ({"match_length": 100}, "between 0 and 99"),
        ({"match_length": "5"}, "whole number"),
        ({"white_name": "  "}, "non-empty"),
        ({"white_name": "x" * 41}, "longer than 40"),
        ({"jacoby": True, "match_length": 5}, "money play only"),
        ({"settings": {"nope": 1}}, "unknown setting"),
        ({"settings": {"head_exception": "sometimes"}}, "head_exception"),
        ({"settings": []}, "JSON object"),
    ],
)
def test_new_match_rejections(body: dict, reason: str) -> None:
    with pytest.raises(CommandError, match=reason):
        parse_new_match(body)


def test_correct_position_checks_board_and_turn() -> None:
    board = "-" + "B" + "-" * 24
    parsed = parse_correct_position({"board": board, "turn": "black", "off_white": 13})
    assert (parsed.board, parsed.turn, parsed.off_white) == (board, "black", 13)
    with pytest.raises(CommandError, match="26 characters"):
        parse_correct_position({"board": "-" * 25, "turn": "white"})
    with pytest.raises(CommandError, match="bad character"):
        parse_correct_position({"board": "-" * 12 + "?" + "-" * 13, "turn": "white"})
    with pytest.raises(CommandError, match="turn"):
        parse_correct_position({"board": "-" * 26, "turn": "red"})


def test_cube_undo_calibrate() -> None:
    assert parse_cube_action({"action": "pass"}) == CubeAction("pass")
    assert parse_cube_action({"action": "beaver"}) == CubeAction("beaver")
    with pytest.raises(CommandError) as refused:
        parse_cube_action({"action": "redouble"})
    assert refused.value.key == "command.not_choice"
    assert refused.value.params["field"] == "action"
    assert PARSERS["settle"]({}) == SettleGame()
    with pytest.raises(CommandError, match="unknown field"):
        parse_undo({"steps": 2})
    corners = [[1, 2], [3.5, 4], [5, 6], [7, 8]]
    assert parse_calibrate({"corners": corners}) == Calibrate(
        ((1.0, 2.0), (3.5, 4.0), (5.0, 6.0), (7.0, 8.0))
    )
    with pytest.raises(CommandError, match="corner 2"):
        parse_calibrate({"corners": [[1, 2], [True, 4], [5, 6], [7, 8]]})
    with pytest.raises(CommandError, match="outside"):
        parse_calibrate({"corners": [[1, 2], [-3, 4], [5, 6], [7, 8]]})
