"""GNU Backgammon's Position ID (14 characters) and Match ID (12 characters).

gnubg numbers its players 0 and 1 and shows player 1 at the bottom, so white (the bottom,
uppercase XGID player) is gnubg player 1 and black is player 0; this is how gnubg itself maps
an XGID it reads. Everything here speaks in `Side`s: tuples are (white, black) as in Position.
The IDs only make sense for the backgammon family (gnubg has no long nardy).
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from enum import IntEnum

from nardy_pi.rules.notation.xgid import MAX_CUBE_LOG2, MAX_MATCH_LENGTH, XgidRecord
from nardy_pi.rules.position import BAR, Position
from nardy_pi.rules.sides import Side
from nardy_pi.rules.variants import Variant, get_variant

POSITION_ID_LENGTH = 14
MATCH_ID_LENGTH = 12
_POSITION_BYTES = 10
_MATCH_BYTES = 9
_B64_ALPHABET = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")

#: gnubg's player number of each side when it reads an XGID (the bottom player is 1).
GNUBG_PLAYER = {Side.BLACK: 0, Side.WHITE: 1}
#: ... and when it imports a .mat: the first player listed (white, cli.md) is player 0.
MAT_PLAYER = {Side.WHITE: 0, Side.BLACK: 1}
_SIDE_OF_PLAYER = {0: Side.BLACK, 1: Side.WHITE}

GnubgBoard = tuple[tuple[int, ...], tuple[int, ...]]


# --- board <-> Position -----------------------------------------------------------------------


def _backgammon_family(variant: str | Variant) -> Variant:
    v = get_variant(variant)
    if v.family != "backgammon":
        raise ValueError(f"gnubg IDs exist for the backgammon family only, not {v.name}")
    return v


def gnubg_board(position: Position, variant: str | Variant = "backgammon") -> GnubgBoard:
    """gnubg's board: (side not on roll, side on roll), own points 1..24 then the bar."""
    v = _backgammon_family(variant)
    mover, _ = position.view(v, position.turn)
    other, _ = position.view(v, position.turn.opponent)
    return tuple(other[1 : BAR + 1]), tuple(mover[1 : BAR + 1])


def position_from_gnubg_board(
    board: GnubgBoard | list[list[int]],
    turn: Side = Side.WHITE,
    variant: str | Variant = "backgammon",
) -> Position:
    """Inverse of `gnubg_board`: `board[1]` belongs to `turn`; borne-off counts are implied."""
    v = _backgammon_family(variant)
    if len(board) != 2 or any(len(half) != 25 for half in board):
        raise ValueError("a gnubg board is two lists of 25 counts (points 1..24, bar)")
    counts = {turn.opponent: board[0], turn: board[1]}
    points = [0] * 24
    for side, half in counts.items():
        if min(half) < 0:
            raise ValueError(f"gnubg board: {side.label} has a negative count")
        if sum(half) > v.checkers:
            raise ValueError(
                f"gnubg board: {side.label} has {sum(half)} checkers, {v.name} has {v.checkers}"
            )
        for own in range(1, 25):
            if half[own - 1]:
                physical = v.own_to_physical(side is Side.WHITE, own)
                if points[physical - 1]:
                    raise ValueError(f"gnubg board: both sides have checkers on point {physical}")
                points[physical - 1] = half[own - 1] * side.sign
    white, black = counts[Side.WHITE], counts[Side.BLACK]
    return Position(
        tuple(points),
        (white[24], black[24]),
        (v.checkers - sum(white), v.checkers - sum(black)),
        turn,
    )


# --- base64 helpers ---------------------------------------------------------------------------


def _b64_bits(text: str, length: int, nbytes: int, what: str) -> int:
    """The little-endian integer of an unpadded base64 ID, after checking its shape."""
    if not isinstance(text, str):
        raise ValueError(f"{what} is text, got {type(text).__name__}")
    body = text.strip()
    if len(body) != length:
        raise ValueError(f"{what} has {length} characters, got {len(body)}: {body!r}")
    bad = sorted(set(body) - _B64_ALPHABET)
    if bad:
        raise ValueError(f"{what}: {bad[0]!r} is not a base64 character in {body!r}")
    padding = "=" * (-len(body) % 4)
    try:
        raw = base64.b64decode(body + padding, validate=True)
    except binascii.Error as exc:  # pragma: no cover - the alphabet check catches these
        raise ValueError(f"{what}: not base64 ({exc})") from None
    return int.from_bytes(raw[:nbytes], "little")


def _b64_text(value: int, nbytes: int) -> str:
    return base64.b64encode(value.to_bytes(nbytes, "little")).decode("ascii").rstrip("=")


# --- Position ID ------------------------------------------------------------------------------


def encode_position_id(position: Position, variant: str | Variant = "backgammon") -> str:
    """The 14-character gnubg Position ID; the side on roll is `position.turn`."""
    value = 0
    bit = 0
    for half in gnubg_board(position, variant):
        for count in half:
            value |= ((1 << count) - 1) << bit  # `count` one bits, then a zero bit
            bit += count + 1
    return _b64_text(value, _POSITION_BYTES)


def decode_position_id(
    text: str, turn: Side = Side.WHITE, variant: str | Variant = "backgammon"
) -> Position:
    """The Position a Position ID describes, with `turn` on roll (the ID does not say who)."""
    value = _b64_bits(text, POSITION_ID_LENGTH, _POSITION_BYTES, "a gnubg Position ID")
    total_bits = 8 * _POSITION_BYTES
    halves: list[list[int]] = []
    bit = 0
    for _player in range(2):
        half = []
        for _slot in range(25):
            count = 0
            while bit < total_bits and (value >> bit) & 1:
                count += 1
                bit += 1
            if bit >= total_bits:
                raise ValueError(f"gnubg Position ID {text.strip()!r}: runs out of bits")
            bit += 1  # the zero that ends this point
            half.append(count)
        halves.append(half)
    if value >> bit:
        raise ValueError(f"gnubg Position ID {text.strip()!r}: stray bits after both sides")
    return position_from_gnubg_board((tuple(halves[0]), tuple(halves[1])), turn, variant)


# --- Match ID ---------------------------------------------------------------------------------


class GameState(IntEnum):
    NONE = 0
    PLAYING = 1
    OVER = 2
    RESIGNED = 3
    DROPPED = 4


@dataclass(frozen=True, slots=True)
class MatchId:
    """Every field of the gnubg Match ID, in Side terms (tuples are (white, black))."""

    cube_log2: int = 0
    cube_owner: Side | None = None  # None = centred
    on_roll: Side = Side.WHITE  # bit 6: whose turn it is in the game
    crawford: bool = False  # this is the Crawford game
    game_state: GameState = GameState.PLAYING
    to_act: Side = Side.WHITE  # bit 11: who must act now (the opponent while a double is up)
    double_offered: bool = False
    resignation: int = 0  # 0 none, 1 single, 2 gammon, 3 backgammon
    dice: tuple[int, int] | None = None  # None = not rolled; written higher die first
    match_length: int = 0  # 0 = money
    score: tuple[int, int] = (0, 0)
    jacoby: bool = False  # gnubg stores the *absence* of the Jacoby rule (bit 66)

    def __post_init__(self) -> None:
        if not 0 <= self.cube_log2 <= MAX_CUBE_LOG2:
            raise ValueError(f"Match ID: log2 of the cube must be 0-{MAX_CUBE_LOG2}")
        if not 0 <= self.resignation <= 3:
            raise ValueError(f"Match ID: resignation level is 0-3, got {self.resignation}")
        if self.dice is not None and not all(1 <= d <= 6 for d in self.dice):
            raise ValueError(f"Match ID: dice are 1-6, got {self.dice}")
        if not 0 <= self.match_length <= MAX_MATCH_LENGTH:
            raise ValueError(f"Match ID: match length is 0-{MAX_MATCH_LENGTH}")
        if not all(0 <= s <= MAX_MATCH_LENGTH for s in self.score):
            raise ValueError(f"Match ID: scores are 0-{MAX_MATCH_LENGTH}, got {self.score}")


# (name, first bit, width) in the order of notation.md
_FIELDS = {
    "cube": (0, 4),
    "owner": (4, 2),
    "on_roll": (6, 1),
    "crawford": (7, 1),
    "state": (8, 3),
    "to_act": (11, 1),
    "doubled": (12, 1),
    "resign": (13, 2),
    "die1": (15, 3),
    "die2": (18, 3),
    "length": (21, 15),
    "score0": (36, 15),
    "score1": (51, 15),
    "no_jacoby": (66, 1),
}
_CENTRED = 3


def encode_match_id(match: MatchId, players: dict[Side, int] = GNUBG_PLAYER) -> str:
    """The 12-character gnubg Match ID of `match`, numbering the sides by `players`
    (`GNUBG_PLAYER` as for an XGID; `MAT_PLAYER` for a match gnubg imported from .mat)."""
    score = {players[side]: match.score[side] for side in Side}
    dice = sorted(match.dice, reverse=True) if match.dice else (0, 0)  # gnubg: higher first
    values = {
        "cube": match.cube_log2,
        "owner": _CENTRED if match.cube_owner is None else players[match.cube_owner],
        "on_roll": players[match.on_roll],
        "crawford": int(match.crawford),
        "state": int(match.game_state),
        "to_act": players[match.to_act],
        "doubled": int(match.double_offered),
        "resign": match.resignation,
        "die1": dice[0],
        "die2": dice[1],
        "length": match.match_length,
        "score0": score[0],
        "score1": score[1],
        "no_jacoby": int(not match.jacoby),
    }
    value = 0
    for name, (first, _width) in _FIELDS.items():
        value |= values[name] << first
    return _b64_text(value, _MATCH_BYTES)


def decode_match_id(text: str) -> MatchId:
    """Parse a 12-character Match ID; raises ValueError naming the bad field."""
    value = _b64_bits(text, MATCH_ID_LENGTH, _MATCH_BYTES, "a gnubg Match ID")
    raw = {name: (value >> first) & ((1 << width) - 1) for name, (first, width) in _FIELDS.items()}
    where = f"gnubg Match ID {text.strip()!r}"
    if raw["owner"] == 2:
        raise ValueError(f"{where}: cube owner bits hold 2 (only 0, 1 or 3 = centred exist)")
    if raw["state"] > max(GameState):
        raise ValueError(f"{where}: game state {raw['state']} is unknown (0-4)")
    dice = (raw["die1"], raw["die2"])
    if max(dice) > 6 or (0 in dice and dice != (0, 0)):
        raise ValueError(f"{where}: dice {dice[0]}{dice[1]} are not a roll (1-6 each, or 00)")
    return MatchId(
        cube_log2=raw["cube"],
        cube_owner=None if raw["owner"] == _CENTRED else _SIDE_OF_PLAYER[raw["owner"]],
        on_roll=_SIDE_OF_PLAYER[raw["on_roll"]],
        crawford=bool(raw["crawford"]),
        game_state=GameState(raw["state"]),
        to_act=_SIDE_OF_PLAYER[raw["to_act"]],
        double_offered=bool(raw["doubled"]),
        resignation=raw["resign"],
        dice=None if dice == (0, 0) else dice,
        match_length=raw["length"],
        score=(raw[f"score{GNUBG_PLAYER[Side.WHITE]}"], raw[f"score{GNUBG_PLAYER[Side.BLACK]}"]),
        jacoby=not raw["no_jacoby"],
    )


def match_id_from_xgid(record: XgidRecord) -> MatchId:
    """The Match ID state an XGID describes (gnubg lists the higher die first)."""
    doubled = record.cube_action is not None
    return MatchId(
        cube_log2=record.cube_log2,
        cube_owner=record.cube_owner,
        on_roll=record.turn,
        crawford=record.crawford,
        game_state=GameState.PLAYING,
        to_act=record.turn.opponent if doubled else record.turn,
        double_offered=doubled,
        dice=None if record.dice is None else (max(record.dice), min(record.dice)),
        match_length=record.match_length,
        score=record.score,
        jacoby=record.jacoby,
    )


# --- both together ----------------------------------------------------------------------------


def format_gnubg_id(
    position: Position, match: MatchId, variant: str | Variant = "backgammon"
) -> str:
    """`PositionID:MatchID`, the "GNU Backgammon ID" gnubg copies to the clipboard."""
    return f"{encode_position_id(position, variant)}:{encode_match_id(match)}"


def parse_gnubg_id(text: str, variant: str | Variant = "backgammon") -> tuple[Position, MatchId]:
    """Parse `PositionID:MatchID`; the Position's turn is the Match ID's side on roll."""
    parts = text.strip().split(":") if isinstance(text, str) else []
    if len(parts) != 2:
        raise ValueError(f"a GNU Backgammon ID is PositionID:MatchID, got {text!r}")
    match = decode_match_id(parts[1])
    return decode_position_id(parts[0], match.on_roll, variant), match
