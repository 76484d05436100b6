"""Win types by the DIGEST's definitions (§1.8, §2.1.7, §2.3.8, §4 items 7-10)."""

from __future__ import annotations

import pytest

from nardy_pi.rules.position import Position
from nardy_pi.rules.results import ResultSettings, WinType, classify_win, win_points
from nardy_pi.rules.sides import Side

W, B = Side.WHITE, Side.BLACK


def short_position(black: dict[int, int], black_bar: int = 0, black_off: int = 0) -> Position:
    """White has borne off everything; black's checkers by *black's own* point number
    (black own p = physical 25 - p in short nardy)."""
    points = [0] * 24
    for own, n in black.items():
        points[25 - own - 1] -= n
    return Position(tuple(points), (0, black_bar), (15, black_off), B)


def long_position(black: dict[int, int], black_off: int = 0) -> Position:
    """Long nardy: black own p is physical (p + 11) % 24 + 1; own 24 (the head) = 12."""
    points = [0] * 24
    for own, n in black.items():
        points[(own + 11) % 24] -= n
    return Position(tuple(points), (0, 0), (15, black_off), B)


# --- backgammon family, default definitions ([A],[E],[K],[M]) ------------------------------
def test_short_single_when_loser_bore_off_one() -> None:
    pos = short_position({6: 14}, black_off=1)
    assert win_points(pos, "backgammon", W) == (WinType.SINGLE, 1)


def test_short_gammon_when_loser_bore_off_none_and_all_clear() -> None:
    pos = short_position({6: 10, 12: 5})
    assert win_points(pos, "backgammon", W) == (WinType.GAMMON, 2)


def test_short_gammon_even_when_every_checker_is_home() -> None:
    # reading B of §4 item 7: borne off none -> mars, though all are home
    assert classify_win(short_position({1: 15}), "backgammon", W) is WinType.GAMMON


def test_short_backgammon_with_a_checker_in_winners_home() -> None:
    # black's own 19-24 is white's home (physical 6..1)
    pos = short_position({6: 14, 20: 1})
    assert win_points(pos, "backgammon", W) == (WinType.BACKGAMMON, 3)


def test_short_backgammon_with_a_checker_on_the_bar() -> None:
    pos = short_position({6: 14}, black_bar=1)
    assert classify_win(pos, "backgammon", W) is WinType.BACKGAMMON


def test_short_winner_black_is_mirrored() -> None:
    # white loses with a checker on physical 20 = black's home (black own 5)
    points = [0] * 24
    points[19] = 1
    points[5] = 14
    pos = Position(tuple(points), (0, 0), (0, 15), W)
    assert classify_win(pos, "backgammon", B) is WinType.BACKGAMMON


# --- long nardy ---------------------------------------------------------------------------
def test_long_defaults_are_oin_and_mars_only() -> None:
    assert win_points(long_position({3: 14}, black_off=1), "long", W) == (WinType.SINGLE, 1)
    # no koks by default ([J],[F]): even a checker left on the head is only a mars
    assert win_points(long_position({24: 1, 3: 14}), "long", W) == (WinType.GAMMON, 2)


def test_long_q_reading_mars_home_mars_and_koks() -> None:
    q = ResultSettings.from_dict(
        {"mars_rule": "not_all_home", "koks_rule": "start_untouched", "home_mars": True},
        "long",
    )
    assert win_points(long_position({3: 15}), "long", W, q) == (WinType.HOME_MARS, 4)
    assert win_points(long_position({3: 14, 10: 1}), "long", W, q) == (WinType.GAMMON, 2)
    assert win_points(long_position({24: 2, 3: 13}), "long", W, q) == (WinType.BACKGAMMON, 3)
    assert win_points(long_position({3: 14}, black_off=1), "long", W, q) == (WinType.SINGLE, 1)


def test_home_mars_multiplier_follows_the_setting() -> None:
    c = ResultSettings(mars_rule="not_all_home", koks_rule="none", home_mars=True,
                       home_mars_points=3)  # fmt: skip
    assert win_points(long_position({1: 15}), "long", W, c) == (WinType.HOME_MARS, 3)
    # without a home mars, reading A counts "all home, none off" as no mars at all
    a = ResultSettings(mars_rule="not_all_home", koks_rule="none")
    assert classify_win(long_position({1: 15}), "long", W, a) is WinType.SINGLE


def test_long_koks_by_bar_or_home_reading() -> None:
    s = ResultSettings.from_dict({"koks_rule": "bar_or_winner_home"}, "long")
    # white's home (physical 1-6) is black's own 13-18
    assert classify_win(long_position({14: 1, 3: 14}), "long", W, s) is WinType.BACKGAMMON


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown result setting"):
        ResultSettings.from_dict({"marz_rule": "none_off"})
    with pytest.raises(ValueError, match="mars_rule"):
        ResultSettings(mars_rule="sometimes")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="positive"):
        ResultSettings(koks_points=0)
