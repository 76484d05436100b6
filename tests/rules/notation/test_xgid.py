"""XGID and the long-nardy short form: known values, round trips, gnubg's reading, errors."""

from __future__ import annotations

import random
import re

import gnubg
import pytest

from nardy_pi.rules.notation.gnubg_id import format_gnubg_id, gnubg_board, match_id_from_xgid
from nardy_pi.rules.notation.xgid import (
    XgidRecord,
    format_position,
    format_short,
    format_xgid,
    parse_position,
    parse_xgid,
    position_xgid,
)
from nardy_pi.rules.position import Position
from nardy_pi.rules.sides import Side

START_BOARD = "-b----E-C---eE---c-e----B-"  # notation.md
LONG_START = "------------o-----------O-:1"  # cli.md


def random_record(position: Position, rng: random.Random) -> XgidRecord:
    """Cube, dice and score fields a real game could show (no pending double)."""
    cube = rng.choice([0, 0, 1, 2, 3, 6])
    owner = None if cube == 0 else rng.choice([None, Side.WHITE, Side.BLACK])
    dice = rng.choice([None, (rng.randint(1, 6), rng.randint(1, 6))])
    length = rng.choice([0, 0, 1, 3, 5, 7, 11, 25])
    if length == 0:
        score, rules = (0, 0), rng.randint(0, 3)
    else:
        score = (rng.randrange(length), rng.randrange(length))
        rules = int(length - 1 in score and rng.random() < 0.5)
        if rules:
            cube, owner = 0, None  # no cube in the Crawford game
    return XgidRecord(position, cube, owner, dice, None, score, rules, length, 10)


# --- known values ---------------------------------------------------------------------------


def test_start_position_from_notation_md() -> None:
    record = parse_xgid(f"XGID={START_BOARD}:0:0:1:00:0:0:0:0:10")
    assert record.position == Position.start("backgammon")
    assert record.dice is None and record.cube_value == 1 and record.cube_owner is None
    assert record.is_money and not record.jacoby


def test_every_field_is_read() -> None:
    record = parse_xgid(f"{START_BOARD}:2:-1:-1:52:3:6:1:7:9")
    assert record.turn is Side.BLACK
    assert record.cube_value == 4 and record.cube_owner is Side.BLACK
    assert record.dice == (5, 2) and record.cube_action is None
    assert record.score == (3, 6) and record.match_length == 7
    assert record.crawford and record.max_cube_log2 == 9


def test_money_rule_bits_and_cube_action() -> None:
    record = parse_xgid(f"{START_BOARD}:1:1:1:D:0:0:3:0:10")
    assert record.jacoby and record.beavers and not record.crawford
    assert record.cube_action == "D" and record.dice is None


def test_prefix_and_max_cube_are_optional() -> None:
    with_all = parse_xgid(f"XGID={START_BOARD}:0:0:1:00:0:0:0:0:10")
    assert parse_xgid(f"{START_BOARD}:0:0:1:00:0:0:0:0") == with_all
    assert parse_xgid(f"  xgid={START_BOARD}:0:0:1:00:0:0:0:0:10 \n") == with_all


def test_borne_off_checkers_are_implied() -> None:
    position, dice = parse_position("XGID=-a----E-------------------:0:0:-1:21:0:0:0:0:10")
    assert position.off == (10, 14) and position.turn is Side.BLACK and dice == (2, 1)
    assert position.points[0] == -1 and position.points[5] == 5


def test_long_nardy_short_form_from_cli_md() -> None:
    position, dice = parse_position(LONG_START, "long")
    assert position == Position.start("long", turn=Side.WHITE)
    assert dice is None
    assert format_short(position) == LONG_START
    black_first, _ = parse_position("------------o-----------O-:-1", "long")
    assert black_first.turn is Side.BLACK


def test_long_nardy_accepts_the_full_xgid_form() -> None:
    position, dice = parse_position("XGID=------------o-----------O-:0:0:1:63:0:0:0:0:10", "long")
    assert position == Position.start("long") and dice == (6, 3)


def test_variant_checker_count_is_used() -> None:
    position, _ = parse_position("-a" + "-" * 22 + "A-:1", "hypergammon")
    assert position.off == (2, 2)


# --- round trips ----------------------------------------------------------------------------


def test_format_parse_round_trip_on_played_positions(short_turns, long_turns) -> None:
    rng = random.Random(5)
    for turn in [*short_turns, *long_turns]:
        record = random_record(turn.position, rng)
        text = format_xgid(record)
        assert parse_xgid(text, turn.variant) == record
        assert format_xgid(parse_xgid(text, turn.variant)) == text
        assert parse_position(text, turn.variant) == (turn.position, record.dice)
    for turn in long_turns:
        assert parse_position(format_short(turn.position), "long") == (turn.position, None)


def test_cube_actions_round_trip() -> None:
    for action in ("D", "B", "R"):
        record = XgidRecord(Position.start(), 1, Side.WHITE, None, action, (0, 0), 2, 0, 10)
        assert parse_xgid(format_xgid(record)) == record
        assert format_xgid(record).split(":")[4] == action


def test_position_xgid_is_a_plain_money_xgid() -> None:
    text = position_xgid(Position.start(turn=Side.BLACK), (6, 5))
    assert text == f"XGID={START_BOARD}:0:0:-1:65:0:0:0:0:10"


def test_format_position_picks_the_form_by_family() -> None:
    assert format_position(Position.start("long"), "long") == LONG_START
    assert format_position(Position.start()) == f"XGID={START_BOARD}:0:0:1:00:0:0:0:0:10"


def test_gnubg_reads_our_xgids_as_we_do(short_turns, edge_positions) -> None:
    """gnubg parses each XGID itself; its board and GNU BG ID must equal what we derive."""
    rng = random.Random(7)
    positions = [t.position for t in short_turns if t.variant != "hypergammon"]
    checked = 0
    for position in [*positions, *edge_positions]:
        record = random_record(position, rng)
        gnubg.setgnubgid(format_xgid(record))
        assert gnubg.board() == gnubg_board(position), format_xgid(record)
        expected_id = format_gnubg_id(position, match_id_from_xgid(record))
        assert gnubg.gnubgid() == expected_id, format_xgid(record)
        checked += 1
    assert checked > 2000


# --- errors ---------------------------------------------------------------------------------

GOOD = START_BOARD + ":0:0:1:00:0:0:0:0:10"


def with_field(index: int, value: str) -> str:
    fields = GOOD.split(":")
    fields[index] = value
    return ":".join(fields)


@pytest.mark.parametrize(
    ("text", "variant", "reason"),
    [
        (START_BOARD + ":0:0:1", "backgammon", "10 colon-separated fields"),
        (with_field(0, START_BOARD[:-1]), "backgammon", "26 characters"),
        (with_field(0, START_BOARD.replace("E", "Z")), "backgammon", "bad character 'Z'"),
        (with_field(0, "A" + START_BOARD[1:]), "backgammon", "char 0 is black's bar"),
        (with_field(0, START_BOARD.replace("E", "J", 1)), "backgammon", "white shows 20 checkers"),
        (with_field(0, START_BOARD), "hypergammon", "hypergammon has 3"),
        (with_field(0, "a-----------o-----------O-"), "long", "long has no bar"),
        (with_field(1, "x"), "backgammon", "XGID CV"),
        (with_field(1, "16"), "backgammon", "XGID CV: log2 of the cube must be 0-15"),
        (with_field(2, "2"), "backgammon", "XGID CP"),
        (with_field(3, "0"), "backgammon", "XGID T"),
        (with_field(3, "w"), "backgammon", "XGID T"),
        (with_field(4, "70"), "backgammon", "XGID D"),
        (with_field(4, "5"), "backgammon", "XGID D"),
        (with_field(5, "-1"), "backgammon", "scores cannot be negative"),
        (with_field(6, "two"), "backgammon", "XGID S2"),
        (with_field(7, "4"), "backgammon", "XGID CJ: in money play"),
        (with_field(8, "five"), "backgammon", "XGID ML"),
        (with_field(8, "99999"), "backgammon", "XGID ML: match length must be"),
        (with_field(9, "20"), "backgammon", "XGID MC"),
    ],
)
def test_malformed_fields_are_named(text: str, variant: str, reason: str) -> None:
    with pytest.raises(ValueError, match=re.escape(reason)):
        parse_xgid(text, variant)


def test_match_consistency_is_checked() -> None:
    match = START_BOARD + ":0:0:1:00:{s1}:{s2}:{cj}:{ml}:10"
    with pytest.raises(ValueError, match="scores must be below 7"):
        parse_xgid(match.format(s1=7, s2=0, cj=0, ml=7))
    with pytest.raises(ValueError, match="in a match it is 0 or 1"):
        parse_xgid(match.format(s1=1, s2=0, cj=2, ml=7))
    with pytest.raises(ValueError, match="Crawford game needs a player at 6"):
        parse_xgid(match.format(s1=1, s2=0, cj=1, ml=7))


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("------------o-----------O-:0", "XGID T"),
        ("------------o-----------O-", "got 1 colon-separated"),
        ("------------o-----------O-:1:0", "got 3 colon-separated"),
        ("------------o----------O-:1", "26 characters"),
    ],
)
def test_short_form_errors(text: str, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        parse_position(text, "long")


def test_non_text_is_refused() -> None:
    with pytest.raises(ValueError, match="is text"):
        parse_xgid(None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="is text"):
        parse_position(42)  # type: ignore[arg-type]


def test_record_checks_its_own_fields() -> None:
    with pytest.raises(ValueError, match="dice must be two values 1-6"):
        XgidRecord(Position.start(), dice=(0, 3))
    with pytest.raises(ValueError, match="dice and a cube action"):
        XgidRecord(Position.start(), dice=(1, 3), cube_action="D")
    with pytest.raises(ValueError, match="cube action must be D, B or R"):
        XgidRecord(Position.start(), cube_action="X")  # type: ignore[arg-type]
