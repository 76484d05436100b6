"""Variants are data: layouts, numbering and the switches the move generator reads.

Every variant numbers each side's points 1..24 in the side's *own* order of travel, from 24
(where checkers start their journey) down to 1, with home on own points 1-6, the bar as pseudo
point 25 and borne-off checkers as pseudo point 0. White's own numbering is the physical
numbering of board-frame.md in every variant; black's is given by `black_points`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from nardy_pi.rules.errors import UnknownVariantError

Family = Literal["backgammon", "long"]

# Short nardy: black's own point p is physical 25 - p (the players move in opposite directions).
_OPPOSED = tuple(25 - p for p in range(1, 25))
# Long nardy: both move counter-clockwise from diagonally opposite heads; black's own 24 (head)
# is physical 12, own 13 is physical 1, own 12 is physical 24 (DIGEST §2.3.1, board-frame.md).
_SAME_WAY = tuple((p + 11) % 24 + 1 for p in range(1, 25))


@dataclass(frozen=True, slots=True)
class Variant:
    name: str
    family: Family
    title_en: str
    title_ru: str
    #: (own point, checkers) for each side, in its own numbering.
    start: tuple[tuple[int, int], ...]
    #: black's own point p (index p-1) -> physical point.
    black_points: tuple[int, ...]
    #: a lone opposing checker can be hit and sent to the bar.
    hitting: bool = True
    #: this many opposing checkers close a point (2 in short nardy, 1 in long nardy).
    block: int = 2
    #: own point of the head, from which departures per turn are limited (long nardy).
    head: int | None = None
    #: Caucasian rule: a checker that hits in its own home may not hide in the same turn.
    no_hit_and_hide: bool = False
    #: long-nardy six-block rule applies.
    six_block: bool = False
    #: a double is played as a ladder: the rolled double and every higher one up to 6-6
    #: (mad gulbar, crazy long nardy; movements per value: `RuleSettings.ladder_moves_per_double`).
    doubles_ladder: bool = False
    #: a double earns another throw (gulbar family; condition: `RuleSettings.gulbar_extra_throw`).
    extra_throw_on_doubles: bool = False
    #: movements the mover cannot play are played by the opponent (gulbar family).
    unplayed_to_opponent: bool = False
    #: a checker that reached its home stays on its point until borne off (gulbar family).
    no_moves_in_home: bool = False
    #: bear off only with the exact die: from the rolled point numbers (gulbar family).
    exact_bear_off: bool = False

    @property
    def checkers(self) -> int:
        return sum(count for _, count in self.start)

    def own_to_physical(self, side_is_white: bool, own_point: int) -> int:
        return own_point if side_is_white else self.black_points[own_point - 1]


def _short(name: str, en: str, ru: str, start: tuple[tuple[int, int], ...], **kw: bool) -> Variant:
    return Variant(name, "backgammon", en, ru, start, _OPPOSED, **kw)


def _long(name: str, en: str, ru: str, **kw: bool) -> Variant:
    """A long-nardy-family variant: long nardy's layout and rules plus the switches in `kw`."""
    return Variant(
        name, "long", en, ru, ((24, 15),), _SAME_WAY,
        hitting=False, block=1, head=24, six_block=True, **kw,
    )  # fmt: skip


BACKGAMMON_START = ((24, 2), (13, 5), (8, 3), (6, 5))

VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        _short("backgammon", "Backgammon (short nardy)", "Короткие нарды", BACKGAMMON_START),
        _short(
            "nackgammon",
            "Nackgammon",
            "Накгаммон",
            ((24, 2), (23, 2), (13, 4), (8, 3), (6, 4)),
        ),
        _short("hypergammon", "Hypergammon", "Гипергаммон", ((24, 1), (23, 1), (22, 1))),
        _short(
            "caucasian",
            "Caucasian short nardy",
            "Кавказские короткие нарды",
            BACKGAMMON_START,
            no_hit_and_hide=True,
        ),
        _long("long", "Long nardy (shesh-besh)", "Длинные нарды"),
        # Gulbar (§2.4): the sources give no layout or direction; [F] files it under the long
        # kinds, so it is long nardy (head, no hitting, six-block rule) plus its own rules.
        _long(
            "gulbar",
            "Gulbar",
            "Гюльбар",
            extra_throw_on_doubles=True,
            unplayed_to_opponent=True,
            no_moves_in_home=True,
            exact_bear_off=True,
        ),
        # Mad gulbar (§2.5): gulbar whose doubles are a ladder up to 6-6.
        _long(
            "mad-gulbar",
            "Mad gulbar",
            "Бешеный гюльбар",
            doubles_ladder=True,
            extra_throw_on_doubles=True,
            unplayed_to_opponent=True,
            no_moves_in_home=True,
            exact_bear_off=True,
        ),
        # Crazy long nardy (§2.6, [F] only): long nardy whose doubles are a ladder; [F] says
        # nothing else, so the rest (incl. forfeited movements) stays as in long nardy.
        _long("crazy-long", "Crazy long nardy", "Бешеные длинные нарды", doubles_ladder=True),
    )
}

ALIASES = {
    "short": "backgammon",
    "short-nardy": "backgammon",
    "long-nardy": "long",
    "shesh-besh": "long",
    "narde": "long",
    "gul-bara": "gulbar",
    "mad_gulbar": "mad-gulbar",
    "crazy-gulbar": "mad-gulbar",
    "crazy_long": "crazy-long",
    "mad-long": "crazy-long",
}


def get_variant(name: str | Variant) -> Variant:
    """Look a variant up by name (or pass one through); raises UnknownVariantError."""
    if isinstance(name, Variant):
        return name
    key = ALIASES.get(name.strip().lower(), name.strip().lower())
    try:
        return VARIANTS[key]
    except KeyError:
        known = ", ".join(sorted(VARIANTS))
        raise UnknownVariantError(f"unknown variant {name!r}; known: {known}") from None
