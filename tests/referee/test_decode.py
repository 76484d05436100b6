"""Decoding a reading with the rules (referee/decode.py), alone and inside the referee."""

from __future__ import annotations

from dataclasses import replace

import pytest

from nardy_pi.referee import Referee
from nardy_pi.referee import events as ev
from nardy_pi.referee.board import board_key
from nardy_pi.referee.decode import SLOTS, DecodeRule, decode, slot_counts
from nardy_pi.rules.position import Position
from nardy_pi.rules.sides import Side
from tests.referee.table import Table, die


def probs(board: tuple[int, ...], sure: float = 0.98,
          doubts: dict[int, tuple[int, float]] | None = None) -> tuple[tuple[float, ...], ...]:
    """A reader's table for `board`: each slot `sure` of its true count, the rest spread;
    `doubts[slot] = (count, p)` makes the reader give `count` probability p instead."""
    table = []
    for slot, true in enumerate(slot_counts(board)):
        row = [(1 - sure) / 30] * 31
        row[true + 15] = sure
        if doubts and slot in doubts:
            count, p = doubts[slot]
            row = [(1 - p - 0.01) / 29] * 31
            row[count + 15] = p
            row[true + 15] = 0.01 if count != true else p
        table.append(tuple(row))
    return tuple(table)


START = board_key(Position.start("backgammon"))


def test_a_doubtful_slot_is_read_as_the_allowed_board() -> None:
    # Point 6 holds 5 white; the reader leans to 4 (0.55) but 5 is the only allowed board.
    doubt = probs(START, doubts={5: (4, 0.55)})
    seen = tuple(c - (1 if i == 5 else 0) for i, c in enumerate(START))
    out = decode(doubt, seen, [START])
    assert out.snapped and out.board == START
    assert 0 < out.gap < 6


def test_a_clear_reading_stands_against_the_rules() -> None:
    # A checker played 6/4 where only 6/5 was allowed: the reader is sure of both points.
    moved = list(START)
    moved[5], moved[3] = 4, 1
    moved = tuple(moved)
    sure = probs(moved, sure=0.995)
    out = decode(sure, moved, [START])
    assert not out.snapped and out.board == moved and out.gap > DecodeRule().margin


def test_one_surely_misread_stack_does_not_overrule_the_rules() -> None:
    # The reader is 98% sure point 6 holds 4 (7.3 nats against 5): one stack misread, or a
    # checker lifted. Held-out boards misread single stacks with such confidence, so one slot
    # alone no longer stands against the rules; the old margin of 6 let it.
    moved = tuple(c - (1 if i == 5 else 0) for i, c in enumerate(START))
    sure = probs(moved, sure=0.98)
    assert decode(sure, moved, [START]).board == START
    assert decode(sure, moved, [START], DecodeRule(margin=6.0)).board == moved


def test_a_bar_read_empty_with_confidence_is_left_to_the_rules() -> None:
    # An allowed board with a black checker on the bar (one of its two on point 1). The reader
    # reads every point right but is all but sure the bar is empty, as it is on most occupied
    # bars of held-out boards. The bar's floor caps what that slot costs.
    hit = list(START)
    hit[0], hit[25] = -1, 1
    hit = tuple(hit)
    reading = list(probs(hit))
    reading[25] = tuple(1.0 - 1e-9 if k == 15 else 1e-9 / 30 for k in range(31))  # bar: 0
    empty_bar = (*hit[:25], 0, *hit[26:])
    assert decode(reading, empty_bar, [hit]).board == hit
    assert decode(reading, empty_bar, [hit], DecodeRule(bar_floor=1e-6)).board == empty_bar


def test_decode_rules_refuse_impossible_numbers() -> None:
    with pytest.raises(ValueError, match="floors"):
        DecodeRule(floor=0.0)
    with pytest.raises(ValueError, match="margin"):
        DecodeRule(margin=-1.0)


def test_the_likeliest_of_several_allowed_boards_wins() -> None:
    a = list(START)
    a[7], a[4] = 2, 1  # 8/5 played: one checker from 8 to 5
    b = list(START)
    b[5], b[4] = 4, 1  # 6/5 played
    a, b = tuple(a), tuple(b)
    out = decode(probs(b, sure=0.9), b, [START, a, b])
    assert out.board == b and not out.snapped  # the reading is itself allowed
    out = decode(probs(b, doubts={5: (5, 0.5)}), a, [START, a, b])
    assert out.board == b


def test_bad_tables_are_refused_with_their_shape() -> None:
    with pytest.raises(ValueError, match="26 x 31"):
        decode(((0.5,) * 31,) * 3, START, [START])
    assert SLOTS == 26


def _after_31() -> Position:
    pts = list(Position.start("backgammon").points)
    pts[7] -= 1  # 8/5
    pts[5] -= 1  # 6/5
    pts[4] += 2
    return Position(tuple(pts), (0, 0), (0, 0))


def _after_31_played_6_4() -> Position:
    """One checker went to 4 instead of 5: 6/4 is not a 1 or a 3."""
    wrong = list(_after_31().points)
    wrong[4], wrong[3] = 1, 1
    return Position(tuple(wrong), (0, 0), (0, 0))


def _opened_31(board: Position) -> tuple[Referee, Table]:
    """White won the opening 3-1 and has left `board` on the table, the hand gone."""
    referee = Referee("backgammon")
    table = Table.start(referee)
    table.throw(die(3, "right"), die(1, "left"))
    assert referee.phase.name == "MOVE" and referee.position.turn is Side.WHITE
    table.hand()
    table.position = board
    return referee, table


def _play_frames(referee: Referee, table: Table, make) -> None:
    """Three settled frames of `make()` with the dice down, three after they are picked up."""
    for _ in range(3):
        table.now += 0.2
        table.events += referee.observe(make(), table.now)
    table.dice = ()
    for _ in range(3):
        table.now += 0.2
        table.events += referee.observe(make(), table.now)


def _events(table: Table, *kinds: type) -> list[ev.RefereeEvent]:
    return [e for e in table.events if isinstance(e, kinds)]


def _played_31(table: Table) -> ev.MovePlayed:
    """The move the referee took: 8/5 6/5, with no alarm on the way."""
    played = _events(table, ev.MovePlayed)
    assert played and played[0].after.points == _after_31().points
    assert not _events(table, ev.IllegalMove, ev.Desync)
    return played[0]


def _out_of_view(obs, probs_table):
    """The observation with point 13 outside the picture (None), as the reader gives it."""
    cut = tuple(None if i == 12 else c for i, c in enumerate(obs.points))
    return replace(obs, points=cut, off_white=None, off_black=None, point_probs=probs_table)


def _point_5_read_as_1(table: Table, **fields):
    """8/5 6/5 on the table; the reader doubts point 5 (2 or 1 checker) and guesses 1."""
    obs = table.observation()
    wrong = list(obs.points)
    wrong[4] = 1
    doubtful = probs(board_key(table.position), doubts={4: (1, 0.6)})
    return replace(obs, points=tuple(wrong), point_probs=doubtful, **fields)


def test_referee_accepts_a_legal_move_read_with_one_unsure_stack() -> None:
    # White makes its 5 point: 8/5 6/5. The reader doubts point 5 (2 or 1 checker).
    referee, table = _opened_31(_after_31())
    _play_frames(referee, table, lambda: _point_5_read_as_1(table))
    _played_31(table)


def test_referee_flags_an_illegal_board_it_reads_clearly() -> None:
    referee, table = _opened_31(_after_31_played_6_4())
    sure = probs(board_key(table.position), sure=0.995)
    _play_frames(referee, table, lambda: replace(table.observation(), point_probs=sure))
    assert _events(table, ev.IllegalMove)
    assert not _events(table, ev.MovePlayed)


def test_a_snapped_board_is_taken_whole_with_its_borne_off_counts() -> None:
    # The reader counts point 5 one short, so its observation says a white checker is borne
    # off (15 less those it saw). The board the rules give back has none off; taking the
    # points alone left the stale count and made a legal move look like a lost checker.
    referee, table = _opened_31(_after_31())
    _play_frames(referee, table, lambda: _point_5_read_as_1(table, off_white=1))
    assert _played_31(table).after.off == (0, 0)


def test_a_point_out_of_view_is_filled_in_by_the_rules() -> None:
    # Point 13 lies outside the picture (None). The rest of the frame shows 8/5 6/5, so the
    # legal board explains it and the move is taken; no frame raises.
    referee, table = _opened_31(_after_31())
    sure = probs(board_key(table.position))
    _play_frames(referee, table, lambda: _out_of_view(table.observation(), sure))
    _played_31(table)


def test_a_point_out_of_view_that_no_allowed_board_explains_gives_no_position() -> None:
    # 6/4 instead of 6/5, read clearly, with point 13 out of view: the referee cannot tell
    # the whole board, so it takes no position (as for an occluded frame) and raises nothing.
    referee, table = _opened_31(_after_31_played_6_4())
    sure = probs(board_key(table.position), sure=0.995)
    assert referee.decoded(_out_of_view(table.observation(), sure)) is None
    _play_frames(referee, table, lambda: _out_of_view(table.observation(), sure))
    assert not _events(table, ev.MovePlayed, ev.IllegalMove, ev.Desync)
    # Without the reader's probabilities nothing can fill the point in either.
    assert referee.decoded(_out_of_view(table.observation(), None)) is None
