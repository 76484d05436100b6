"""Where each checker of a stack lies, the sloppy way real players leave them: rows with gaps
or squeezed up to six diameters, second layers, lateral offsets, a little over the neighbour
point, and a few checkers left loose along the point instead of at its base. Independent of
nardy_pi.vision.stacking on purpose (issue 15, cause 5)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from nardy_pi.vision.render.randomised.layout import BoardLayout
from nardy_pi.vision.render.randomised.position import BoardPosition
from nardy_pi.vision.render.randomised.style import Style


@dataclass(frozen=True, slots=True)
class PlacedChecker:
    x: float  # centre on the surface, board units
    y: float
    z: float  # height of its bottom face
    white: bool
    where: str  # "point", "bar", "off"
    on_edge: bool = False  # standing on its rim (trays)
    turn: float = 0.0  # rotation of its top face's pattern, radians
    point: int = 0  # physical point 1..24, 0 on the bar, 25 borne off


def _row(rng: np.random.Generator, n: int, d: float, room: float, style: Style,
         ) -> list[tuple[float, float, float]]:
    """(distance from the base to the centre, lateral offset, lift in thicknesses) for n
    checkers."""
    slop = style.sloppiness
    start = d / 2 + abs(rng.normal(0, 0.03 + 0.05 * slop))
    per_row = max(1, int((room - start + d / 2) / d + 1e-6))
    out: list[tuple[float, float, float]] = []
    if n <= per_row:
        gap = d * (1 + abs(rng.normal(0, 0.03 * slop)))
        for k in range(n):
            out.append((start + k * gap + rng.normal(0, 0.02 * slop),
                        rng.normal(0, 0.05 * slop), 0.0))
        return out
    mode = rng.random()
    if mode < style.stack_compress / (style.stack_compress + style.stack_layers + 1e-6):
        # One squeezed row reaching up to six diameters; checkers that overlap lean on the
        # ones beside them, so every other one rides a little higher.
        lo = min(max(room, d * 4.5), d * 6.0)
        span = rng.uniform(lo, d * 6.0)
        step = (span - d) / (n - 1)
        for k in range(n):
            raised = (k % 2 == 1) and step < 0.85 * d
            out.append((start + k * step, rng.normal(0, 0.06 * slop), 0.6 if raised else 0.0))
        return out
    # Layers: fill a row, then the next layer on top (over the gaps or straight on top).
    layer, k = 0, 0
    while k < n:
        capacity = max(1, per_row - layer)
        brick = 0.5 * d if rng.random() < 0.5 and layer else 0.0
        for j in range(min(capacity, n - k)):
            out.append((start + brick + j * d + rng.normal(0, 0.03 * slop),
                        rng.normal(0, 0.06 * slop), float(layer)))
        k += min(capacity, n - k)
        layer += 1
    return out


#: a short stack (at most LOOSE_MAX) is left loose, away from its base, with probability
#: LOOSE_BASE + LOOSE_SLOP * sloppiness. The real photos have a tenth of their one- and
#: two-checker points more than a diameter from the base, and the reader missed those three
#: times as often as the others while every rendered stack started at its base.
LOOSE_MAX = 3
LOOSE_BASE, LOOSE_SLOP = 0.08, 0.25


def _loose_shift(rng: np.random.Generator, rows: list[tuple[float, float, float]], d: float,
                 room: float, style: Style) -> list[tuple[float, float, float]]:
    """The row slid along the point (all of it, or from one checker on), when it is loose."""
    if not rows or len(rows) > LOOSE_MAX or rng.random() >= LOOSE_BASE + LOOSE_SLOP * (
            style.sloppiness):
        return rows
    free = room - max(a for a, _l, _z in rows) - 0.2 * d  # up to near the point's tip
    if free <= 0.3 * d:
        return rows
    slide = rng.uniform(0.3 * d, free)
    first = int(rng.integers(0, len(rows)))  # the checkers from `first` on slide away
    return [(a + slide if k >= first else a, lat, z) for k, (a, lat, z) in enumerate(rows)]


def place_checkers(seed: int, style: Style, layout: BoardLayout,
                   position: BoardPosition, loose: bool = False,
                   loose_bar: bool = False) -> list[PlacedChecker]:
    """Every checker of the position. Each stack draws from its own stream, so changing one
    point's count leaves every other stack exactly where it was. `loose`: some short stacks
    slide away from their base (the second opinion's training renders). `loose_bar`: bar
    checkers anywhere along their half (LOOSE_BAR), not only near the middle."""
    d, t = layout.checker, layout.thickness
    placed: list[PlacedChecker] = []
    for index, count in enumerate(position.points):
        if not count:
            continue
        rng = np.random.default_rng([seed, index])
        cx, base, sign = layout.point_base(index + 1)
        shift = rng.normal(0, 0.04 * style.sloppiness)
        rows = _row(rng, abs(count), d, layout.point_length, style)
        if loose:  # its own stream: a stack that stays at its base is drawn as without
            rows = _loose_shift(np.random.default_rng([seed, index, 1]), rows, d,
                                layout.point_length, style)
        for along, lateral, lift in rows:
            placed.append(PlacedChecker(cx + shift + lateral, base + sign * along, lift * t,
                                        count > 0, "point", turn=float(rng.uniform(0, 6.3)),
                                        point=index + 1))
    placed += _bar(np.random.default_rng([seed, 24]), style, layout, position,
                   np.random.default_rng([seed, 24, 1]) if loose_bar else None)
    placed += _off(np.random.default_rng([seed, 25]), layout, position)
    return placed


#: with `loose_bar`, this share of a side's bar checkers start anywhere along their half (half
#: of those across the middle), from a single checker straddling the middle to one near the
#: far end. Real players leave them both ways (the real photos' bar checkers: one on the
#: middle, one two diameters out), while the plain renders start every bar row half a
#: diameter or more from the middle.
LOOSE_BAR = 0.6


def _bar(rng, style: Style, layout: BoardLayout, position: BoardPosition,
         loose: np.random.Generator | None = None) -> list[PlacedChecker]:
    out: list[PlacedChecker] = []
    mid = layout.height / 2
    d = layout.checker
    white_below = rng.random() < 0.7
    for white, n in ((True, position.bar_white), (False, position.bar_black)):
        if not n:
            continue
        sign = 1.0 if white == white_below else -1.0
        room = mid - d
        rows = _row(rng, n, d, room, style)
        start = mid + sign * rng.uniform(0.5, 1.2) * d
        if loose is not None and loose.random() < LOOSE_BAR:
            far = max(0.1, (mid - max(a for a, _l, _z in rows) - 0.3 * d) / d)
            far = min(far, 0.5) if loose.random() < 0.5 else far  # half of them on the middle
            start = mid + sign * loose.uniform(0.05, far) * d  # the first centre's distance
        for along, lateral, lift in rows:
            out.append(PlacedChecker(layout.bar_centre + lateral * 0.5,
                                     start + sign * (along - d / 2),
                                     lift * layout.thickness, white, "bar",
                                     turn=float(rng.uniform(0, 6.3))))
    return out


def _off(rng, layout: BoardLayout, position: BoardPosition) -> list[PlacedChecker]:
    """Borne-off checkers stand on edge in a tray; without trays they are out of the picture."""
    sides = [s for s, w in (("left", layout.tray_left), ("right", layout.tray_right)) if w]
    if not sides:
        return []
    out: list[PlacedChecker] = []
    white_side = str(rng.choice(sides))
    black_side = white_side if len(sides) == 1 else next(s for s in sides if s != white_side)
    white_bottom = rng.random() < 0.6
    for white, n, side in ((True, position.off_white, white_side),
                           (False, position.off_black, black_side)):
        x0, y0, x1, y1 = layout.tray_rect(side)
        cx = (x0 + x1) / 2
        from_bottom = white == white_bottom if len(sides) == 1 else rng.random() < 0.5
        step = layout.thickness * rng.uniform(1.0, 1.15)
        for k in range(n):
            along = 0.15 + (k + 0.5) * step
            y = y1 - along if from_bottom else y0 + along
            out.append(PlacedChecker(cx, y, 0.0, white, "off", on_edge=True, point=25))
    return out
