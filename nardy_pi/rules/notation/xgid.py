"""XGID (eXtreme Gammon ID) in and out, plus the long-nardy short form `board:T`.

`XGID=board:CV:CP:T:D:S1:S2:CJ:ML:MC` (notation.md). White is the bottom player: uppercase
letters, S1, CP/T = 1. Borne-off checkers are implied (the variant's count minus what is
shown). Long nardy uses the same board field in physical numbering with empty bar characters,
either followed by `:T` alone or by the full set of XGID fields (cli.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from nardy_pi.rules.notation.board_field import format_board_field, parse_board_field
from nardy_pi.rules.position import Position
from nardy_pi.rules.sides import Side
from nardy_pi.rules.variants import Variant, get_variant

PREFIX = "XGID="
FIELD_NAMES = ("board", "CV", "CP", "T", "D", "S1", "S2", "CJ", "ML", "MC")
DEFAULT_MAX_CUBE_LOG2 = 10  # what XG and gnubg write: cube limit 1024
MAX_CUBE_LOG2 = 15  # the gnubg Match ID keeps log2(cube) in 4 bits
MAX_MATCH_LENGTH = 32767  # 15 bits in the gnubg Match ID

#: D field letters: a double offered, beavered or raccooned (XG); no dice rolled then.
CubeAction = Literal["D", "B", "R"]
CUBE_ACTIONS: tuple[str, ...] = ("D", "B", "R")

Dice = tuple[int, int]


@dataclass(frozen=True, slots=True)
class XgidRecord:
    """Everything an XGID carries. `position.turn` is the T field."""

    position: Position
    cube_log2: int = 0
    cube_owner: Side | None = None  # None = centred
    dice: Dice | None = None  # None = not rolled yet (D field `00`) or a cube action
    cube_action: CubeAction | None = None  # D/B/R: T's double awaits the opponent's answer
    score: tuple[int, int] = (0, 0)  # (white = S1, black = S2)
    rules: int = 0  # CJ: match 1 = Crawford game; money bit 0 Jacoby, bit 1 beavers
    match_length: int = 0  # 0 = money
    max_cube_log2: int = DEFAULT_MAX_CUBE_LOG2

    def __post_init__(self) -> None:
        _check_record(self)

    @property
    def turn(self) -> Side:
        return self.position.turn

    @property
    def cube_value(self) -> int:
        return 1 << self.cube_log2

    @property
    def is_money(self) -> bool:
        return self.match_length == 0

    @property
    def crawford(self) -> bool:
        # In a 1-point match both players start at match point: no game is "the Crawford
        # game" (gnubg reads CJ=1 there as no Crawford game too).
        return self.match_length > 1 and self.rules == 1

    @property
    def jacoby(self) -> bool:
        return self.is_money and bool(self.rules & 1)

    @property
    def beavers(self) -> bool:
        return self.is_money and bool(self.rules & 2)


def _check_record(r: XgidRecord) -> None:
    """Field ranges and the few cross-field facts every XGID writer respects."""
    if not 0 <= r.cube_log2 <= MAX_CUBE_LOG2:
        raise ValueError(f"XGID CV: log2 of the cube must be 0-{MAX_CUBE_LOG2}, got {r.cube_log2}")
    if not 0 <= r.max_cube_log2 <= MAX_CUBE_LOG2:
        raise ValueError(
            f"XGID MC: log2 of the cube limit must be 0-{MAX_CUBE_LOG2}, got {r.max_cube_log2}"
        )
    if r.dice is not None:
        if r.cube_action is not None:
            raise ValueError("XGID D: dice and a cube action cannot both be given")
        if len(r.dice) != 2 or not all(isinstance(d, int) and 1 <= d <= 6 for d in r.dice):
            raise ValueError(f"XGID D: dice must be two values 1-6, got {r.dice!r}")
    if r.cube_action is not None and r.cube_action not in CUBE_ACTIONS:
        raise ValueError(f"XGID D: cube action must be D, B or R, got {r.cube_action!r}")
    if min(r.score) < 0:
        raise ValueError(f"XGID S1/S2: scores cannot be negative, got {r.score}")
    if not 0 <= r.match_length <= MAX_MATCH_LENGTH:
        raise ValueError(
            f"XGID ML: match length must be 0-{MAX_MATCH_LENGTH}, got {r.match_length}"
        )
    if r.match_length:
        if max(r.score) >= r.match_length:
            raise ValueError(
                f"XGID S1/S2: in a {r.match_length}-point match scores must be below "
                f"{r.match_length}, got {r.score[0]}-{r.score[1]}"
            )
        if r.rules not in (0, 1):
            raise ValueError(f"XGID CJ: in a match it is 0 or 1 (Crawford game), got {r.rules}")
        if r.rules == 1 and r.match_length - 1 not in r.score:
            raise ValueError(
                f"XGID CJ: a Crawford game needs a player at {r.match_length - 1} "
                f"in a {r.match_length}-point match, score is {r.score[0]}-{r.score[1]}"
            )
    elif not 0 <= r.rules <= 3:
        raise ValueError(f"XGID CJ: in money play it is a bitmask 0-3, got {r.rules}")


# --- parsing ----------------------------------------------------------------------------------


def _strip_prefix(text: str) -> str:
    body = text.strip()
    if body[: len(PREFIX)].upper() == PREFIX:
        body = body[len(PREFIX) :]
    return body


def _int_field(value: str, name: str, what: str) -> int:
    text = value.strip()
    digits = text[1:] if text[:1] in "+-" else text
    if not digits.isdigit() or not digits.isascii():
        raise ValueError(f"XGID {name}: expected {what}, got {value!r}")
    return int(text)


def _turn_field(value: str) -> Side:
    t = _int_field(value, "T", "1 (white/bottom to play) or -1 (black/top)")
    if t not in (1, -1):
        raise ValueError(f"XGID T: expected 1 (white/bottom to play) or -1 (black/top), got {t}")
    return Side.WHITE if t == 1 else Side.BLACK


def _owner_field(value: str) -> Side | None:
    cp = _int_field(value, "CP", "1 (white owns the cube), 0 (centred) or -1 (black owns)")
    if cp not in (1, 0, -1):
        raise ValueError(
            f"XGID CP: expected 1 (white owns the cube), 0 (centred) or -1 (black owns), got {cp}"
        )
    return None if cp == 0 else (Side.WHITE if cp == 1 else Side.BLACK)


def _dice_field(value: str) -> tuple[Dice | None, CubeAction | None]:
    text = value.strip().upper()
    if text in CUBE_ACTIONS:
        return None, text  # type: ignore[return-value]
    if text == "00":
        return None, None
    if len(text) == 2 and all(ch in "123456" for ch in text):
        return (int(text[0]), int(text[1])), None
    raise ValueError(
        f"XGID D: expected 00 (not rolled), two dice 1-6 like 52, or D/B/R, got {value!r}"
    )


def board_position(board: str, turn: Side, variant: str | Variant = "backgammon") -> Position:
    """A Position from the 26-character board field; borne-off = variant count minus shown."""
    v = get_variant(variant)
    field = parse_board_field(board.strip())
    if not v.hitting and (field.bar_white or field.bar_black):
        raise ValueError(
            f"board field: {v.name} has no bar, so chars 0 and 25 must be '-' ({board.strip()!r})"
        )
    off = []
    for side, bar in ((Side.WHITE, field.bar_white), (Side.BLACK, field.bar_black)):
        shown = bar + sum(c * side.sign for c in field.points if c * side.sign > 0)
        if shown > v.checkers:
            raise ValueError(
                f"board field: {side.label} shows {shown} checkers, {v.name} has {v.checkers}"
            )
        off.append(v.checkers - shown)
    return Position(field.points, (field.bar_white, field.bar_black), (off[0], off[1]), turn)


def parse_xgid(text: str, variant: str | Variant = "backgammon") -> XgidRecord:
    """Parse a full XGID (`XGID=` optional; MC may be left out) or raise ValueError."""
    if not isinstance(text, str):
        raise ValueError(f"an XGID is text, got {type(text).__name__}")
    fields = _strip_prefix(text).split(":")
    if len(fields) not in (9, 10):
        raise ValueError(
            "an XGID has 10 colon-separated fields (board:CV:CP:T:D:S1:S2:CJ:ML:MC), "
            f"got {len(fields)} in {text.strip()!r}"
        )
    turn = _turn_field(fields[3])
    dice, action = _dice_field(fields[4])
    return XgidRecord(
        position=board_position(fields[0], turn, variant),
        cube_log2=_int_field(fields[1], "CV", "log2 of the cube, an integer"),
        cube_owner=_owner_field(fields[2]),
        dice=dice,
        cube_action=action,
        score=(
            _int_field(fields[5], "S1", "white's (bottom) score, an integer"),
            _int_field(fields[6], "S2", "black's (top) score, an integer"),
        ),
        rules=_int_field(fields[7], "CJ", "the Crawford/Jacoby flags, an integer"),
        match_length=_int_field(fields[8], "ML", "the match length, an integer (0 = money)"),
        max_cube_log2=(
            _int_field(fields[9], "MC", "log2 of the cube limit, an integer")
            if len(fields) == 10
            else DEFAULT_MAX_CUBE_LOG2
        ),
    )


def parse_position(
    text: str, variant: str | Variant = "backgammon"
) -> tuple[Position, Dice | None]:
    """The position and dice of a full XGID or of the short form `board:T` (cli.md)."""
    if not isinstance(text, str):
        raise ValueError(f"a position is text, got {type(text).__name__}")
    fields = _strip_prefix(text).split(":")
    if len(fields) == 2:
        return board_position(fields[0], _turn_field(fields[1]), variant), None
    if len(fields) in (9, 10):
        record = parse_xgid(text, variant)
        return record.position, record.dice
    raise ValueError(
        "a position is an XGID (board:CV:CP:T:D:S1:S2:CJ:ML:MC) or a board field and turn "
        f"(board:T), got {len(fields)} colon-separated fields in {text.strip()!r}"
    )


# --- formatting -------------------------------------------------------------------------------


def format_board(position: Position) -> str:
    """The 26-character board field of `position`."""
    return format_board_field(position.points, position.bar[0], position.bar[1])


def _turn_text(side: Side) -> str:
    return "1" if side is Side.WHITE else "-1"


def format_xgid(record: XgidRecord, prefix: bool = True) -> str:
    """The full XGID of `record` (all ten fields)."""
    owner = "0" if record.cube_owner is None else _turn_text(record.cube_owner)
    if record.cube_action is not None:
        dice = record.cube_action
    elif record.dice is None:
        dice = "00"
    else:
        dice = f"{record.dice[0]}{record.dice[1]}"
    fields = (
        format_board(record.position),
        str(record.cube_log2),
        owner,
        _turn_text(record.turn),
        dice,
        str(record.score[0]),
        str(record.score[1]),
        str(record.rules),
        str(record.match_length),
        str(record.max_cube_log2),
    )
    return (PREFIX if prefix else "") + ":".join(fields)


def format_short(position: Position) -> str:
    """The long-nardy short form `board:T`, e.g. `------------o-----------O-:1`."""
    return f"{format_board(position)}:{_turn_text(position.turn)}"


def position_xgid(position: Position, dice: Dice | None = None) -> str:
    """A money-game XGID with a centred cube: the usual way to hand a position to a tool."""
    return format_xgid(XgidRecord(position, dice=dice))


def format_position(position: Position, variant: str | Variant = "backgammon") -> str:
    """How the CLI writes a position: an XGID for the backgammon family, `board:T` for long."""
    if get_variant(variant).family == "long":
        return format_short(position)
    return position_xgid(position)
