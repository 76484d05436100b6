"""Move text: parsing, and finding the legal play a text denotes (ours and gnubg's texts)."""

from __future__ import annotations

import random
import re

import gnubg
import pytest

from nardy_pi.rules.errors import IllegalPlayError
from nardy_pi.rules.movegen import legal_plays
from nardy_pi.rules.notation.gnubg_id import gnubg_board
from nardy_pi.rules.notation.move_text import MoveSegment, find_play, parse_move_text
from nardy_pi.rules.play import Play
from nardy_pi.rules.position import Position

S = MoveSegment


@pytest.mark.parametrize(
    ("text", "segments"),
    [
        ("24/18 13/11", [S(24, 18), S(13, 11)]),
        ("bar/22*", [S(25, 22, True)]),
        ("Bar/22* 6/5", [S(25, 22, True), S(6, 5)]),
        ("25/22", [S(25, 22)]),
        ("6/off", [S(6, 0)]),
        ("6/0 5/OFF", [S(6, 0), S(5, 0)]),
        ("13/11(2)", [S(13, 11, False, 2)]),
        ("13/11 (2)", [S(13, 11, False, 2)]),
        ("24/18*/13", [S(24, 18, True), S(18, 13)]),
        ("24/13", [S(24, 13)]),
        ("8/5*(2) 6/5(2)", [S(8, 5, True, 2), S(6, 5, False, 2)]),
        ("  ", []),
        ("", []),
    ],
)
def test_parse_forms(text: str, segments: list[MoveSegment]) -> None:
    assert parse_move_text(text) == segments


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("13-11", "needs a start and an end point"),
        ("13/", "empty point"),
        ("13/x", "'x' is not a point"),
        ("30/24", "'30' is not a point"),
        ("13/11(5)", "repeat count in '13/11(5)' must be 1-4"),
        ("13/11(x)", "repeat count"),
        ("13/11)", "cannot read"),
        ("11/13", "from higher to lower points, not 11/13"),
        ("off/3", "a borne-off checker cannot move"),
        ("3/bar", "cannot move onto the bar"),
        ("13*/11", "'*' marks a hit where a checker lands"),
        ("3/off*", "nothing can be hit off the board"),
    ],
)
def test_parse_errors(text: str, reason: str) -> None:
    with pytest.raises(ValueError, match=re.escape(reason)):
        parse_move_text(text)


def _step_text(play: Play) -> str:
    """The way gnubg's .mat export writes a play: every checker step on its own."""
    parts = []
    for s in play.steps:
        src = "bar" if s.src == 25 else str(s.src)
        dst = "off" if s.dst == 0 else str(s.dst)
        parts.append(f"{src}/{dst}{'*' if s.hit else ''}")
    return " ".join(parts)


def _sample(plays: list[Play], rng: random.Random, k: int = 4) -> list[Play]:
    # A few plays per turn: finding each of hundreds of plays among hundreds is quadratic.
    return plays if len(plays) <= k else rng.sample(plays, k)


def test_every_legal_play_is_found_from_its_texts(short_turns, long_turns) -> None:
    rng = random.Random(8)
    checked = 0
    for turn in [*short_turns, *long_turns]:
        for play in _sample(turn.plays, rng):
            assert find_play(turn.plays, play.notation) is play, play.notation
            assert find_play(turn.plays, _step_text(play)) is play, _step_text(play)
            checked += 1
    assert checked > 10000


def test_gnubg_texts_find_the_same_play(short_turns) -> None:
    """gnubg formats each of our plays itself; the text must lead back to that play."""
    rng = random.Random(9)
    checked = 0
    for turn in short_turns:
        board = gnubg_board(turn.position, turn.variant)
        for play in _sample(turn.plays, rng):
            moves = tuple((s.src, s.dst) for s in play.steps)
            text = gnubg.movetupletostring(moves, board)
            assert find_play(turn.plays, text) is play, (text, play.notation)
            segments = parse_move_text(play.notation)
            expanded = [(s.src, s.dst) for s in segments for _ in range(s.count)]
            assert sorted(gnubg.parsemove(play.notation)) == sorted(expanded)
            checked += 1
    assert checked > 8000


def _blot_position() -> Position:
    """White runner on 24 and 14 on the 6; a black blot on white's 18, the rest on white's 23."""
    points = [0] * 24
    points[23], points[5] = 1, 14
    points[17], points[22] = -1, -14
    return Position(tuple(points))


def test_hit_marks_and_named_points_choose_between_same_checker_plays() -> None:
    plays = legal_plays(_blot_position(), (6, 5), "backgammon")
    hitting = find_play(plays, "24/18*/13")
    quiet = find_play(plays, "24/13")
    assert hitting is not quiet
    assert hitting.result.bar == (0, 1) and quiet.result.bar == (0, 0)
    assert find_play(plays, "24/19/13") is quiet
    assert find_play(plays, "24/18 18/13") is hitting  # the named point outweighs a lost '*'
    choice = "ambiguous: it could be 24/13 or 24/18*/13"
    with pytest.raises(IllegalPlayError, match=re.escape(choice)):
        find_play(plays, "24/13*")


def test_a_missing_star_is_forgiven_when_only_one_play_fits() -> None:
    plays = legal_plays(_blot_position(), (6, 5), "backgammon")
    assert find_play(plays, "24/18 6/1") is find_play(plays, "24/18* 6/1")


def test_find_play_errors() -> None:
    plays = legal_plays(Position.start(), (6, 5), "backgammon")
    with pytest.raises(IllegalPlayError, match="no legal play matches '24/18 24/19'"):
        find_play(plays, "24/18 24/19")  # black holds white's 19
    with pytest.raises(IllegalPlayError, match="no move given"):
        find_play(plays, " ")
    with pytest.raises(IllegalPlayError, match="cannot be played at all"):
        find_play([], "24/18")
    with pytest.raises(ValueError, match="not a point"):
        find_play(plays, "24/18 13/nine")
