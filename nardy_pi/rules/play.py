"""A play (one turn's checker movements) and its gnubg-style notation."""

from __future__ import annotations

from dataclasses import dataclass

from nardy_pi.rules.position import BAR, OFF, Position
from nardy_pi.rules.sides import Side
from nardy_pi.rules.variants import Variant


@dataclass(frozen=True, slots=True)
class Step:
    """One checker movement by one die, in the mover's own numbering (25 = bar, 0 = off)."""

    src: int
    dst: int
    hit: bool = False
    die: int = 0


@dataclass(frozen=True, slots=True)
class Play:
    """A legal play: its steps, the position it leads to (turn passed on) and the dice used."""

    steps: tuple[Step, ...]
    result: Position

    @property
    def dice_used(self) -> tuple[int, ...]:
        return tuple(s.die for s in self.steps)

    @property
    def notation(self) -> str:
        return format_steps(self.steps)

    @property
    def plain_notation(self) -> str:
        """The notation with repeated paths written out, no `(n)` (the CLI's output form)."""
        return format_steps(self.steps, multipliers=False)

    def __str__(self) -> str:
        return self.notation


def touched_points(play: Play, variant: Variant, mover: Side) -> tuple[int, ...]:
    """The physical points a play starts from or lands on (bar and off aside), for marking
    the last move on the board diagram and the LEDs."""
    white = mover is Side.WHITE
    points = {
        variant.own_to_physical(white, p)
        for step in play.steps
        for p in (step.src, step.dst)
        if p not in (BAR, OFF)
    }
    return tuple(sorted(points))


def point_name(p: int) -> str:
    if p == BAR:
        return "bar"
    if p == OFF:
        return "off"
    return str(p)


def format_steps(steps: tuple[Step, ...] | list[Step], multipliers: bool = True) -> str:
    """gnubg's canonical text: `24/18 13/11`, `bar/22*`, `6/off`, `24/18*/13`, `13/11(2)`.

    Written the way GNU Backgammon writes a move, so texts compare equal across tools: steps
    ordered from the highest point (ties: the higher landing point first), each checker's
    steps merged into one path (an intermediate point shown only where it hit), identical
    paths counted with `(n)`, and each hit marked once, where it first happens. Without
    `multipliers` a repeated path is written out again (`13/11 13/11`), as the command-line
    contract wants for output (spec/cli.md: `(2)` on input only).
    """
    if not steps:
        return ""
    hits = {s.dst for s in steps if s.hit}
    paths = [[s.src, s.dst] for s in sorted(steps, key=lambda s: (s.src, s.dst), reverse=True)]
    merged: list[list[int]] = []
    absorbed = [False] * len(paths)
    for i, path in enumerate(paths):
        if absorbed[i]:
            continue
        for j in range(i + 1, len(paths)):
            if not absorbed[j] and path[-1] == paths[j][0]:
                if path[-1] in hits:
                    path.append(paths[j][1])  # keep the point where it hit
                else:
                    path[-1] = paths[j][1]
                absorbed[j] = True
        merged.append(path)
    counted: list[tuple[list[int], int]] = []
    for path in merged if multipliers else ():
        for k, (seen, n) in enumerate(counted):
            if seen == path:
                counted[k] = (seen, n + 1)
                break
        else:
            counted.append((path, 1))
    if not multipliers:
        counted = [(path, 1) for path in merged]
    marked: set[int] = set()
    parts = []
    for path, n in counted:
        text = point_name(path[0])
        for point in path[1:-1]:
            text += f"/{point_name(point)}*"
            marked.add(point)
        last = path[-1]
        text += "/" + point_name(last)
        if last in hits and last not in marked:
            text += "*"
            marked.add(last)
        parts.append(text if n == 1 else f"{text}({n})")
    return " ".join(parts)


def format_each_step(steps: tuple[Step, ...] | list[Step]) -> str:
    """Every single-die step on its own (`8/6 6/3`), highest first: one reading of a play."""
    ordered = sorted(steps, key=lambda s: (s.src, s.dst), reverse=True)
    return " ".join(
        f"{point_name(s.src)}/{point_name(s.dst)}{'*' if s.hit else ''}" for s in ordered
    )
