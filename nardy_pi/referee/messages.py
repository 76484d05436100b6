"""Texts for the referee's own verdicts (re-rolls, the opening tie), in English and Russian.

Illegal-move texts come from the rules core's diagnoses (rules/messages.py)."""

from __future__ import annotations

REROLL_REASONS: dict[str, tuple[str, str]] = {
    "off_board": ("a die left the board", "кость вылетела за доску"),
    "split_halves": ("the dice lie on both sides of the bar", "кости в разных половинах доски"),
    "cocked": ("a die is not lying flat", "кость стоит косо"),
    "on_checker": ("a die rests on a checker", "кость лежит на шашке"),
    "unreadable": ("a die's top face cannot be read", "не видно, что выпало на кости"),
    "missing_die": ("only one die can be seen", "видна только одна кость"),
    "extra_die": ("more than two dice on the board", "на доске больше двух костей"),
    "same_half": (
        "both opening dice are in one half: each player throws into the half on his right",
        "обе кости в одной половине: каждый бросает в половину справа от себя",
    ),
    "wrong_half": (
        "the dice must land in the half on the thrower's right",
        "кости нужно бросать в половину справа от себя",
    ),
}


def reroll_text(reasons: tuple[str, ...]) -> tuple[str, str]:
    """(English, Russian) sentence: "Throw again: <reason>; <reason>"."""
    en = "; ".join(REROLL_REASONS.get(r, (r, r))[0] for r in reasons)
    ru = "; ".join(REROLL_REASONS.get(r, (r, r))[1] for r in reasons)
    return f"Throw again: {en}", f"Перебросьте: {ru}"


def opening_tie_text(value: int) -> tuple[str, str]:
    return (
        f"Both opening dice show {value}: throw again",
        f"На обеих костях {value}: бросайте снова",
    )
