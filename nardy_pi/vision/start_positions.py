"""Starting boards per variant as board fields (physical numbering), from the rules core's
variants: one source of start positions for vision, the demo table and the referee."""

from __future__ import annotations

from nardy_pi.rules.notation.board_field import BoardField, format_board_field, parse_board_field
from nardy_pi.rules.position import Position
from nardy_pi.rules.variants import VARIANTS, get_variant


def start_field(variant: str) -> str:
    """The 26-character board field of `variant`'s start (unknown names: ValueError)."""
    start = Position.start(get_variant(variant))
    return format_board_field(start.points, start.bar[0], start.bar[1])


#: every variant's start, by its canonical name
START_FIELDS: dict[str, str] = {name: start_field(name) for name in VARIANTS}


def start_board(variant: str) -> BoardField:
    return parse_board_field(start_field(variant))


def position_board(position: str, variant: str) -> BoardField:
    """`start` or an XGID / board field (extra `:...` fields are ignored)."""
    if position == "start":
        return start_board(variant)
    text = position.strip()
    if text.upper().startswith("XGID="):
        text = text[5:]
    return parse_board_field(text.split(":", 1)[0])
