"""Checks for every field a user or a client sends: names, numbers, choices, boards, JSON.

One module so the web API, the batch CLI and the file readers refuse the same things with
the same words. Each check returns the clean value or raises `InvalidField` (a ValueError)
whose message names the field and says what is wanted.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from nardy_pi.rules.notation.board_field import parse_board_field

MAX_NAME = 40
MAX_CHECKERS = 15  # a side, in every variant (hypergammon has fewer)
MAX_JSON_DEPTH = 32
MAX_JSON_BYTES = 64 * 1024
MAX_NUMBER_DIGITS = 30  # no field needs more; Python refuses over 4300 with a ValueError
#: characters that would break a .mat record: its headers quote names with "
NAME_FORBIDDEN = '"'


class InvalidField(ValueError):
    """A field that cannot be accepted; the message names it and says why."""


def player_name(value: Any, field: str) -> str:
    """A player name: text, printable (no CR/LF, tabs or other control characters), 1-40
    characters after trimming, without double quotes."""
    if not isinstance(value, str):
        raise InvalidField(f"{field} must be a text")
    text = value.strip()
    if not text:
        raise InvalidField(f"{field} must be a non-empty text")
    if len(text) > MAX_NAME:
        raise InvalidField(f"{field} is longer than {MAX_NAME} characters")
    if not text.isprintable():
        raise InvalidField(f"{field} may hold only printable characters (no line breaks)")
    if any(ch in NAME_FORBIDDEN for ch in text):
        raise InvalidField(f"{field} may not contain {NAME_FORBIDDEN}")
    return text


def whole_number(value: Any, field: str, low: int, high: int) -> int:
    """An int in [low, high]; `true` is not a number here, although bool is an int."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidField(f"{field} must be a whole number")
    if not low <= value <= high:
        raise InvalidField(f"{field} must be between {low} and {high}, got {value}")
    return value


def choice(value: Any, field: str, options: Iterable[str]) -> str:
    allowed = tuple(options)
    if not isinstance(value, str) or value not in allowed:
        raise InvalidField(f"{field} must be one of {', '.join(allowed)}")
    return value


def flag(value: Any, field: str) -> bool:
    if not isinstance(value, bool):
        raise InvalidField(f"{field} must be true or false")
    return value


def json_object(value: Any, what: str = "the request body") -> dict[str, Any]:
    if not isinstance(value, dict):
        raise InvalidField(f"{what} must be a JSON object")
    return value


def known_keys(data: dict[str, Any], known: Iterable[str]) -> None:
    unknown = sorted(set(data) - set(known))
    if unknown:
        shown = ", ".join(str(k)[:30] for k in unknown[:5])
        raise InvalidField(f"unknown field(s): {shown}")


def corrected_board(board: Any, off_white: Any, off_black: Any) -> tuple[str, int, int]:
    """A hand-corrected board: the 26-character field and borne-off counts, at most 15
    checkers a side in all (points, bar and off)."""
    if not isinstance(board, str):
        raise InvalidField("board must be the 26-character XGID board field")
    text = board.strip()
    try:
        parsed = parse_board_field(text)
    except ValueError as err:
        raise InvalidField(str(err)) from None
    off_w = whole_number(off_white, "off_white", 0, MAX_CHECKERS)
    off_b = whole_number(off_black, "off_black", 0, MAX_CHECKERS)
    white = sum(c for c in parsed.points if c > 0) + parsed.bar_white + off_w
    black = -sum(c for c in parsed.points if c < 0) + parsed.bar_black + off_b
    for side, count in (("white", white), ("black", black)):
        if count > MAX_CHECKERS:
            raise InvalidField(
                f"board has {count} {side} checkers (with bar and off); a side has at most "
                f"{MAX_CHECKERS}"
            )
    return text, off_w, off_b


def _nesting_depth(text: str) -> int:
    """The deepest [ / { nesting of JSON text, strings skipped (linear, no recursion)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_NUMBER_DIGITS:
        raise InvalidField(f"a number with {len(text.lstrip('-'))} digits is too long")
    return int(text)


def _bounded_float(text: str) -> float:
    if len(text) > MAX_NUMBER_DIGITS * 2:
        raise InvalidField("a number this long is not accepted")
    return float(text)


def _no_constant(name: str) -> float:
    raise InvalidField(f"{name} is not a JSON number")


def parse_json(
    text: str | bytes, *, max_depth: int = MAX_JSON_DEPTH, max_bytes: int = MAX_JSON_BYTES
) -> Any:
    """JSON with bounds: size, nesting depth, number length, no NaN/Infinity. A ValueError
    (`InvalidField`, or json.JSONDecodeError for bad syntax) says what is wrong; never a
    RecursionError or a huge integer conversion."""
    if isinstance(text, bytes):
        if len(text) > max_bytes:
            raise InvalidField(f"JSON longer than {max_bytes} bytes")
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise InvalidField("the JSON is not UTF-8 text") from None
    if len(text) > max_bytes:
        raise InvalidField(f"JSON longer than {max_bytes} characters")
    if _nesting_depth(text) > max_depth:
        raise InvalidField(f"JSON nested deeper than {max_depth} levels")
    return json.loads(
        text, parse_int=_bounded_int, parse_float=_bounded_float, parse_constant=_no_constant
    )
