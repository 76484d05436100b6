"""Seeded random setups and scenes for tests, benchmarks and the demo."""

from __future__ import annotations

import numpy as np

from nardy_pi.vision import geometry as g
from nardy_pi.vision.render.scene import Camera, CubePlacement, DiePlacement, HandPlacement, Scene

DICE_CASES = ("valid", "off_board", "split_halves", "cocked", "on_checker", "extra_die", "none")
_SKINS = ((120, 160, 210), (90, 130, 185), (60, 90, 140), (140, 175, 225))
_SLEEVES = ((90, 60, 40), (40, 40, 40), (200, 200, 200), (50, 50, 140))


def random_camera(rng: np.random.Generator, width: int = 640, height: int = 480) -> Camera:
    return Camera(
        width=width, height=height,
        fill=float(rng.uniform(0.72, 0.8)),
        perspective=float(rng.uniform(0.0, 0.05)),
        rotation_deg=float(rng.uniform(-4, 4)),
        light_gradient=(float(rng.uniform(-0.2, 0.2)), float(rng.uniform(-0.2, 0.2))),
        noise_sigma=float(rng.uniform(1.0, 5.0)),
        blur_sigma=float(rng.uniform(0.0, 1.0)),
        jpeg_quality=int(rng.integers(70, 96)) if rng.random() < 0.8 else None,
        seed=int(rng.integers(1 << 30)),
    )


def random_position(rng: np.random.Generator, trays: bool) -> dict:
    """15 checkers a side over random points, the bar and (with trays) borne off."""
    points = [0] * 24
    counts: dict[str, int] = {}
    for colour, sign in (("white", 1), ("black", -1)):
        bar = int(rng.choice([0, 0, 0, 1, 2, 3]))
        off = int(rng.integers(0, 9)) if trays and rng.random() < 0.5 else 0
        left = 15 - bar - off
        free = [i for i in range(24) if points[i] == 0]
        k = int(rng.integers(1, 8))
        chosen = rng.choice(free, min(k, len(free)), replace=False)
        split = rng.multinomial(left, rng.dirichlet(np.ones(len(chosen)) * 0.7))
        for index, n in zip(chosen, split, strict=True):
            points[int(index)] = sign * int(n)
        counts[f"bar_{colour}"], counts[f"off_{colour}"] = bar, off
    return {"points": tuple(points), **counts}


def _free_spot(rng: np.random.Generator, half: str, taken: list[tuple[float, float]]):
    for _ in range(50):
        x = rng.uniform(0.6, 5.4) if half == "left" else rng.uniform(7.6, 12.4)
        y = rng.uniform(4.9, 6.1)
        if all(abs(x - a) > 0.9 or abs(y - b) > 0.9 for a, b in taken):
            return float(x), float(y)
    return float(x), float(y)


def random_dice(rng: np.random.Generator, points: tuple[int, ...], case: str) -> tuple:
    """Dice for one re-roll case (DICE_CASES); `valid` is two flat dice in one half."""
    if case == "none":
        return ()
    half = str(rng.choice(["left", "right"]))
    n = 3 if case == "extra_die" else 2
    spots: list[tuple[float, float]] = []
    for _ in range(n):
        spots.append(_free_spot(rng, half, spots))
    dice = [
        DiePlacement(int(rng.integers(1, 7)), x, y, angle_deg=float(rng.uniform(-40, 40)))
        for x, y in spots
    ]
    if case == "off_board":
        d = dice[1]
        dice[1] = DiePlacement(d.value, float(rng.uniform(-1.7, -1.4)), float(rng.uniform(2, 9)),
                               angle_deg=d.angle_deg)
    elif case == "split_halves":
        other = "right" if half == "left" else "left"
        x, y = _free_spot(rng, other, [])
        dice[1] = DiePlacement(dice[1].value, x, y, angle_deg=dice[1].angle_deg)
    elif case == "cocked":
        d = dice[1]
        dice[1] = DiePlacement(d.value, d.x, d.y, flat=False, angle_deg=d.angle_deg)
    elif case == "on_checker":
        occupied = [i for i, c in enumerate(points) if abs(c) >= 1]
        strip = g.point_strip(int(rng.choice(occupied)) + 1)
        t = g.CHECKER / 2
        d = dice[1]
        dice[1] = DiePlacement(d.value, strip.base[0] + float(rng.uniform(-0.08, 0.08)),
                               strip.base[1] + strip.direction[1] * t, on_checker=True,
                               angle_deg=d.angle_deg)
    return tuple(dice)


def random_scene(rng: np.random.Generator, trays: bool, dice_case: str | None = None,
                 hand: bool | None = None, cube: bool | None = None) -> Scene:
    pos = random_position(rng, trays)
    case = dice_case or str(rng.choice(DICE_CASES))
    with_hand = rng.random() < 0.15 if hand is None else hand
    hands = ()
    if with_hand:
        hands = (HandPlacement(
            edge=int(rng.integers(0, 4)), x=float(rng.uniform(1, 12)), y=float(rng.uniform(1, 10)),
            skin=_SKINS[int(rng.integers(len(_SKINS)))],
            sleeve=_SLEEVES[int(rng.integers(len(_SLEEVES)))],
        ),)
    with_cube = rng.random() < 0.5 if cube is None else cube
    cube_place = None
    if with_cube:
        cube_place = CubePlacement(int(rng.choice([2, 4, 8, 16, 32, 64])),
                                   str(rng.choice(["center", "top", "bottom"])))
        if cube_place.position == "center":
            cube_place = CubePlacement(64, "center")  # a centred cube shows 64 (or 1)
    return Scene(
        points=pos["points"], bar_white=pos["bar_white"], bar_black=pos["bar_black"],
        off_white=pos["off_white"], off_black=pos["off_black"],
        dice=random_dice(rng, pos["points"], case), cube=cube_place, hands=hands,
        stack_style=str(rng.choice(["rows", "layers"])), seed=int(rng.integers(1 << 30)),
    )
