"""Texts of diagnoses and rule messages, keyed so every output can show Russian or English.

Templates use `str.format` fields named after the diagnosis params.
"""

from __future__ import annotations

from typing import Any, Literal

Lang = Literal["en", "ru"]

SIDE_NAMES: dict[str, dict[str, str]] = {
    "en": {"white": "white", "black": "black"},
    "ru": {"white": "белые", "black": "чёрные"},
}

MESSAGES: dict[str, dict[str, str]] = {
    "checker_count": {
        "en": "{side} had {before} checkers and now has {after}: checkers were added or removed",
        "ru": "у стороны «{side}» было {before} шашек, стало {after}: шашки добавлены или убраны",
    },
    "no_move": {
        "en": "no checker moved, but the roll {dice} can be played",
        "ru": "ни одна шашка не сдвинута, хотя бросок {dice} можно сыграть",
    },
    "wrong_side": {
        "en": "{side} moved, but it is {mover}'s turn",
        "ru": "ходили «{side}», а ход за «{mover}»",
    },
    "opponent_disturbed": {
        "en": "{side}'s checkers changed on point(s) {points} other than by being hit",
        "ru": "шашки стороны «{side}» изменились на пунктах {points}, и это не взятие",
    },
    "bar_not_entered": {
        "en": "a checker was left on the bar while others moved: enter from the bar first",
        "ru": "шашка осталась на баре, а другие пошли: сначала нужно ввести шашку с бара",
    },
    "landed_on_closed_point": {
        "en": "{step} lands on a point held by {holder}",
        "ru": "{step}: пункт занят стороной «{holder}»",
    },
    "passed_closed_point": {
        "en": "{step} passes through point {point}, held by {holder}",
        "ru": "{step}: промежуточный пункт {point} занят стороной «{holder}»",
    },
    "hit_and_hide": {
        "en": "{step}: the checker that hit on {point} may not hide on its own point this turn",
        "ru": "{step}: шашка, бившая на пункте {point}, не может спрятаться к своим в этот ход",
    },
    "hitter_borne_off": {
        "en": "{step}: the checker that hit may be borne off only when no other play exists",
        "ru": "{step}: бившую шашку можно снять, только если другого хода нет",
    },
    "two_from_head": {
        "en": "{count} checkers left the head; only {allowed} may this turn",
        "ru": "с головы снято {count} шашки; в этот ход можно только {allowed}",
    },
    "six_block": {
        "en": "six points in a row ({points}) with no opposing checker ahead of them",
        "ru": "шесть пунктов подряд ({points}), а впереди нет ни одной шашки соперника",
    },
    "die_order": {
        "en": "{play}: in this turn the larger die must be played first",
        "ru": "{play}: в этом ходу сначала играется больший зар",
    },
    "gulbar_home": {
        "en": "{play}: in gulbar a checker in its home does not move and bears off only "
        "from the rolled points",
        "ru": "{play}: в гюльбаре шашка в доме не двигается и снимается только "
        "с выпавших пунктов",
    },
    "die_unused": {
        "en": "the roll {dice} can be played in full, but {unused} was left unused",
        "ru": "бросок {dice} можно сыграть полностью, но не сыграно: {unused}",
    },
    "smaller_die": {
        "en": "only one die of {dice} can be played, and then it must be the larger ({larger})",
        "ru": "из броска {dice} можно сыграть только один зар — "
        "тогда обязательно больший ({larger})",
    },
    "no_checker": {
        "en": "{step}: {mover} has no checker on point {point}",
        "ru": "{step}: у стороны «{mover}» нет шашки на пункте {point}",
    },
    "step_distance": {
        "en": "{step} moves {distance} pips, but no die of the roll {dice} is left for it",
        "ru": "{step}: ход на {distance} пунктов, а в броске {dice} не осталось такого зара",
    },
    "wrong_distance": {
        "en": "checkers moved {moved} pips, but the roll {dice} allows {allowed}",
        "ru": "шашки прошли {moved} пунктов, а бросок {dice} даёт {allowed}",
    },
    "no_legal_play": {
        "en": "no legal play with {dice} leads to this position",
        "ru": "никакой правильный ход с броском {dice} не ведёт к этой позиции",
    },
}


def render(code: str, params: dict[str, Any], lang: Lang = "en") -> str:
    """The message for `code` in `lang`, with side names translated."""
    table = MESSAGES.get(code)
    if table is None:
        return code
    names = SIDE_NAMES[lang]
    values = {k: names.get(v, v) if isinstance(v, str) else v for k, v in params.items()}
    values = {k: ", ".join(map(str, v)) if isinstance(v, list | tuple) else v
              for k, v in values.items()}
    return table[lang].format(**values)
