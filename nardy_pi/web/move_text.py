"""The move list as the players read it: every point in the numbering drawn on the board.

Records carry gnubg notation in the mover's own numbering (notation.md), so black's 24/18 in
backgammon is physical 1/7. The page numbers the points physically (board-frame.md), so the
list is rewritten here once per snapshot, in English and in Russian (бар, выброс).
"""

from __future__ import annotations

import re

from nardy_pi.rules.errors import UnknownVariantError
from nardy_pi.rules.variants import Variant, get_variant
from nardy_pi.state import MoveRecord

# One checker's path "24/18*/13", the last point with an optional repeat count: 13/7(2)
_PLACE = re.compile(r"^(?P<at>bar|off|\d+)(?P<hit>\*?)$")
_REPEAT = re.compile(r"^(?P<path>.*?)(?P<rep>\(\d+\))?$")
# Cube and result lines as the engine or a .mat writes them.
_DOUBLES = re.compile(r"^Doubles\s*=>\s*(\d+)$")
_WINS = re.compile(r"^Wins\s+(\d+)\s+points?$")
_WORDS = {
    "bar": {"en": "bar", "ru": "бар"},
    "off": {"en": "off", "ru": "выброс"},
}
_FIXED = {
    "(no move)": {"en": "no move", "ru": "нет хода"},
    "(no play)": {"en": "no move", "ru": "нет хода"},
    "": {"en": "no move", "ru": "нет хода"},
    "Takes": {"en": "takes", "ru": "принял"},
    "Drops": {"en": "passes", "ru": "отказался"},
    "Passes": {"en": "passes", "ru": "отказался"},
    "Beavers": {"en": "beaver", "ru": "бобёр"},
    "Raccoons": {"en": "raccoon", "ru": "енот"},
}


def _physical(token: str, white: bool, variant: Variant | None) -> str | None:
    if token in ("bar", "off"):
        return token
    own = int(token)
    if own == 25:
        return "bar"
    if own == 0:
        return "off"
    if not 1 <= own <= 24:
        return None
    return str(variant.own_to_physical(white, own) if variant else own)


def _point(token: str, lang: str) -> str:
    return _WORDS[token][lang] if token in _WORDS else token


def physical_move(text: str, side: str, variant_name: str) -> dict[str, str]:
    """{"en", "ru"} texts of one record, points in physical numbering. Text that is not a
    known form is passed on unchanged in both languages (never dropped)."""
    stripped = text.strip()
    if stripped in _FIXED:
        return dict(_FIXED[stripped])
    if m := _DOUBLES.match(stripped):
        return {"en": f"doubles to {m[1]}", "ru": f"удвоил до {m[1]}"}
    if m := _WINS.match(stripped):
        return {"en": f"wins {m[1]}", "ru": f"выиграл {m[1]}"}
    try:
        variant: Variant | None = get_variant(variant_name)
    except UnknownVariantError:
        variant = None
    white = side == "white"
    out: dict[str, list[str]] = {"en": [], "ru": []}
    for step in stripped.split():
        path, repeat = _REPEAT.match(step).group("path", "rep")  # type: ignore[union-attr]
        places = [_PLACE.match(part) for part in path.split("/")]
        points = [_physical(m["at"], white, variant) if m else None for m in places]
        if len(places) < 2 or None in points:
            return {"en": text, "ru": text}
        for lang, parts in out.items():
            cells = [f"{_point(p, lang)}{m['hit']}"  # type: ignore[index,arg-type]
                     for p, m in zip(points, places, strict=True)]
            parts.append("/".join(cells) + (repeat or ""))
    return {lang: " ".join(parts) for lang, parts in out.items()}


def move_rows(moves: tuple[MoveRecord, ...], variant: str) -> list[dict[str, object]]:
    """The records as the page lists them: number, side, dice and both texts."""
    return [
        {"number": m.number, "side": m.side, "dice": list(m.dice),
         **physical_move(m.text, m.side, variant)}
        for m in moves
    ]
