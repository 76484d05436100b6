"""Long-nardy family rules the move generator and the game engine read (DIGEST §2.3-2.6).

Pure functions of the variant's data and the settings: which movements a roll gives, how many
checkers may leave the head, which six-point blocks are illegal, and, for the gulbar family,
which movements a play left unplayed (they pass to the opponent) and whether a double earns
another throw. All point numbers are in the mover's own numbering (24 -> 1, home 1-6) unless
a name says physical.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import permutations

from nardy_pi.rules.position import OFF, Position
from nardy_pi.rules.settings import DEFAULT_SETTINGS, RuleSettings, SixBlockReading
from nardy_pi.rules.sides import Side
from nardy_pi.rules.variants import Variant, get_variant

HOME_TOP = 6
_SMALL_DOUBLES = (1, 2, 5)  # [F] FAQ's first-turn exception: 1-1, 2-2, 5-5
_BIG_DOUBLES = (3, 4, 6)  # [J]'s exception: 3-3, 4-4, 6-6


def movement_sequence(
    variant: Variant, roll: tuple[int, int], settings: RuleSettings = DEFAULT_SETTINGS
) -> tuple[int, ...]:
    """The movements a roll gives: both dice, four of a double, or a ladder of doubles.

    In a ladder (mad gulbar, crazy long nardy) the rolled double and each higher one up to 6-6
    are played in that order, `settings.ladder_moves_per_double` movements per value.
    """
    a, b = roll
    if a != b:
        return (max(a, b), min(a, b))
    if not variant.doubles_ladder:
        return (a, a, a, a)
    n = settings.ladder_moves_per_double
    return tuple(v for v in range(a, 7) for _ in range(n))


def dice_orders(movements: Sequence[int], ordered: bool) -> list[tuple[int, ...]]:
    """The orders in which `movements` may be played: the given one when `ordered` (a ladder
    is climbed from the rolled double up), otherwise every distinct order."""
    if ordered:
        return [tuple(movements)]
    return sorted(set(permutations(movements)), reverse=True)


def is_ladder(variant: Variant, roll: tuple[int, int]) -> bool:
    return variant.doubles_ladder and roll[0] == roll[1]


def is_first_turn(variant: Variant, own: Sequence[int]) -> bool:
    """A side's first turn: every checker still on the head (positions carry no history, so a
    side that could not move at all on its first turn is still on its first turn)."""
    return variant.head is not None and own[variant.head] == variant.checkers


def head_allowance(
    variant: Variant,
    own: Sequence[int],
    roll: tuple[int, int],
    settings: RuleSettings = DEFAULT_SETTINGS,
) -> tuple[int, ...]:
    """How many checkers may leave the head this turn, in order of preference.

    A later entry is used only when it lets more of the roll be played than the earlier ones
    (the default reading: a second checker only when one cannot play the roll in full).
    """
    if variant.head is None:
        return (99,)
    reading = settings.head_exception
    first = is_first_turn(variant, own)
    double = roll[0] if roll[0] == roll[1] else 0
    if reading == "first_turn_if_needed":
        return (1, 2) if first else (1,)
    if reading == "doubles_any_turn":
        return (2,) if double in _BIG_DOUBLES else (1,)
    if reading == "first_turn_small_doubles":
        return (2,) if first and double in _SMALL_DOUBLES else (1,)
    return (1,)


def _opponent_path(q: int) -> int:
    """Our own point under the opponent's own point q (long nardy: numberings differ by 12)."""
    return q - 12 if q > 12 else q + 12


# Our points in the order of the opponent's own 1..24: from his home outward.
_HIS_PATH = tuple(_opponent_path(q) for q in range(1, 25))


def six_block_points(
    own: Sequence[int], opp: Sequence[int], reading: SixBlockReading = "opponent_ahead"
) -> tuple[int, ...]:
    """The first illegal run of six or more own points, in the mover's numbering and listed
    from the opponent's home outward (the reverse of the order he meets them), or ().

    A run is counted along the *opponent's* path (our 12..1 then 24..13 is his 24..1), so a
    run across our 13/12 boundary (his home and his head) is not a block. An opposing checker
    is ahead of the run once it stands past it on his path or is borne off.
    "opponent_ahead" (reading (a)): illegal when no opposing checker is ahead.
    "until_home" (reading (b), [J]): illegal when some opposing checker is behind it and the
    opponent has no checker in his home (his 1-6, our 13-18) nor borne off.
    """
    # Fast exit first: this runs at every generated play's result.
    length = 0
    for m in _HIS_PATH:
        length = length + 1 if own[m] else 0
        if length == 6:
            break
    else:
        return ()
    opp_home = opp[OFF] + sum(opp[13 : 13 + HOME_TOP])
    total = opp_home + sum(opp[1:13]) + sum(opp[19:25])
    ahead = opp[OFF]
    run: list[int] = []
    for m in (*_HIS_PATH, 0):  # the 0 closes the last run
        if m and own[m]:
            run.append(m)
            continue
        if len(run) >= 6:
            if reading == "opponent_ahead":
                if ahead == 0:
                    return tuple(run)
            elif total - ahead > 0 and opp_home == 0:
                return tuple(run)
        ahead += opp[m] if m else 0
        run = []
    return ()


@dataclass(frozen=True, slots=True)
class SixBlock:
    """An illegal block, named for messages: the blocking side's own points and the physical
    ones, in the order the blocked side meets them. That is highest own point first, except
    that a block may run from own 1 on to own 24, 23, ...: the opponent passes from our 1 to
    our 24 (physical 1 to 24 or 13 to 12), so our last point and our head are adjacent for him.
    """

    side: Side
    own_points: tuple[int, ...]
    physical_points: tuple[int, ...]


def illegal_six_block(
    position: Position,
    variant: str | Variant,
    side: Side,
    settings: RuleSettings = DEFAULT_SETTINGS,
) -> SixBlock | None:
    """The illegal six-point block `side` has in `position` (e.g. the position after its
    play), or None. Variants without the six-block rule never have one."""
    v = get_variant(variant)
    if not v.six_block:
        return None
    own, opp = position.view(v, side)
    # six_block_points lists the run from his home outward; he meets it the other way round
    run = tuple(reversed(six_block_points(own, opp, settings.six_block)))
    if not run:
        return None
    white = side is Side.WHITE
    return SixBlock(side, tuple(run), tuple(v.own_to_physical(white, p) for p in run))


def unplayed_movements(
    variant: str | Variant,
    roll: tuple[int, int],
    dice_used: Sequence[int],
    settings: RuleSettings = DEFAULT_SETTINGS,
) -> tuple[int, ...]:
    """The movements of `roll` that a play using `dice_used` (`Play.dice_used`) left unplayed.

    In a ladder the played movements are a prefix, so what is left is the rest of the ladder
    in order. Gulbar passes these to the opponent (`Variant.unplayed_to_opponent`).
    """
    left = list(movement_sequence(get_variant(variant), roll, settings))
    for die in dice_used:
        if die not in left:
            raise ValueError(f"die {die} is not among the movements of roll {roll}")
        left.remove(die)
    return tuple(left)


def earns_extra_throw(
    variant: str | Variant,
    roll: tuple[int, int],
    dice_used: Sequence[int],
    settings: RuleSettings = DEFAULT_SETTINGS,
) -> bool:
    """Whether the mover throws again after playing `dice_used` of `roll` (gulbar family:
    a double, and by default only when all of its movements were played)."""
    v = get_variant(variant)
    if not v.extra_throw_on_doubles or roll[0] != roll[1]:
        return False
    if settings.gulbar_extra_throw == "always":
        return True
    return not unplayed_movements(v, roll, dice_used, settings)
