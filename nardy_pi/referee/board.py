"""Boards as the referee compares them: observations turned into positions, and the half-made
boards a legal play passes through (in any order of its steps).
"""

from __future__ import annotations

from dataclasses import dataclass

from nardy_pi.rules.play import Play, Step
from nardy_pi.rules.position import BAR, OFF, Position
from nardy_pi.rules.sides import Side
from nardy_pi.rules.variants import Variant
from nardy_pi.vision.types import Observation

BoardKey = tuple[int, ...]  # 24 points, bar (w, b), off (w, b): what a camera can see


def board_key(position: Position) -> BoardKey:
    return (*position.points, *position.bar, *position.off)


def board_position(board: BoardKey, turn: Side) -> Position:
    return Position(board[:24], (board[24], board[25]), (board[26], board[27]), turn)


def observed_position(obs: Observation, variant: Variant, turn: Side) -> Position:
    """The observation as a position. Without a tray in view, borne-off counts are whatever
    is missing from the board (the checker census then cannot catch a lost checker there)."""
    on_white = sum(c for c in obs.points if c > 0) + obs.bar_white
    on_black = sum(-c for c in obs.points if c < 0) + obs.bar_black
    off_white = obs.off_white if obs.off_white is not None else max(0, variant.checkers - on_white)
    off_black = obs.off_black if obs.off_black is not None else max(0, variant.checkers - on_black)
    return Position(
        tuple(obs.points), (obs.bar_white, obs.bar_black), (off_white, off_black), turn
    )


ViewKey = tuple[int, ...]  # own[0..25] + opp[0..25] in the mover's numbering


def view_key(position: Position, variant: Variant, mover: Side) -> ViewKey:
    own, opp = position.view(variant, mover)
    return (*own, *opp)


def _apply(key: ViewKey, step: Step, hitting: bool) -> ViewKey | None:
    """One checker movement on a view key; None when no checker stands on `step.src`."""
    cells = list(key)
    own, opp = cells[:26], cells[26:]
    if own[step.src] == 0:
        return None
    own[step.src] -= 1
    if step.dst != OFF and hitting and opp[step.dst] == 1:
        opp[step.dst] = 0
        opp[BAR] += 1
    own[step.dst] += 1
    return (*own, *opp)


@dataclass(frozen=True, slots=True)
class MoveMap:
    """Every board reachable part-way through a legal play, with the steps that may follow.

    `next_steps[key]` holds (src, dst) chains still to play from that board, so a lifted
    checker's possible destinations can be read off directly.
    """

    mover: Side
    start: ViewKey
    results: frozenset[ViewKey]
    next_steps: dict[ViewKey, frozenset[tuple[Step, ...]]]

    def is_on_the_way(self, key: ViewKey) -> bool:
        return key in self.next_steps

    def lifted(
        self, key: ViewKey, previous: ViewKey | None = None
    ) -> tuple[int, tuple[int, ...]] | None:
        """When `key` is a part-way board with one own checker in the air: (its own point,
        the own points it may reach this turn). None otherwise.

        One board can read two ways (a checker missing from 24 = "lifted from 24" or "24/18
        played, then lifted from 18"), so the part-way board seen just before decides; without
        it, the reading with the fewest steps played is taken.
        """
        if previous is not None and previous in self.next_steps:
            diff = [i for i in range(26) if previous[i] != key[i]]
            same_rest = previous[26:] == key[26:]
            if same_rest and len(diff) == 1 and previous[diff[0]] - key[diff[0]] == 1:
                dests = _destinations(self.next_steps[previous], diff[0])
                if dests:
                    return diff[0], dests
        best: tuple[int, int, tuple[int, ...]] | None = None  # (steps left, src, dests)
        cells = list(key)
        for src in range(1, 26):
            cells[src] += 1
            remaining = self.next_steps.get(tuple(cells))
            cells[src] -= 1
            dests = _destinations(remaining or frozenset(), src)
            if dests and (best is None or len(next(iter(remaining))) > best[0]):  # type: ignore[arg-type]
                best = (len(next(iter(remaining))), src, dests)  # type: ignore[arg-type]
        return None if best is None else (best[1], best[2])


def _destinations(remaining: frozenset[tuple[Step, ...]], src: int) -> tuple[int, ...]:
    """Own points a checker leaving `src` reaches in the plays that may follow."""
    dests: set[int] = set()
    for steps in remaining:
        if steps[0].src != src:
            continue
        at = src
        for step in steps:  # follow the same checker as far as it goes
            if step.src == at:
                dests.add(step.dst)
                at = step.dst
    return tuple(sorted(dests, reverse=True))


def build_move_map(
    before: Position, plays: list[Play], variant: Variant, mover: Side
) -> MoveMap:
    start = view_key(before, variant, mover)
    results = frozenset(view_key(p.result, variant, mover) for p in plays)
    next_steps: dict[ViewKey, set[tuple[Step, ...]]] = {}
    seen: set[tuple[ViewKey, tuple[Step, ...]]] = set()

    def walk(key: ViewKey, remaining: tuple[Step, ...]) -> None:
        if (key, remaining) in seen:
            return
        seen.add((key, remaining))
        if not remaining:
            return
        for i, step in enumerate(remaining):
            nxt = _apply(key, step, variant.hitting)
            if nxt is None:
                continue
            rest = remaining[:i] + remaining[i + 1 :]
            next_steps.setdefault(key, set()).add((step, *rest))
            walk(nxt, rest)

    for play in plays:
        bare = tuple(sorted((Step(s.src, s.dst, False, s.die) for s in play.steps),
                            key=lambda s: (-s.src, -s.dst)))
        walk(start, bare)
    return MoveMap(
        mover, start, results, {k: frozenset(v) for k, v in next_steps.items()}
    )
