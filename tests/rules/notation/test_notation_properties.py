"""Property tests: parsers never crash on any text, and format -> parse is the identity."""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from nardy_pi.rules.movegen import legal_plays
from nardy_pi.rules.notation.gnubg_id import (
    GameState,
    MatchId,
    decode_match_id,
    decode_position_id,
    encode_match_id,
    encode_position_id,
    parse_gnubg_id,
)
from nardy_pi.rules.notation.move_text import MoveSegment, find_play, parse_move_text
from nardy_pi.rules.notation.xgid import (
    XgidRecord,
    format_short,
    format_xgid,
    parse_position,
    parse_xgid,
)
from nardy_pi.rules.position import Position
from nardy_pi.rules.sides import Side

VALID_XGID = "XGID=-b----E-C---eE---c-e----B-:1:1:-1:52:3:2:0:7:10"
XGID_ALPHABET = "-ABCDEFGHIJKLMNOPQabcdefghijklmnopq:0123456789+-XGIDBR= "
B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
MOVE_ALPHABET = "0123456789/*() barofBAROF-"
START_PLAYS = legal_plays(Position.start(), (6, 6), "backgammon")

FAST = settings(max_examples=200, deadline=None)


def returns_or_explains(parse: Callable[[str], object], text: str) -> None:
    """The contract: a parser returns, or raises ValueError with a message - nothing else."""
    try:
        parse(text)
    except ValueError as exc:
        assert str(exc)


@st.composite
def mutated(draw: st.DrawFn, valid: str, alphabet: str) -> str:
    """`valid` with a few characters replaced, inserted or deleted: near misses reach deep."""
    chars = list(valid)
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(chars)))
        op = draw(st.sampled_from(["replace", "insert", "delete"]))
        ch = draw(st.sampled_from(alphabet))
        if op == "insert" or i == len(chars):
            chars.insert(i, ch)
        elif op == "replace":
            chars[i] = ch
        else:
            del chars[i]
    return "".join(chars)


any_text = st.text(max_size=80)


@FAST
@given(st.one_of(any_text, st.text(XGID_ALPHABET, max_size=70), mutated(VALID_XGID, XGID_ALPHABET)))
def test_xgid_parsers_never_crash(text: str) -> None:
    for variant in ("backgammon", "hypergammon", "long"):
        returns_or_explains(lambda t, v=variant: parse_xgid(t, v), text)
        returns_or_explains(lambda t, v=variant: parse_position(t, v), text)


@FAST
@given(st.one_of(any_text, st.text(B64, min_size=11, max_size=15)))
def test_gnubg_id_parsers_never_crash(text: str) -> None:
    returns_or_explains(decode_position_id, text)
    returns_or_explains(decode_match_id, text)
    returns_or_explains(parse_gnubg_id, text)
    returns_or_explains(parse_gnubg_id, text[:14] + ":" + text[14:])


@FAST
@given(
    st.one_of(
        any_text, st.text(MOVE_ALPHABET, max_size=30), mutated("24/18*/13 6/5(2)", MOVE_ALPHABET)
    )
)
def test_move_text_parsers_never_crash(text: str) -> None:
    returns_or_explains(parse_move_text, text)
    returns_or_explains(lambda t: find_play(START_PLAYS, t), text)


# --- round trips ------------------------------------------------------------------------------


@st.composite
def positions(draw: st.DrawFn, checkers: int = 15) -> Position:
    """Any physical arrangement: each side's checkers spread over points (1-24), bar and off."""
    points = [0] * 24
    bar = [0, 0]
    off = [0, 0]
    for side in Side:
        free = [p for p in range(1, 25) if points[p - 1] * side.sign >= 0]
        slots = st.sampled_from([0, 25, *free, *free])  # 0 = off, 25 = bar; points likelier
        for slot in draw(st.lists(slots, min_size=checkers, max_size=checkers)):
            if slot == 0:
                off[side] += 1
            elif slot == 25:
                bar[side] += 1
            else:
                points[slot - 1] += side.sign
    turn = draw(st.sampled_from(list(Side)))
    return Position(tuple(points), (bar[0], bar[1]), (off[0], off[1]), turn)


@st.composite
def records(draw: st.DrawFn) -> XgidRecord:
    length = draw(st.sampled_from([0, 1, 3, 7, 15, 99]))
    if length:
        score = (draw(st.integers(0, length - 1)), draw(st.integers(0, length - 1)))
        rules = draw(st.integers(0, 1)) if length - 1 in score else 0
    else:
        score, rules = (0, 0), draw(st.integers(0, 3))
    action = draw(st.sampled_from([None, None, "D", "B", "R"]))
    dice = None if action else draw(st.none() | st.tuples(st.integers(1, 6), st.integers(1, 6)))
    cube = draw(st.integers(0, 15))
    owner = draw(st.sampled_from([None, Side.WHITE, Side.BLACK]))
    return XgidRecord(
        draw(positions()), cube, owner, dice, action, score, rules, length, draw(st.integers(0, 15))
    )


@FAST
@given(records())
def test_xgid_round_trip(record: XgidRecord) -> None:
    text = format_xgid(record)
    assert parse_xgid(text) == record
    assert parse_xgid(text[len("XGID=") :]) == record
    assert parse_position(format_short(record.position)) == (record.position, None)


@FAST
@given(positions())
def test_position_id_round_trip(position: Position) -> None:
    assert decode_position_id(encode_position_id(position), position.turn) == position


@FAST
@given(positions(checkers=3))
def test_position_id_round_trip_hypergammon(position: Position) -> None:
    text = encode_position_id(position, "hypergammon")
    assert decode_position_id(text, position.turn, "hypergammon") == position


sides = st.sampled_from(list(Side))
match_ids = st.builds(
    MatchId,
    cube_log2=st.integers(0, 15),
    cube_owner=st.none() | sides,
    on_roll=sides,
    crawford=st.booleans(),
    game_state=st.sampled_from(list(GameState)),
    to_act=sides,
    double_offered=st.booleans(),
    resignation=st.integers(0, 3),
    dice=st.none() | st.tuples(st.integers(1, 6), st.integers(1, 6)).map(
        lambda d: (max(d), min(d))
    ),
    match_length=st.integers(0, 32767),
    score=st.tuples(st.integers(0, 32767), st.integers(0, 32767)),
    jacoby=st.booleans(),
)


@FAST
@given(match_ids)
def test_match_id_round_trip(match: MatchId) -> None:
    text = encode_match_id(match)
    assert len(text) == 12
    assert decode_match_id(text) == match


def _point_text(p: int, rng_choice: bool) -> str:
    if p == 25:
        return "bar" if rng_choice else "25"
    if p == 0:
        return "off" if rng_choice else "0"
    return str(p)


@st.composite
def move_texts(draw: st.DrawFn) -> tuple[str, list[MoveSegment]]:
    parts, segments = [], []
    for _ in range(draw(st.integers(0, 4))):
        path = sorted(set(draw(st.lists(st.integers(0, 25), min_size=2, max_size=4))), reverse=True)
        if len(path) < 2:
            continue
        count = draw(st.integers(1, 4))
        hits = [draw(st.booleans()) and p != 0 for p in path[1:]]
        pieces = [_point_text(path[0], draw(st.booleans()))]
        for p, hit in zip(path[1:], hits, strict=True):
            pieces.append(_point_text(p, draw(st.booleans())) + ("*" if hit else ""))
        parts.append("/".join(pieces) + (f"({count})" if count > 1 else ""))
        segments.extend(
            MoveSegment(a, b, hit, count)
            for a, b, hit in zip(path, path[1:], hits, strict=False)
        )
    return " ".join(parts), segments


@FAST
@given(move_texts())
def test_move_text_parses_what_it_says(case: tuple[str, list[MoveSegment]]) -> None:
    text, segments = case
    assert parse_move_text(text) == segments
