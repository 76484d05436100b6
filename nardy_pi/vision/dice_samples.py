"""Labelled frames for training and measuring the learned dice models (never used at runtime).

A `Sample` is one image, the die size in it and every object to find (dice and the cube)
with its class (dice_crops.CLASSES). Three sources:

- rendered boards (nardy_pi.vision.render) with randomised colours and dice placed in every
  hard spot: on light and dark points, on the bar, on and beside checkers, on the frame, half
  on the frame, off the board, cocked; the four named styles are kept for evaluation;
- the real dice photos (../shared/data/dice-photos), die size from the label boxes;
- the real board photos (../shared/data/board-photos), dice boxes without values (used for
  finding dice only), die size from the checker boxes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from nardy_pi.vision import geometry as g
from nardy_pi.vision.dice_crops import (
    CUBE_FACES,
    DIE_SIDE_UNITS,
    class_of_cube,
    class_of_die,
    die_side_px,
)
from nardy_pi.vision.dice_labels import labelled_photos
from nardy_pi.vision.stacking import stack_layout

UNKNOWN_VALUE = -1  # a boxed die whose value is not labelled (board photos)


@dataclass(frozen=True, slots=True)
class Thing:
    """One object to find: centre in image pixels and its class (UNKNOWN_VALUE: a die, value
    not labelled)."""

    x: float
    y: float
    cls: int

    @property
    def is_cube(self) -> bool:
        return self.cls >= class_of_cube(CUBE_FACES[0])


@dataclass(frozen=True, slots=True)
class Sample:
    image: np.ndarray  # BGR uint8
    die_px: float
    things: tuple[Thing, ...]
    group: str  # photos of one original / one render style share a group (grouped folds)
    truth: dict = field(default_factory=dict)  # renders: the analyze-shaped truth
    homography: np.ndarray | None = None  # renders: board -> image
    corners: tuple = ()


TRAIN_MAX_DIE_PX = 22.0  # the nets read dice at 6 and 16 px: larger frames are shrunk first


def shrunk(sample: Sample, max_die_px: float = TRAIN_MAX_DIE_PX) -> Sample:
    """The sample scaled down so its dice are at most `max_die_px` wide (saves memory and
    time in training; the nets never look closer)."""
    f = max_die_px / sample.die_px
    if f >= 1.0:
        return sample
    image = cv2.resize(sample.image, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
    fx, fy = image.shape[1] / sample.image.shape[1], image.shape[0] / sample.image.shape[0]
    things = tuple(Thing((t.x + 0.5) * fx - 0.5, (t.y + 0.5) * fy - 0.5, t.cls)
                   for t in sample.things)
    return Sample(image, sample.die_px * fx, things, sample.group)


# --- rendered boards ------------------------------------------------------------------------

SPOT_KINDS = ("middle", "points", "bar", "on_checker", "beside_stack", "frame", "half_frame",
              "off_board")


def random_style(rng: np.random.Generator):
    """A board look drawn at random (domain randomisation): colours, texture, trays."""
    from nardy_pi.vision.render.styles import BoardStyle

    def colour(lo: int = 0, hi: int = 256) -> tuple[int, int, int]:
        return tuple(int(v) for v in rng.integers(lo, hi, 3))  # type: ignore[return-value]

    light = colour(150, 256)
    dark = colour(0, 110)
    a, b = (light, dark) if rng.random() < 0.5 else (dark, light)
    return BoardStyle(
        "random", frame=colour(), field=colour(), point_a=a, point_b=b, bar=colour(),
        white=colour(170, 256), black=colour(0, 90),
        texture=str(rng.choice(["wood", "felt", "plain"])), trays=bool(rng.random() < 0.4),
        table=colour(),
    )


def _checker_spots(pos: dict, style: str) -> list[tuple[float, float]]:
    """Centres of every checker drawn on the points and the bar."""
    stacks = [(g.point_strip(p), c) for p, c in enumerate(pos["points"], start=1)]
    stacks += [(g.bar_strip("white"), pos["bar_white"]), (g.bar_strip("black"), pos["bar_black"])]
    spots = []
    for strip, count in stacks:
        for placed in stack_layout(abs(count), style, strip.length, g.CHECKER):
            t = placed.offset + g.CHECKER / 2
            spots.append((strip.base[0] + strip.direction[0] * t,
                          strip.base[1] + strip.direction[1] * t))
    return spots


def _spot(rng: np.random.Generator, kind: str, checkers: list[tuple[float, float]],
          trays: bool) -> tuple[float, float, bool]:
    """A board spot of the given kind, and whether the die rests on a checker there."""
    right = g.TRAY_X1 + 0.1 if trays else g.SURFACE_WIDTH + 0.7
    if kind == "on_checker" and checkers:
        x, y = checkers[int(rng.integers(len(checkers)))]
        return x + float(rng.uniform(-0.12, 0.12)), y + float(rng.uniform(-0.12, 0.12)), True
    if kind == "beside_stack" and checkers:
        x, y = checkers[int(rng.integers(len(checkers)))]
        a = rng.uniform(0, 2 * np.pi)
        r = g.CHECKER / 2 + 0.3
        return x + r * float(np.cos(a)), y + r * float(np.sin(a)), False
    if kind == "bar":
        return float(rng.uniform(6.2, 6.8)), float(rng.uniform(0.5, 10.5)), False
    if kind == "points":
        return float(rng.uniform(0.3, 12.7)), float(rng.uniform(0.3, 10.7)), False
    if kind == "frame":
        side = int(rng.integers(4))
        if side == 0:
            return float(rng.uniform(0, 13)), float(rng.uniform(-0.7, -0.3)), False
        if side == 1:
            return float(rng.uniform(-0.7, -0.3)), float(rng.uniform(0, 11)), False
        if side == 2:
            return float(rng.uniform(0, 13)), float(rng.uniform(11.3, 11.7)), False
        return float(rng.uniform(13.3, right)), float(rng.uniform(0, 11)), False
    if kind == "half_frame":
        if rng.random() < 0.5:
            return float(rng.uniform(0.5, 12.5)), float(rng.choice([-0.1, 11.1])), False
        return float(rng.choice([-0.1, 13.1])), float(rng.uniform(0.5, 10.5)), False
    if kind == "off_board":
        return float(rng.uniform(-1.8, -1.2)), float(rng.uniform(1, 10)), False
    return float(rng.uniform(0.6, 12.4)), float(rng.uniform(4.9, 6.1)), False  # middle


def random_dice_scene(rng: np.random.Generator, style, n_dice: int | None = None):
    """A random position with 0..3 dice anywhere (SPOT_KINDS) and maybe the cube."""
    from nardy_pi.vision.render.random_scenes import random_position
    from nardy_pi.vision.render.scene import CubePlacement, DiePlacement, Scene

    pos = random_position(rng, style.trays)
    stack_style = str(rng.choice(["rows", "layers"]))
    checkers = _checker_spots(pos, stack_style)
    count = int(rng.choice([0, 1, 2, 2, 2, 3])) if n_dice is None else n_dice
    weights = np.array([3, 4, 1, 2, 2, 1, 1, 1], float)
    dice, taken = [], []
    for _ in range(count):
        for _attempt in range(20):
            kind = str(rng.choice(SPOT_KINDS, p=weights / weights.sum()))
            x, y, on_checker = _spot(rng, kind, checkers, style.trays)
            # Only an on_checker die may overlap a checker: the truth must not lie.
            clear = on_checker or all(np.hypot(x - a, y - b) > 0.6 for a, b in checkers)
            if clear and all(np.hypot(x - a, y - b) > 0.75 for a, b in taken):
                break
        on_checker = on_checker or not clear
        taken.append((x, y))
        flat = bool(rng.random() > 0.2)
        dice.append(DiePlacement(int(rng.integers(1, 7)), x, y, flat=flat,
                                 on_checker=on_checker, angle_deg=float(rng.uniform(-45, 45))))
    cube = None
    if rng.random() < 0.6:
        place = str(rng.choice(["center", "top", "bottom", "off"], p=[0.4, 0.25, 0.25, 0.1]))
        face = 64 if place == "center" else int(rng.choice(CUBE_FACES))
        cube = CubePlacement(face, place)
    return Scene(points=pos["points"], bar_white=pos["bar_white"], bar_black=pos["bar_black"],
                 off_white=pos["off_white"], off_black=pos["off_black"], dice=tuple(dice),
                 cube=cube, stack_style=stack_style,
                 seed=int(rng.integers(1 << 30)))


def render_sample(style, camera, scene, group: str) -> Sample:
    from nardy_pi.vision.render import _CUBE_SPOTS as cube_spots
    from nardy_pi.vision.render import render_scene

    shot = render_scene(style, camera, scene)
    h = g.board_to_image_homography(np.array(shot.corners))
    things = [Thing(float(d["center"][0]), float(d["center"][1]),
                    class_of_die(d["value"], d["flat"])) for d in shot.truth["dice"]]
    if scene.cube is not None:
        cx, cy = g.apply_homography(h, np.array([cube_spots[scene.cube.position]]))[0]
        things.append(Thing(float(cx), float(cy), class_of_cube(scene.cube.value)))
    return Sample(shot.image, die_side_px(h), tuple(things), group, shot.truth, h, shot.corners)


def rendered_samples(count: int, seed: int, named_styles: bool = False,
                     sizes: tuple[tuple[int, int], ...] = ((640, 480), (1280, 960))
                     ) -> list[Sample]:
    """Random-style renders (training) or the four named styles in turn (evaluation)."""
    from nardy_pi.vision.render.random_scenes import random_camera
    from nardy_pi.vision.render.styles import STYLES

    rng = np.random.default_rng(seed)
    out = []
    for i in range(count):
        if named_styles:
            name = list(STYLES)[i % len(STYLES)]
            style = STYLES[name]
        else:
            style, name = random_style(rng), "random"
        width, height = sizes[i % len(sizes)]
        camera = random_camera(rng, width, height)
        out.append(render_sample(style, camera, random_dice_scene(rng, style), name))
    return out


# --- real photos ----------------------------------------------------------------------------

def dice_photo_samples(folder: Path) -> list[Sample]:
    """The real dice photos; a photo's group is its face set and tens of its number (photos
    taken one after another show the same scene)."""
    out = []
    for photo in labelled_photos(folder):
        image = cv2.imread(str(photo.image_path))
        if image is None or not photo.labels:
            continue
        sides = [0.8 * max(lab.size) for lab in photo.labels]
        things = tuple(Thing(lab.center[0], lab.center[1], lab.value) for lab in photo.labels)
        stem = photo.image_path.stem
        prefix, _, number = stem.rpartition("_")
        group = f"{prefix}:{int(number) // 10 if number.isdigit() else number}"
        out.append(Sample(image, float(np.median(sides)), things, group))
    return out


def board_photo_original(name: str) -> str:
    """The original photo a board-photo copy was made from (README: the part before .rf.)."""
    return name.split(".rf.")[0]


def board_photo_samples(folder: Path) -> list[Sample]:
    """Real board photos with at least one boxed die; die size from the checker boxes."""
    out = []
    for label_path in sorted((folder / "labels").glob("*.txt")):
        image_path = folder / "images" / (label_path.stem + ".jpg")
        image = cv2.imread(str(image_path))
        if image is None:
            continue
        h, w = image.shape[:2]
        dice, checkers = [], []
        for line in label_path.read_text().splitlines():
            parts = line.split()
            if len(parts) != 5:
                continue
            cls, cx, cy, bw, bh = int(parts[0]), *(float(v) for v in parts[1:])
            if cls == 3:
                dice.append((cx * w, cy * h, bw * w, bh * h))
            elif cls in (2, 4):
                checkers.append(max(bw * w, bh * h))
        if not dice:
            continue
        if checkers:
            die_px = DIE_SIDE_UNITS / g.CHECKER * float(np.median(checkers))
        else:
            die_px = 0.85 * float(np.median([max(d[2], d[3]) for d in dice]))
        things = tuple(Thing(x, y, UNKNOWN_VALUE) for x, y, _, _ in dice)
        out.append(Sample(image, die_px, things, board_photo_original(label_path.stem)))
    return out


# --- the domain-randomised renderer (render/randomised) -------------------------------------

def randomised_sample(render, group: str) -> Sample:
    """A randomised render as a Sample; the die size is the nominal one from the surface
    corners (as the runtime finder computes it), whatever size the renderer drew."""
    t = render.truth
    h = g.board_to_image_homography(np.array(t.corners))
    things = [Thing(float(d.center[0]), float(d.center[1]), class_of_die(d.value, d.flat))
              for d in t.dice]
    if t.cube is not None:
        things.append(Thing(float(t.cube.center[0]), float(t.cube.center[1]),
                            class_of_cube(t.cube.face)))
    return Sample(render.image, die_side_px(h), tuple(things), group, homography=h,
                  corners=t.corners)


def randomised_samples(count: int, seed: int, split: str = "train",
                       sizes: tuple[tuple[int, int], ...] = ((640, 480), (960, 720))
                       ) -> list[Sample]:
    from nardy_pi.vision.render.randomised import render_random

    out = []
    for i in range(count):
        r = render_random(seed + i, split, sizes[i % len(sizes)])  # type: ignore[arg-type]
        out.append(randomised_sample(r, f"{split}:{r.truth.style_name}"))
    return out


# --- the real board photos with the photos engineer's labels (vision/train/board_photos) ----

def labelled_board_photo_samples(root: Path | None = None) -> list[tuple[Sample, object]]:
    """Board photos with their hand labels (corners, dice values read by eye), as Samples
    with the die size from the corners (as at runtime), paired with their PhotoLabel.

    A die's class: its value when read by eye, cocked when leaning, the cube by its face, and
    UNKNOWN_VALUE when the face was not readable or not looked at. Raises ImportError when the
    labels module is absent and board_photos.PhotosMissing when the photos are.
    """
    from nardy_pi.vision.train.board_photos import load_board_photos, read_image

    out = []
    for label in load_board_photos(root):
        if not label.dice:
            continue
        try:
            h = g.board_to_image_homography(np.array(label.corners, float))
        except ValueError:  # no usable corners (the board is not in view as a whole)
            continue
        things = []
        for d in label.dice:
            if d.cube:
                if d.cube_face is None:
                    continue
                cls = class_of_cube(d.cube_face)
            elif d.cocked:
                cls = class_of_die(None, False)
            elif d.value is not None and d.value_checked:
                cls = d.value
            else:
                cls = UNKNOWN_VALUE
            things.append(Thing(float(d.center[0]), float(d.center[1]), cls))
        sample = Sample(read_image(label, root), die_side_px(h), tuple(things), label.board,
                        homography=h, corners=label.corners)
        out.append((sample, label))
    return out
