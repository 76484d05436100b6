"""Whether one full play of a ladder of doubles turns a board into an observed one.

A ladder (mad gulbar, crazy long nardy) is up to twelve movements played in a fixed order,
and one position can have hundreds of thousands of plays, so neither listing them nor a
search over board states (millions of them) suits a referee. In the long family nothing is
hit and a checker is blocked only by the opponent, who stands still during the turn: so
whether a checker may take a given set of movements depends on that checker's own path
alone (it takes them in ladder order, smallest first). A full play is then an assignment of
the movements to checkers, each checker ending on a point of the observed board; searching
those assignments checker by checker, with dead ends remembered, stays small.

Plays that bear off, enter from the bar or hit are left to the general search
(`applies` says so); bearing off depends on where every other checker is at that moment.
"""

from __future__ import annotations

from functools import cache
from itertools import product
from typing import Any

from nardy_pi.rules.long_rules import head_allowance, movement_sequence, six_block_points
from nardy_pi.rules.play import Play, Step
from nardy_pi.rules.position import BAR, OFF, Position
from nardy_pi.rules.settings import RuleSettings
from nardy_pi.rules.variants import Variant

HOME_TOP = 6


def applies(position: Position, v: Variant, roll: tuple[int, int], after: Position) -> bool:
    """Can `ladder_play_reaching` decide this observation (a ladder, no bar, no hit, no
    bear-off, the opponent untouched)?"""
    return v.doubles_ladder and roll[0] == roll[1] and applies_to_movements(position, v, after)


@cache
def _sub_multisets(left: tuple[int, ...], values: tuple[int, ...]) -> dict[int, tuple]:
    """Count vectors `c <= left` (over `values`), grouped by the pips they add up to."""
    by_sum: dict[int, list[tuple[int, ...]]] = {}
    for chosen in product(*(range(n + 1) for n in left)):
        total = sum(n * x for n, x in zip(chosen, values, strict=True))
        by_sum.setdefault(total, []).append(chosen)
    return {total: tuple(vectors) for total, vectors in by_sum.items()}


def applies_to_movements(position: Position, v: Variant, after: Position) -> bool:
    """Can `movements_play_reaching` decide this observation of left-over ladder movements
    (no hitting, no bar, no bear-off, the opponent untouched)?"""
    if v.hitting:
        return False
    own, opp = position.view(v, position.turn)
    own_a, opp_a = after.view(v, position.turn)
    return own[BAR] == 0 and own_a[BAR] == 0 and own_a[OFF] == own[OFF] and opp == opp_a


def ladder_play_reaching(
    position: Position,
    roll: tuple[int, int],
    v: Variant,
    after: Position,
    settings: RuleSettings,
    relax: Any = None,
    full: bool = True,
) -> Play | None:
    """The ladder play that reaches `after`, or None. Only when `applies(...)`.

    `full`: a play of every movement with the first head allowance (a legal play whenever
    the whole ladder can be played). Otherwise the movements whose pips match the change (a
    ladder is played from its start, so that prefix is unique), each step allowed once the
    rules in `relax` are off: what naming a broken rule needs.
    """
    # `relax`: a movegen.Relax (read by attribute, so this module needs no movegen import)
    allowance = (
        99
        if getattr(relax, "head", False)
        else head_allowance(v, position.view(v, position.turn)[0], roll, settings)[0]
    )
    ladder = movement_sequence(v, roll, settings)
    return _reaching(position, ladder, allowance, v, after, settings, relax, full)


def movements_play_reaching(
    position: Position,
    moves: tuple[int, ...],
    v: Variant,
    after: Position,
    settings: RuleSettings,
) -> Play | None:
    """The play of every one of `moves` (the rest of a ladder a gulbar opponent left, in
    order; one checker may leave the head) that reaches `after`, or None. Only when
    `applies_to_movements(...)`."""
    return _reaching(position, tuple(moves), 1, v, after, settings, None, True)


def _reaching(
    position: Position,
    ladder: tuple[int, ...],
    allowance: int,
    v: Variant,
    after: Position,
    settings: RuleSettings,
    relax: Any,
    full: bool,
) -> Play | None:
    def off(rule: str) -> bool:
        return bool(getattr(relax, rule, False))

    mover = position.turn
    own, opp = position.view(v, mover)
    target, target_opp = after.view(v, mover)
    if (
        v.six_block
        and not off("six_block")
        and six_block_points(target, target_opp, settings.six_block)
    ):
        return None
    moved = sum(q * own[q] for q in range(1, BAR)) - sum(q * target[q] for q in range(1, BAR))
    prefix = next((n for n in range(len(ladder) + 1) if sum(ladder[:n]) == moved), None)
    if prefix is None or prefix == 0 or (full and prefix < len(ladder)):
        return None
    moves = ladder[:prefix]
    block = 99 if off("blocks") else v.block
    frozen_home = v.no_moves_in_home and not off("gulbar_home")
    values = tuple(sorted(set(moves)))
    counts = tuple(moves.count(x) for x in values)
    sources = [p for p in range(BAR - 1, 0, -1) for _ in range(own[p])]
    head = v.head or 0
    dead: set[tuple] = set()

    def path_ok(src: int, taken: tuple[int, ...]) -> bool:
        point = src
        for value, n in zip(values, taken, strict=True):
            for _ in range(n):
                if frozen_home and point <= HOME_TOP:
                    return False  # gulbar: a checker in its home stays there
                point -= value
                if point < 1 or opp[point] >= block:
                    return False
        return True

    def assign(k: int, left: tuple[int, ...], wanted: tuple[int, ...], head_left: int):
        if k == len(sources):
            return [] if not any(left) else None
        key = (k, left, wanted, head_left)
        if key in dead:
            return None
        src = sources[k]
        for dst in range(src, 0, -1):
            if not wanted[dst]:
                continue
            if dst < src and src == head and head_left == 0:
                continue
            for taken in _sub_multisets(left, values).get(src - dst, ()):
                if dst < src and not path_ok(src, taken):
                    continue
                rest = tuple(a - b for a, b in zip(left, taken, strict=True))
                still = list(wanted)
                still[dst] -= 1
                used_head = 1 if dst < src and src == head else 0
                found = assign(k + 1, rest, tuple(still), head_left - used_head)
                if found is not None:
                    return [(src, taken), *found]
        dead.add(key)
        return None

    wanted = tuple(target[p] if 1 <= p < BAR else 0 for p in range(BAR + 1))
    plan = assign(0, counts, wanted, allowance)
    if plan is None:
        return None
    paths: list[tuple[int, int, int, int]] = []  # (die, order, src, dst)
    for src, taken in plan:
        point = src
        for value, n in zip(values, taken, strict=True):
            for _ in range(n):
                paths.append((value, len(paths), point, point - value))
                point -= value
    steps = tuple(Step(s, d, False, die) for die, _, s, d in sorted(paths))
    return Play(steps, Position.from_view(v, mover, list(target), list(target_opp)))
