"""A play (one turn's checker movements) and its gnubg-style notation."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from nardy_pi.rules.position import BAR, OFF, Position


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

    def __str__(self) -> str:
        return self.notation


def point_name(p: int) -> str:
    if p == BAR:
        return "bar"
    if p == OFF:
        return "off"
    return str(p)


def _chains(steps: tuple[Step, ...]) -> list[list[Step]]:
    """Group steps into the paths of single checkers (a later step leaving where one landed)."""
    chains: list[list[Step]] = []
    for step in steps:
        for chain in chains:
            if chain[-1].dst == step.src and step.src not in (OFF, BAR):
                chain.append(step)
                break
        else:
            chains.append([step])
    return chains


def _format_chain(chain: list[Step]) -> str:
    parts = [point_name(chain[0].src)]
    for i, step in enumerate(chain):
        last = i == len(chain) - 1
        if step.hit or last:
            parts.append(point_name(step.dst) + ("*" if step.hit else ""))
    return "/".join(parts)


def format_steps(steps: tuple[Step, ...] | list[Step]) -> str:
    """gnubg-style text: `24/18 13/11`, `bar/22*`, `6/off`, `24/18*/13`, `13/11(2)`.

    Paths of one checker are merged (intermediate points shown only where it hit), identical
    parts are counted with `(n)`, and parts are ordered from the highest starting point.
    """
    if not steps:
        return ""
    chains = _chains(tuple(steps))
    texts = Counter(_format_chain(c) for c in chains)
    order = {(_format_chain(c)): (c[0].src, c[-1].dst) for c in chains}
    parts = sorted(texts, key=lambda t: (order[t][0], order[t][1]), reverse=True)
    return " ".join(p if texts[p] == 1 else f"{p}({texts[p]})" for p in parts)
