"""The 26-character XGID board field, in physical numbering (board-frame.md).

Char 0 is black's (top player's) bar, char 25 white's (bottom player's) bar; char i (1..24)
is physical point i: `A`..`P` = 1..16 white checkers, `a`..`p` = 1..16 black, `-` empty.
"""

from __future__ import annotations

from dataclasses import dataclass

_MAX_STACK = 16


@dataclass(frozen=True, slots=True)
class BoardField:
    """Physical board: `points[i]` is point i+1 (+white / -black), plus bar counts."""

    points: tuple[int, ...]
    bar_white: int
    bar_black: int


def _decode_char(ch: str, index: int) -> int:
    if ch == "-":
        return 0
    if "A" <= ch <= "P":
        return ord(ch) - ord("A") + 1
    if "a" <= ch <= "p":
        return -(ord(ch) - ord("a") + 1)
    raise ValueError(f"board field: bad character {ch!r} at position {index}")


def parse_board_field(field: str) -> BoardField:
    """Parse a 26-character board field; raises ValueError with the reason."""
    field = field.strip()
    if len(field) != 26:
        raise ValueError(f"board field must have 26 characters, got {len(field)}: {field!r}")
    values = [_decode_char(ch, i) for i, ch in enumerate(field)]
    if values[0] > 0:
        raise ValueError("board field: char 0 is black's bar and must be lowercase or '-'")
    if values[25] < 0:
        raise ValueError("board field: char 25 is white's bar and must be uppercase or '-'")
    return BoardField(points=tuple(values[1:25]), bar_white=values[25], bar_black=-values[0])


def _encode_count(count: int) -> str:
    if count == 0:
        return "-"
    if abs(count) > _MAX_STACK:
        raise ValueError(f"board field cannot show a stack of {abs(count)} (max {_MAX_STACK})")
    return chr(ord("A") + count - 1) if count > 0 else chr(ord("a") - count - 1)


def format_board_field(points: tuple[int, ...] | list[int], bar_white: int, bar_black: int) -> str:
    """Inverse of `parse_board_field`."""
    if len(points) != 24:
        raise ValueError(f"need 24 points, got {len(points)}")
    chars = [_encode_count(-bar_black)]
    chars.extend(_encode_count(c) for c in points)
    chars.append(_encode_count(bar_white))
    return "".join(chars)
