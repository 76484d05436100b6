"""Our side of the comparison: result sets, position tags and readable mismatch reports."""

from __future__ import annotations

from dataclasses import dataclass

from nardy_pi.rules.movegen import legal_plays
from nardy_pi.rules.notation.board_field import format_board_field
from nardy_pi.rules.position import BAR, Position
from nardy_pi.rules.variants import get_variant

#: The board after a turn: (24 physical points, (white, black) bar, (white, black) off).
BoardKey = tuple[tuple[int, ...], tuple[int, int], tuple[int, int]]


def board_key(position: Position) -> BoardKey:
    return (position.points, position.bar, position.off)


def key_position(key: BoardKey, turn: object) -> Position:
    points, bar, off = key
    return Position(points, bar, off, turn)  # type: ignore[arg-type]


def our_results(position: Position, dice: tuple[int, int], variant: str) -> frozenset[BoardKey]:
    """Boards our generator allows after this roll; a pass leaves the board unchanged."""
    plays = legal_plays(position, dice, variant)
    if not plays:
        return frozenset({board_key(position)})
    return frozenset(board_key(p.result) for p in plays)


def describe_key(key: BoardKey) -> str:
    points, bar, off = key
    field = format_board_field(points, bar[0], bar[1])
    return f"{field} off w{off[0]} b{off[1]}"


def tags(position: Position, dice: tuple[int, int], variant: str) -> frozenset[str]:
    """Situations worth covering: bar entry, closed board, bear-off, doubles."""
    own, opp = position.view(get_variant(variant), position.turn)
    found = set()
    if own[BAR]:
        found.add("bar_entry")
        if all(opp[p] >= 2 for p in range(19, 25)):
            found.add("closed_board")
    elif not any(own[7:25]):
        found.add("bear_off")
    if dice[0] == dice[1]:
        found.add("doubles")
    return frozenset(found)


def outcome_tags(position: Position, dice: tuple[int, int], variant: str) -> frozenset[str]:
    """How the roll plays out: "pass" (nothing moves) or "partial" (some dice are lost)."""
    plays = legal_plays(position, dice, variant)
    if not plays:
        return frozenset({"pass"})
    full = 4 if dice[0] == dice[1] else 2
    if max(len(p.steps) for p in plays) < full:
        return frozenset({"partial"})
    return frozenset()


@dataclass(frozen=True)
class Mismatch:
    """One (position, roll) where a reference and we disagree, with both differences."""

    reference: str
    variant: str
    position: Position
    dice: tuple[int, int]
    missing: frozenset[BoardKey]  # the reference allows these, we do not
    extra: frozenset[BoardKey]  # we allow these, the reference does not
    note: str = ""

    def report(self) -> str:
        pos = self.position
        lines = [
            f"[{self.reference}] variant={self.variant} turn={pos.turn.label} "
            f"dice={self.dice[0]}{self.dice[1]} {self.note}".rstrip(),
            f"  position: {describe_key(board_key(pos))}",
        ]
        lines += [f"  missing (reference only): {describe_key(k)}" for k in sorted(self.missing)]
        lines += [f"  extra (ours only):        {describe_key(k)}" for k in sorted(self.extra)]
        return "\n".join(lines)


def compare(
    reference: str,
    variant: str,
    position: Position,
    dice: tuple[int, int],
    theirs: frozenset[BoardKey],
    ours: frozenset[BoardKey] | None = None,
    note: str = "",
) -> Mismatch | None:
    mine = our_results(position, dice, variant) if ours is None else ours
    if mine == theirs:
        return None
    return Mismatch(reference, variant, position, dice, theirs - mine, mine - theirs, note)


def failure_message(mismatches: list[Mismatch], compared: int, shown: int = 5) -> str:
    head = f"{len(mismatches)} of {compared} (position, roll) pairs differ; first {shown}:"
    return "\n".join([head, *(m.report() for m in mismatches[:shown])])
