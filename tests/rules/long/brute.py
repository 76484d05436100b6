"""A slow, obviously-correct reference for long-nardy-family legal plays (tests only).

It shares nothing with the generator but `Position.view`: it lists every sequence of single
checker movements in every allowed dice order (deduplicated level by level), applies each rule
of DIGEST §2.3-2.5 naively, and keeps the results of the longest admissible sequences. The
settings' readings are re-implemented here from their documentation in settings.py.
"""

from __future__ import annotations

from nardy_pi.rules.position import OFF, Position
from nardy_pi.rules.settings import RuleSettings
from nardy_pi.rules.variants import Variant

HEAD = 24

# A state of the search: own counts (index 0 = off .. 24), head departures, first die, and
# whether a checker was borne off.
State = tuple[tuple[int, ...], int, int, bool]


def roll_movements(v: Variant, roll: tuple[int, int], s: RuleSettings) -> list[tuple[int, ...]]:
    """Every allowed order of the roll's movements."""
    a, b = roll
    if a != b:
        return [(a, b), (b, a)]
    if v.doubles_ladder:
        return [tuple(x for x in range(a, 7) for _ in range(s.ladder_moves_per_double))]
    return [(a,) * 4]


def his_path(q: int) -> int:
    """Our point under the opponent's own point q."""
    return q + 12 if q <= 12 else q - 12


def illegal_block(own: tuple[int, ...], opp: list[int], reading: str) -> bool:
    path = [his_path(q) for q in range(1, 25)]  # his home first
    for start in range(19):
        window = path[start : start + 6]
        if not all(own[m] for m in window):
            continue
        ahead = opp[OFF] + sum(opp[path[j]] for j in range(start))
        behind = sum(opp[path[j]] for j in range(start + 6, 24))
        his_home = opp[OFF] + sum(opp[path[j]] for j in range(6))
        if reading == "opponent_ahead" and ahead == 0:
            return True
        if reading == "until_home" and behind > 0 and his_home == 0:
            return True
    return False


def single_moves(
    own: tuple[int, ...], opp: list[int], d: int, v: Variant, s: RuleSettings
) -> list[tuple[int, int]]:
    """(src, dst) of every legal movement of one checker by `d` (dst 0 = borne off)."""
    out = []
    all_home = sum(own[7:25]) == 0
    for src in range(1, 25):
        if not own[src]:
            continue
        dst = src - d
        if dst >= 1:
            if opp[dst]:
                continue
            if v.no_moves_in_home and src <= 6:
                continue
            out.append((src, dst))
            continue
        if not all_home:
            continue
        if dst < 0:
            if v.exact_bear_off:
                continue
            lowest_blocking = d if s.oversize_bear_off == "any" else src + 1
            if any(own[q] for q in range(lowest_blocking, 7)):
                continue
        out.append((src, 0))
    return out


def _levels(
    own0: tuple[int, ...], opp: list[int], order: tuple[int, ...], allowance: int,
    v: Variant, s: RuleSettings,
) -> list[set[State]]:  # fmt: skip
    levels: list[set[State]] = [{(own0, 0, 0, False)}]
    for d in order:
        nxt: set[State] = set()
        for own, head_used, first, off in levels[-1]:
            for src, dst in single_moves(own, opp, d, v, s):
                if src == HEAD and head_used >= allowance:
                    continue
                new = list(own)
                new[src] -= 1
                new[dst] += 1
                nxt.add((tuple(new), head_used + (src == HEAD), first or d, off or dst == 0))
        if not nxt:
            break
        levels.append(nxt)
    return levels


def _admissible(
    own0: tuple[int, ...], opp: list[int], roll: tuple[int, int], allowance: int,
    v: Variant, s: RuleSettings,
) -> tuple[int, set[State]]:  # fmt: skip
    """(most movements playable, the states reached with that many) for one head allowance."""
    by_depth: dict[int, set[State]] = {}
    for order in roll_movements(v, roll, s):
        for depth, states in enumerate(_levels(own0, opp, order, allowance, v, s)):
            ok = {st for st in states if not illegal_block(st[0], opp, s.six_block)}
            by_depth.setdefault(depth, set()).update(ok)
    # (no admissible state at all: the mover keeps an illegal block he cannot break; a pass)
    most = max((d for d, states in by_depth.items() if states), default=0)
    return most, by_depth.get(most, set())


def reference_results(
    position: Position, roll: tuple[int, int], v: Variant, s: RuleSettings
) -> set[tuple[int, ...]]:
    """The mover's own counts after each legal play (empty: a pass)."""
    own_list, opp = position.view(v)
    own0 = tuple(own_list[:25])
    first_turn = own0[HEAD] == v.checkers
    double = roll[0] if roll[0] == roll[1] else 0
    full = len(roll_movements(v, roll, s)[0])
    if s.head_exception == "first_turn_if_needed":
        most, states = _admissible(own0, opp, roll, 1, v, s)
        if first_turn and most < full:
            most2, states2 = _admissible(own0, opp, roll, 2, v, s)
            if most2 > most:
                most, states = most2, states2
    else:
        two = (s.head_exception == "doubles_any_turn" and double in (3, 4, 6)) or (
            s.head_exception == "first_turn_small_doubles" and first_turn and double in (1, 2, 5)
        )
        most, states = _admissible(own0, opp, roll, 2 if two else 1, v, s)
    if most == 0:
        return set()
    if most == 1 and not double and any(st[2] == max(roll) for st in states):
        states = {st for st in states if st[2] == max(roll)}
    if s.higher_die_first and not double and most == 2:
        all_home = sum(own0[7:25]) == 0

        def order_ok(st: State) -> bool:
            return not (all_home or st[3]) or st[2] == max(roll)

        # a result counts as larger-first if any sequence reaching it is
        results = {st[0] for st in states}
        good = {st[0] for st in states if order_ok(st)}
        return good if good else results
    return {st[0] for st in states}
