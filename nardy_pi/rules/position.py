"""An immutable position in the physical board frame, and the mover's-eye view of it.

`points[i]` is physical point i+1 (board-frame.md): positive = white checkers, negative =
black. The rules layer maps physical points to each side's own numbering through the variant.
"""

from __future__ import annotations

from dataclasses import dataclass

from nardy_pi.rules.errors import InvalidPositionError
from nardy_pi.rules.sides import Side
from nardy_pi.rules.variants import Variant, get_variant

BAR = 25
OFF = 0


@dataclass(frozen=True, slots=True)
class Position:
    points: tuple[int, ...]
    bar: tuple[int, int] = (0, 0)  # (white, black)
    off: tuple[int, int] = (0, 0)  # (white, black)
    turn: Side = Side.WHITE

    def __post_init__(self) -> None:
        if len(self.points) != 24:
            raise InvalidPositionError(f"a position has 24 points, got {len(self.points)}")
        if min(self.bar) < 0 or min(self.off) < 0:
            raise InvalidPositionError("bar and borne-off counts cannot be negative")

    # --- construction -------------------------------------------------------------------
    @classmethod
    def start(cls, variant: str | Variant = "backgammon", turn: Side = Side.WHITE) -> Position:
        v = get_variant(variant)
        points = [0] * 24
        for own, count in v.start:
            points[own - 1] += count
            points[v.black_points[own - 1] - 1] -= count
        return cls(tuple(points), (0, 0), (0, 0), turn)

    @classmethod
    def from_view(
        cls, variant: Variant, mover: Side, own: list[int], opp: list[int]
    ) -> Position:
        """Inverse of `view`: rebuild the physical position; the turn passes to the opponent."""
        points = [0] * 24
        if mover is Side.WHITE:
            for p in range(1, 25):
                points[p - 1] = own[p] - opp[p]
            return cls(tuple(points), (own[BAR], opp[BAR]), (own[OFF], opp[OFF]), Side.BLACK)
        bp = variant.black_points
        for p in range(1, 25):
            points[bp[p - 1] - 1] = opp[p] - own[p]
        return cls(tuple(points), (opp[BAR], own[BAR]), (opp[OFF], own[OFF]), Side.WHITE)

    # --- views ----------------------------------------------------------------------------
    def view(self, variant: Variant, side: Side | None = None) -> tuple[list[int], list[int]]:
        """`side`'s own-numbered counts: (own, opp), each indexed 0 (off) .. 25 (bar).

        `opp[p]` counts opposing checkers standing on *our* own point p; `opp[25]`/`opp[0]`
        are the opponent's bar and borne-off counts.
        """
        side = self.turn if side is None else side
        own = [0] * 26
        opp = [0] * 26
        pts = self.points
        if side is Side.WHITE:
            for p in range(1, 25):
                c = pts[p - 1]
                if c > 0:
                    own[p] = c
                elif c < 0:
                    opp[p] = -c
            own[BAR], opp[BAR] = self.bar
            own[OFF], opp[OFF] = self.off
        else:
            bp = variant.black_points
            for p in range(1, 25):
                c = pts[bp[p - 1] - 1]
                if c < 0:
                    own[p] = -c
                elif c > 0:
                    opp[p] = c
            opp[BAR], own[BAR] = self.bar
            opp[OFF], own[OFF] = self.off
        return own, opp

    def with_turn(self, turn: Side) -> Position:
        return Position(self.points, self.bar, self.off, turn)

    def count(self, side: Side) -> int:
        """Checkers of `side` on the board, on the bar and borne off."""
        sign = side.sign
        on_board = sum(c * sign for c in self.points if c * sign > 0)
        return on_board + self.bar[side] + self.off[side]

    def pip_count(self, variant: str | Variant, side: Side) -> int:
        """Pips `side` needs to bear everything off (bar checkers count 25)."""
        own, _ = self.view(get_variant(variant), side)
        return sum(p * own[p] for p in range(1, 26))

    def key(self) -> tuple[int, ...]:
        return (*self.points, *self.bar, *self.off, int(self.turn))


def problems(position: Position, variant: str | Variant) -> list[str]:
    """Why `position` cannot occur in `variant` (empty when it is sane).

    These are the checks a camera reading needs: the right number of checkers per side
    counting bar and off, no bar in variants without hitting, and a side to move that could
    have reached this position (the game is not already over).
    """
    v = get_variant(variant)
    issues: list[str] = []
    for side in Side:
        n = position.count(side)
        if n != v.checkers:
            issues.append(f"{side.label} has {n} checkers, expected {v.checkers}")
    if not v.hitting and any(position.bar):
        issues.append(f"{v.name} has no bar, but checkers stand on it")
    if position.off[position.turn] >= v.checkers:
        issues.append(f"{position.turn.label} is to move but has borne off every checker")
    return issues


def validate(position: Position, variant: str | Variant) -> Position:
    """Return `position` or raise InvalidPositionError listing every problem."""
    found = problems(position, variant)
    if found:
        raise InvalidPositionError("; ".join(found))
    return position
