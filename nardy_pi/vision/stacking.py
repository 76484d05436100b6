"""How players lay out a stack along a point: one shared model of stacking conventions.

The renderer places checkers with it and the census predicts what each count looks like with
it. Two conventions seen on real boards: `rows` (a single row, squeezed together once it
outgrows the point) and `layers` (a pyramid: five, then four in the gaps on top, then three...).
"""

from __future__ import annotations

from dataclasses import dataclass

STACK_STYLES = ("rows", "layers")


@dataclass(frozen=True, slots=True)
class Placed:
    offset: float  # distance from the strip base to the checker's base-side edge
    layer: int  # 0 = on the board


def stack_layout(count: int, style: str, length: float, diameter: float) -> list[Placed]:
    """Checkers in drawing order (later ones lie on top)."""
    if count <= 0:
        return []
    fit = max(1, round(length / diameter))
    if count <= fit:
        return [Placed(i * diameter, 0) for i in range(count)]
    if style == "rows":
        step = (length - diameter) / (count - 1)
        return [Placed(i * step, 0) for i in range(count)]
    if style != "layers":
        raise ValueError(f"unknown stacking style {style!r}")
    placed: list[Placed] = []
    layer, row_len = 0, fit
    while len(placed) < count:
        start = layer * diameter / 2
        for i in range(max(row_len, 1)):
            if len(placed) == count:
                break
            placed.append(Placed(start + i * diameter, layer))
        layer += 1
        row_len -= 1
        if row_len <= 0:  # pyramid full: keep piling on the middle
            row_len, layer = 1, layer
    return placed


def visible_edges(count: int, style: str, length: float, diameter: float) -> list[float]:
    """Offsets along the strip where a checker rim shows from above (1-D painter's model),
    including both ends of the stack."""
    layout = stack_layout(count, style, length, diameter)
    if not layout:
        return []
    resolution = 200
    span = max(length, max(p.offset for p in layout) + diameter)
    cells = [-1] * resolution
    for index, placed in enumerate(layout):
        a = round(placed.offset / span * resolution)
        b = round((placed.offset + diameter) / span * resolution)
        for c in range(max(a, 0), min(b, resolution)):
            cells[c] = index
    edges = [0.0] if cells[0] != -1 else []
    edges += [c / resolution * span for c in range(1, resolution) if cells[c] != cells[c - 1]]
    if cells[-1] != -1:
        edges.append(span)  # the stack's far end
    return edges
