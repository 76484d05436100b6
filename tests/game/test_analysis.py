"""The analysis extra against gnubg-nn itself, and its message when the extra is missing."""

from __future__ import annotations

import subprocess
import sys

import gnubg_nn
import pytest

from nardy_pi.game.analysis import AnalysisUnavailable, best_play, cube_advice
from nardy_pi.rules.movegen import legal_plays
from nardy_pi.rules.position import Position
from nardy_pi.rules.sides import Side


def test_best_play_is_gnubgs_choice_among_our_legal_plays() -> None:
    start = Position.start("backgammon", Side.BLACK)
    for dice in ((3, 1), (6, 5), (4, 4), (2, 1)):
        result = best_play(start, dice)
        assert result.play is not None
        assert result.play in legal_plays(start, dice, "backgammon")
        board = gnubg_nn.board_from_position_id("4HPwATDgc/ABMA")
        steps = gnubg_nn.best_move(board, *dice)
        moved = sorted(s for s, _ in steps)
        assert sorted(s.src for s in result.play.steps) == moved
        assert result.probabilities is not None and 0.3 < result.probabilities.win < 0.7


def test_cube_advice_in_a_won_race_says_double_and_pass() -> None:
    # white to move with 3 checkers on its 1-2 points; black has 12 left (3 borne off, so
    # no gammon to play on for): a sure win, too good for black to take
    points = [0] * 24
    points[0], points[1] = 2, 1
    points[18] = -9  # black's own 6 is physical 19
    points[20] = -3
    pos = Position(tuple(points), (0, 0), (12, 3), Side.WHITE)
    advice = cube_advice(pos, "backgammon", match_length=7, score=(0, 0))
    assert advice.probabilities.win > 0.95
    assert advice.double is True and advice.take is False
    assert cube_advice(pos).double is None  # money play: chances only


def test_long_nardy_is_refused_with_a_reason() -> None:
    with pytest.raises(AnalysisUnavailable, match="backgammon family"):
        best_play(Position.start("long"), (6, 5), "long")


def test_without_the_extra_a_clear_message_not_an_import_error() -> None:
    code = (
        "import sys; sys.modules['gnubg_nn'] = None\n"
        "from nardy_pi.game.analysis import AnalysisUnavailable, best_play\n"
        "from nardy_pi.rules.position import Position\n"
        "try:\n"
        "    best_play(Position.start('backgammon'), (3, 1))\n"
        "except AnalysisUnavailable as exc:\n"
        "    print('UNAVAILABLE', exc)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60, check=True)  # fmt: skip
    assert out.stdout.startswith("UNAVAILABLE") and "nardy-pi[engine]" in out.stdout
