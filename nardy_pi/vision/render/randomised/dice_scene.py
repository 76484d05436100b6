"""Where the dice and the cube land, one case at a time, covering every re-roll condition of
issue 10 (and the valid throws around them)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from nardy_pi.vision.render.randomised.dice import (
    Box3D,
    make_cube,
    make_die,
    rest_centre,
    tilt,
)
from nardy_pi.vision.render.randomised.layout import BoardLayout
from nardy_pi.vision.render.randomised.stacks import PlacedChecker
from nardy_pi.vision.render.randomised.style import Style

# How a single die lies. The flat on-surface cases are valid on their own.
DICE_CASES = (
    "flat_light_point", "flat_dark_point", "flat_field", "bar", "on_checker",
    "touching_stack", "cocked_checker", "cocked_frame", "half_frame", "frame", "tray",
    "outside",
)
VALID_CASES = ("flat_light_point", "flat_dark_point", "flat_field", "touching_stack")
OFF_BOARD_CASES = ("frame", "tray", "outside", "half_frame")
COCKED_CASES = ("cocked_checker", "cocked_frame", "half_frame")
# Whole throws for dice="random": (name, weight).
ROLLS = (("valid", 0.32), ("split_halves", 0.1), ("off_board", 0.1), ("on_checker", 0.08),
         ("cocked", 0.12), ("bar", 0.04), ("one_die", 0.04), ("three_dice", 0.04),
         ("touching", 0.04), ("none", 0.12))
CUBE_POSITIONS = ("center", "top", "bottom", "off")


@dataclass(frozen=True, slots=True)
class DieSpec:
    """One die to place: its case (DICE_CASES), optionally its top value and half."""

    case: str = "flat_field"
    value: int | None = None
    half: str | None = None


@dataclass(frozen=True, slots=True)
class CubeSpec:
    position: str = "center"  # CUBE_POSITIONS
    value: int | None = None  # face shown; a centred cube always shows 64


@dataclass(frozen=True, slots=True)
class PlacedDie:
    box: Box3D
    case: str
    flat: bool
    on_checker: bool
    off_board: bool
    half: str | None


def roll_specs(rng: np.random.Generator, trays: bool) -> list[DieSpec]:
    names = [n for n, _w in ROLLS]
    weights = np.array([w for _n, w in ROLLS])
    roll = str(rng.choice(names, p=weights / weights.sum()))
    half = str(rng.choice(["left", "right"]))
    other = "right" if half == "left" else "left"

    def valid(h: str = half) -> DieSpec:
        return DieSpec(str(rng.choice(VALID_CASES[:3], p=[0.4, 0.4, 0.2])), half=h)

    if roll == "none":
        return []
    if roll == "valid":
        return [valid(), valid()]
    if roll == "split_halves":
        return [valid(), valid(other)]
    if roll == "off_board":
        cases = ["frame", "outside", "half_frame"] + (["tray"] if trays else [])
        return [valid(), DieSpec(str(rng.choice(cases)))]
    if roll == "on_checker":
        return [valid(), DieSpec("on_checker", half=half)]
    if roll == "cocked":
        return [valid(), DieSpec(str(rng.choice(["cocked_checker", "cocked_frame"])),
                                 half=half)]
    if roll == "bar":
        return [valid(), DieSpec("bar")]
    if roll == "touching":
        return [valid(), DieSpec("touching_stack", half=half)]
    if roll == "one_die":
        return [valid()]
    return [valid(), valid(), valid()]


def as_spec(item) -> DieSpec:
    if isinstance(item, DieSpec):
        return item
    if isinstance(item, str):
        return DieSpec(item)
    raise ValueError(f"a die is a DieSpec or a case name, got {item!r}")


class DicePlacer:
    """Places dice one by one, away from checkers and each other unless the case says
    otherwise."""

    def __init__(self, style: Style, layout: BoardLayout, checkers: list[PlacedChecker],
                 rng: np.random.Generator) -> None:
        self.style, self.layout, self.rng = style, layout, rng
        self.checkers = checkers
        self.side = float(rng.uniform(0.5, 0.8))  # share of a point width
        self.taken: list[tuple[float, float, float]] = []  # x, y, radius of placed dice
        self.r = layout.checker / 2

    # -- free-spot helpers ---------------------------------------------------------------
    def _clear(self, x: float, y: float, radius: float, ignore: PlacedChecker | None = None,
               ) -> bool:
        for c in self.checkers:
            if c is ignore or c.where == "off":
                continue
            if (c.x - x) ** 2 + (c.y - y) ** 2 < (self.r + radius) ** 2:
                return False
        return all((x - a) ** 2 + (y - b) ** 2 >= (r + radius) ** 2 for a, b, r in self.taken)

    def _half_x(self, half: str | None) -> tuple[float, float]:
        lay = self.layout
        if half == "left":
            return lay.margin + 0.3, lay.bar_x0 - 0.3
        if half == "right":
            return lay.bar_x1 + 0.3, lay.width - lay.margin - 0.3
        return lay.margin + 0.3, lay.width - lay.margin - 0.3

    def _light_points(self) -> set[int]:
        s = self.style
        luma = [0.114 * c[0] + 0.587 * c[1] + 0.299 * c[2] for c in (s.point_a, s.point_b)]
        odd_light = luma[0] >= luma[1]
        return {p for p in range(1, 25) if (p % 2 == 1) == odd_light}

    def _on_point_spot(self, half: str | None, light: bool, radius: float):
        lay = self.layout
        light_points = self._light_points()
        for _ in range(60):
            p = int(self.rng.integers(1, 25))
            if (p in light_points) != light:
                continue
            cx, base, sign = lay.point_base(p)
            if half and lay.half_of(cx) != half:
                continue
            along = self.rng.uniform(0.25, 0.85) * lay.point_length
            x = cx + self.rng.uniform(-0.15, 0.15)
            y = base + sign * along
            if self._clear(x, y, radius):
                return x, y
        return None

    def _field_spot(self, half: str | None, radius: float):
        lay = self.layout
        lo, hi = self._half_x(half)
        for _ in range(60):
            x = self.rng.uniform(lo, hi)
            y = self.rng.uniform(lay.point_length * 0.85, lay.height - lay.point_length * 0.85)
            if self._clear(x, y, radius):
                return x, y
        return None

    def _checker_tops(self, half: str | None) -> list[PlacedChecker]:
        tops = []
        for c in self.checkers:
            if c.where != "point" or (half and self.layout.half_of(c.x) != half):
                continue
            covered = any(o is not c and o.z > c.z and (o.x - c.x) ** 2 + (o.y - c.y) ** 2
                          < (0.6 * self.layout.checker) ** 2 for o in self.checkers)
            if not covered:
                tops.append(c)
        return tops

    # -- the cases -----------------------------------------------------------------------
    def place(self, spec: DieSpec) -> PlacedDie | None:
        if spec.case not in DICE_CASES:
            raise ValueError(f"unknown die case {spec.case!r}; known: {', '.join(DICE_CASES)}")
        rng, lay = self.rng, self.layout
        side = self.side * float(rng.uniform(0.97, 1.03))
        value = spec.value if spec.value is not None else int(rng.integers(1, 7))
        if not 1 <= value <= 6:
            raise ValueError(f"a die shows 1..6, got {value}")
        r_body, faces = make_die(value, side, self.style, rng)
        foot = side * 0.75
        case = spec.case
        support, on_checker, flat, spot = 0.0, False, True, None
        lean: tuple[np.ndarray, float] | None = None
        if case in ("flat_light_point", "flat_dark_point"):
            spot = self._on_point_spot(spec.half, case == "flat_light_point", foot)
        elif case == "flat_field":
            spot = self._field_spot(spec.half, foot)
        elif case == "bar":
            for _ in range(40):
                y = rng.uniform(0.5, lay.height - 0.5)
                x = lay.bar_centre + rng.uniform(-0.2, 0.2) * (lay.bar_x1 - lay.bar_x0)
                if self._clear(x, y, foot):
                    spot = (x, y)
                    break
        elif case == "on_checker":
            tops = self._checker_tops(spec.half) or self._checker_tops(None)
            if tops:
                c = tops[int(rng.integers(len(tops)))]
                off = rng.uniform(0, 0.25 * self.r, 2) * rng.choice([-1, 1], 2)
                spot = (c.x + off[0], c.y + off[1])
                support, on_checker = c.z + lay.thickness, True
        elif case in ("touching_stack", "cocked_checker"):
            ground = [c for c in self.checkers if c.where == "point" and c.z == 0 and
                      (spec.half is None or lay.half_of(c.x) == spec.half)]
            gap = side * (0.55 if case == "touching_stack" else 0.32)
            for _ in range(60):
                if not ground:
                    break
                c = ground[int(rng.integers(len(ground)))]
                a = rng.uniform(0, 2 * np.pi)
                direction = np.array([np.cos(a), np.sin(a)])
                x, y = np.array([c.x, c.y]) + direction * (self.r + gap)
                if 0.3 < x < lay.width - 0.3 and 0.3 < y < lay.height - 0.3 and self._clear(
                        x, y, side * 0.5, ignore=c):
                    spot = (float(x), float(y))
                    if case == "cocked_checker":
                        lean = (-direction, float(rng.uniform(18, 40)))
                        flat = False
                    break
        elif case in ("cocked_frame", "half_frame"):
            edge = int(rng.integers(4))
            lo, hi = self._half_x(spec.half)
            for _ in range(40):
                x, y = rng.uniform(lo, hi), rng.uniform(0.5, lay.height - 0.5)
                inset = side * (0.42 if case == "cocked_frame" else 0.0)
                toward = [(0, -1), (1, 0), (0, 1), (-1, 0)][edge]
                if edge == 0:
                    y = inset
                elif edge == 2:
                    y = lay.height - inset
                elif edge == 1:
                    x = lay.width - inset
                else:
                    x = inset
                if self._clear(x, y, side * 0.5):
                    spot = (float(x), float(y))
                    if case == "cocked_frame":
                        lean = (np.array(toward, float), float(rng.uniform(15, 35)))
                    else:  # one side up on the frame: it leans away from it
                        ang = np.degrees(np.arcsin(min(0.9, lay.frame_height / side)))
                        lean = (-np.array(toward, float), float(ang + rng.uniform(2, 8)))
                    flat = False
                    break
        elif case == "frame":
            if lay.frame >= side * 1.1:
                edge = int(rng.integers(2))
                x = rng.uniform(0.5, lay.width - 0.5)
                y = -lay.frame / 2 if edge == 0 else lay.height + lay.frame / 2
                spot, support = (x, y), lay.frame_height
            else:
                case = "outside"
        elif case == "tray":
            sides = [s for s, w in (("left", lay.tray_left), ("right", lay.tray_right)) if w]
            if sides:
                tx0, ty0, tx1, ty1 = lay.tray_rect(str(rng.choice(sides)))
                for _ in range(40):
                    x = rng.uniform(tx0 + side * 0.6, tx1 - side * 0.6)
                    y = rng.uniform(ty0 + 0.5, ty1 - 0.5)
                    if self._clear_of_off(x, y, side):
                        spot = (x, y)
                        break
            else:
                case = "outside"
        if case == "outside":
            x0, y0, x1, y1 = lay.extent()
            edge = int(rng.integers(4))
            d = rng.uniform(0.4, 1.5)
            x, y = rng.uniform(x0, x1), rng.uniform(y0, y1)
            x, y = [(x, y0 - d), (x1 + d, y), (x, y1 + d), (x0 - d, y)][edge]
            spot, support = (x, y), lay.table_z
        if spot is None:
            return None
        x, y = spot
        r = r_body
        if lean is not None:
            r = tilt(r, lean[0], lean[1])
        centre = rest_centre(r, side, x, y, support)
        self.taken.append((x, y, side * 0.75))
        on_surface = 0 <= x <= lay.width and 0 <= y <= lay.height
        off_board = case in OFF_BOARD_CASES or not on_surface
        box = Box3D(side, r, centre, faces, _edge(self.style.die_body))
        return PlacedDie(box, case, flat and lean is None, on_checker, off_board,
                         None if off_board else lay.half_of(x))

    def _clear_of_off(self, x: float, y: float, side: float) -> bool:
        for c in self.checkers:
            if c.where == "off" and abs(c.y - y) < side and abs(c.x - x) < self.r + side:
                return False
        return True

    def cube(self, spec: CubeSpec) -> tuple[Box3D, int, str]:
        rng, lay = self.rng, self.layout
        if spec.position not in CUBE_POSITIONS:
            raise ValueError(f"unknown cube position {spec.position!r}; "
                             f"known: {', '.join(CUBE_POSITIONS)}")
        side = min(1.0, self.side * float(rng.uniform(1.3, 1.7)))
        face = 64 if spec.position == "center" else (
            spec.value if spec.value is not None else int(rng.choice([2, 4, 8, 16, 32, 64])))
        if face not in (2, 4, 8, 16, 32, 64):
            raise ValueError(f"a cube shows 2, 4, ... 64, got {face}")
        r, faces = make_cube(face, self.style, rng)
        support = 0.0
        if spec.position == "center":
            x, y = lay.bar_centre, lay.height / 2 + rng.uniform(-0.3, 0.3)
        elif spec.position in ("top", "bottom"):
            x = lay.bar_centre + rng.uniform(-0.3, 0.3)
            if lay.frame >= side * 0.9:  # on the rail
                y = -lay.frame / 2 if spec.position == "top" else lay.height + lay.frame / 2
                support = lay.frame_height
            else:  # at the surface's edge, on the bar
                y = side * 0.6 if spec.position == "top" else lay.height - side * 0.6
        else:
            x0, y0, x1, y1 = lay.extent()
            x = x1 + rng.uniform(0.6, 1.5) if rng.random() < 0.5 else x0 - rng.uniform(0.6, 1.5)
            y = rng.uniform(y0, y1)
            support = lay.table_z
        centre = rest_centre(r, side, x, y, support)
        value = 1 if spec.position == "center" else face
        return Box3D(side, r, centre, faces, _edge(self.style.cube_body)), value, face


def _edge(body) -> tuple[float, float, float]:
    return tuple(float(c) * 0.7 for c in body)
