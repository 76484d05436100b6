"""Starting boards per variant, as 26-character board fields (physical numbering).

Kept here so vision needs nothing from the rules engine beyond the board-field parser.
Nackgammon per side: 2 on 24, 2 on 23, 4 on 13, 3 on 8, 4 on 6; hypergammon 1 on 24, 23, 22.
"""

from __future__ import annotations

from nardy_pi.rules.notation.board_field import BoardField, parse_board_field

START_FIELDS: dict[str, str] = {
    "backgammon": "-b----E-C---eE---c-e----B-",
    "nackgammon": "-bb---D-C---dD---c-d---BB-",
    "hypergammon": "-aaa------------------AAA-",
    "long": "------------o-----------O-",
}
_ALIASES = {"short": "backgammon", "nardy": "long", "long-nardy": "long", "longnardy": "long"}


def start_board(variant: str) -> BoardField:
    name = _ALIASES.get(variant.lower(), variant.lower())
    if name not in START_FIELDS:
        known = ", ".join(sorted(START_FIELDS))
        raise ValueError(f"unknown variant {variant!r}; known: {known}")
    return parse_board_field(START_FIELDS[name])


def position_board(position: str, variant: str) -> BoardField:
    """`start` or an XGID / board field (extra `:...` fields are ignored)."""
    if position == "start":
        return start_board(variant)
    text = position.strip()
    if text.upper().startswith("XGID="):
        text = text[5:]
    return parse_board_field(text.split(":", 1)[0])
