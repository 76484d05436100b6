"""Dice and the cube on a board whose scale is known: learned proposals, then a learned check.

The board's homography gives a die's nominal size in pixels (dice_crops.DIE_SIDE_UNITS), so
the frame is scaled once to where a die is 6 px and the proposal net (dice_net) marks likely
die and cube centres. Only the strongest few peaks go on: a checker stack is larger than any
die at that scale and is rejected there, before any crop is cut. Each proposal is then read
from a 32x32 crop by the check net: nothing, a flat die and its top face (side faces never
count), a cocked die, or the cube and its face. Nothing here depends on a die being brighter
than the board.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import NamedTuple

import cv2
import numpy as np

from nardy_pi.vision.cube import cube_from_seen, find_cube
from nardy_pi.vision.dice_crops import (
    CLASSES,
    COCKED,
    CUBE_FACES,
    cell_to_image,
    cut_crops,
    die_side_px,
    foreshortening,
    heat_image,
)
from nardy_pi.vision.dice_net import DiceNets, default_nets
from nardy_pi.vision.types import DieReading

MAX_PROPOSALS = 32  # dice and the cube: a frame never holds more than a handful
_PEAK_LOGIT = -6.0  # sigmoid 0.0025: the top-K cut does the work; misses cost more than crops
_MIN_OBJECT = 0.8  # probability that the crop holds a die or the cube (read in its turns)
_TURNS_FROM = 0.2  # a crop this likely an object is read again in its eight turns
_SAME_OBJECT = 0.8  # die sides: closer detections are one object
# Real dice run from half to twice the size the board's scale suggests: a large board
# photographed whole shows dice about half the nominal side, which a crop cut for the nominal
# die shows too small to read. A proposal that may be but is not yet surely an object is read
# again as a die of SMALL_DIE times the nominal side, and that reading stands where it is surer
# of an object and at least _SMALL_SURE sure. Real boards held out by board, two seeds of fold
# nets: dice found 186 -> 203 and 173 -> 192 of 354, phantoms 49 -> 52 and 51 -> 54, values
# right 109 -> 126 and 106 -> 124 of 248 (bench_dice_board's notes; 0.4 and 0.6 read fewer, a
# third reading at 1.8 added phantoms).
SMALL_DIE = 0.5
_SMALL_SURE = 0.95
# Only proposals the first reading gives at least this chance of an object are read again: a
# third of them on the real boards, and 72 of the 75 small readings taken there without it.
_SMALL_FROM = 0.05
# Seen from a tilted camera every flat die shows its side faces, which is what the check net
# learned a cocked die looks like from above: real board photos (tilted 25-60 degrees) had a
# fifth of their flat dice read as cocked and no leaning die caught. Below this
# foreshortening (dice_crops.foreshortening, cos 32 degrees) a die reads as cocked only when
# the cocked class holds most of its die probability (_TILTED_COCKED_SHARE).
_TILTED_VIEW = 0.85
_TILTED_COCKED_SHARE = 0.8
_FIRST_CUBE = CLASSES.index(f"cube{CUBE_FACES[0]}")
# A still read (`fine`) takes the fine check net (dice_net) for every crop the plain check
# gives at least _FINE_FROM of an object: the plain net screens, the fine one, four times the
# cost a crop, reads those that may be dice, and an object must then be _FINE_MIN_OBJECT sure.
# Real boards held out by board: dice found 203 -> 208 of 354, phantoms 52 -> 46, values right
# 126 -> 154 of 248 (at 0.8: 221, 71, 158); bench_dice_board's notes, 2026-12-07.
_FINE_FROM = 0.05
_FINE_MIN_OBJECT = 0.9


@dataclass(frozen=True, slots=True)
class CubeSeen:
    """The doubling cube as found in the image: the face it shows and where."""

    face: int
    center: tuple[float, float]
    box: tuple[float, float, float, float]
    confidence: float


class _Kept(NamedTuple):
    """An object kept: where, its class and that class's probability, and the die side in
    pixels its reading stands for."""

    x: float
    y: float
    cls: int
    conf: float
    side: float


@dataclass(frozen=True, slots=True)
class BoardDice:
    dice: tuple[DieReading, ...]
    cube: CubeSeen | None


def proposals(nets: DiceNets, image: np.ndarray, die_px: float) -> np.ndarray:
    """(N, 3) image x, y and channel (0 die, 1 cube) of the strongest proposal peaks."""
    small, factor = heat_image(image, die_px)
    logits = nets.heat_logits(small)
    # Local maxima above the floor, strongest first; only the kept few are refined.
    hwc = np.ascontiguousarray(logits.transpose(1, 2, 0))
    highest = cv2.dilate(hwc, np.ones((3, 3), np.uint8)).reshape(hwc.shape).transpose(2, 0, 1)
    peaks = (logits == highest) & (logits > _PEAK_LOGIT)
    cs, ys, xs = np.nonzero(peaks)
    if len(xs) == 0:
        return np.zeros((0, 3))
    order = np.argsort(-logits[cs, ys, xs])[:MAX_PROPOSALS]
    cells = _refine(logits, cs[order], ys[order], xs[order])
    return np.column_stack([cell_to_image(cells, factor), cs[order]])


_AROUND = np.mgrid[-1:2, -1:2]  # dy, dx of a 3x3 neighbourhood


def _refine(logits: np.ndarray, cs: np.ndarray, ys: np.ndarray, xs: np.ndarray) -> np.ndarray:
    """(N, 2) sub-cell peak positions: the centroid of the positive part of each peak's 3x3
    neighbourhood. All peaks at once: cells beyond the map's edge weigh nothing."""
    padded = np.pad(logits.astype(np.float64), ((0, 0), (1, 1), (1, 1)),
                    constant_values=-np.inf)
    dy, dx = _AROUND
    y = ys[:, None, None] + dy
    x = xs[:, None, None] + dx
    w = 1.0 / (1.0 + np.exp(-padded[cs[:, None, None], y + 1, x + 1]))
    total = w.sum(axis=(1, 2))
    return np.column_stack([(w * x).sum(axis=(1, 2)) / total, (w * y).sum(axis=(1, 2)) / total])


def find_board_dice(image: np.ndarray, die_px: float, nets: DiceNets | None = None,
                    view: float = 1.0, fine: bool = False) -> BoardDice:
    """Every die and the cube in a BGR frame where a die's side is about `die_px` pixels;
    `view` is the board's foreshortening (dice_crops.foreshortening; 1.0 seen from above);
    `fine`: a still read, the likely dice checked by the fine check net (see _FINE_FROM)."""
    nets = nets or default_nets()
    props = proposals(nets, image, die_px)
    if len(props) == 0:
        return BoardDice((), None)
    probs = checked(nets, cut_crops(image, die_px, props[:, :2]), fine)
    probs, sides = with_small_dice(nets, image, die_px, props[:, :2], probs, fine)
    order = np.argsort(probs[:, 0])  # most certainly an object first
    least = _FINE_MIN_OBJECT if fine and nets.has_fine else _MIN_OBJECT
    kept: list[_Kept] = []
    for i in order:
        p = probs[i]
        if 1.0 - p[0] < least:
            continue
        x, y = float(props[i, 0]), float(props[i, 1])
        if any(np.hypot(x - k.x, y - k.y) < _SAME_OBJECT * die_px for k in kept):
            continue
        cls = reading(p, view)
        kept.append(_Kept(x, y, cls, float(p[cls]), float(sides[i])))
    cubes = [k for k in kept if k.cls >= _FIRST_CUBE]
    cube = None
    if cubes:
        c = max(cubes, key=lambda k: k.conf)
        cube = CubeSeen(int(CLASSES[c.cls][4:]), (round(c.x, 1), round(c.y, 1)),
                        _box(c.x, c.y, 0.75 * c.side), round(c.conf, 3))
    dice = [_die(k.x, k.y, k.cls, k.conf, k.side) for k in kept if k.cls < _FIRST_CUBE]
    return BoardDice(tuple(sorted(dice, key=lambda d: d.center)), cube)


def with_small_dice(nets: DiceNets, image: np.ndarray, die_px: float, centres: np.ndarray,
                    probs: np.ndarray, fine: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """The check probabilities with each proposal that may be but is not yet surely an object
    read again as a die of SMALL_DIE times the nominal side where that reads surer (see
    SMALL_DIE), and the die side in pixels each reading stands for."""
    sides = np.full(len(probs), float(die_px))
    obj = 1.0 - probs[:, 0]
    unsure = np.nonzero((obj < _SMALL_SURE) & (obj >= _SMALL_FROM))[0]
    if len(unsure) == 0:
        return probs, sides
    small = checked(nets, cut_crops(image, die_px * SMALL_DIE, centres[unsure]), fine)
    surer = (small[:, 0] < probs[unsure, 0]) & (1.0 - small[:, 0] >= _SMALL_SURE)
    probs = probs.copy()
    probs[unsure[surer]] = small[surer]
    sides[unsure[surer]] = die_px * SMALL_DIE
    return probs, sides


def reading(p: np.ndarray, view: float = 1.0) -> int:
    """The class an object's check probabilities read as: the likeliest, except that from a
    tilted view (`view` below _TILTED_VIEW) a die reads as cocked only when the cocked class
    holds more than _TILTED_COCKED_SHARE of its die probability, else as its likeliest face."""
    cls = int(np.argmax(p[1:])) + 1
    if (cls == COCKED and view < _TILTED_VIEW
            and p[COCKED] <= _TILTED_COCKED_SHARE * p[1 : COCKED + 1].sum()):
        cls = int(np.argmax(p[1:COCKED])) + 1
    return cls


def turns(crops: np.ndarray) -> list[np.ndarray]:
    """The eight turns and mirrors of (N, h, w, 3) crops, the crops themselves first."""
    out = []
    for x in (crops, crops.transpose(0, 2, 1, 3)):
        out += [np.ascontiguousarray(np.rot90(x, r, axes=(1, 2))) for r in range(4)]
    return out


def checked(nets: DiceNets, crops: np.ndarray, fine: bool = False) -> np.ndarray:
    """Check probabilities (see `_in_turns`); with `fine` and a fine check net, the crops the
    plain net gives at least _FINE_FROM of an object are read by the fine net instead."""
    probs = nets.check_probabilities(crops)
    if not (fine and nets.has_fine):
        return _in_turns(nets, crops, probs)
    maybe = (1.0 - probs[:, 0]) >= _FINE_FROM  # below it the plain net reads no turns either
    if maybe.any():
        probs[maybe] = _in_turns(nets, crops[maybe],
                                 nets.check_probabilities(crops[maybe], fine=True), fine=True)
    return probs


def _in_turns(nets: DiceNets, crops: np.ndarray, probs: np.ndarray,
              fine: bool = False) -> np.ndarray:
    """`probs` (the crops' upright reading) where a crop may hold an object read in all eight
    turns and the readings averaged (a die reads the same every way round; real boards held
    out by board: more dice found and fewer phantoms at once). The cube's printed number is
    not the same turned, so a crop that reads as the cube both upright and turned keeps its
    upright reading."""
    again = (1.0 - probs[:, 0]) > _TURNS_FROM
    if not again.any():
        return probs
    upright = probs[again]
    n = int(again.sum())
    # The upright reading is one of the eight: only the seven others are read again.
    others = nets.check_probabilities(np.concatenate(turns(crops[again])[1:]), fine)
    mean = (upright + others.reshape(7, n, -1).sum(axis=0)) / 8.0
    # Turned, a cube still reads as some cube face; a crop whose turns read as a die is one
    # (a 6 the upright reading took for the 64).
    cube = _reads_cube(upright) & _reads_cube(mean)
    probs[again] = np.where(cube[:, None], upright, mean)
    return probs


def _reads_cube(probs: np.ndarray) -> np.ndarray:
    """Per row of check probabilities: is the likeliest object a cube face?"""
    return probs[:, 1:].argmax(axis=1) + 1 >= _FIRST_CUBE


def _box(x: float, y: float, half: float) -> tuple[float, float, float, float]:
    return (round(x - half, 1), round(y - half, 1), round(x + half, 1), round(y + half, 1))


def _die(x: float, y: float, cls: int, conf: float, die_px: float) -> DieReading:
    flat = cls != COCKED
    return DieReading(value=cls if flat else None, center=(round(x, 1), round(y, 1)),
                      box=_box(x, y, 0.6 * die_px), flat=flat,
                      confidence=round(conf, 3) if flat else 0.0)


class BoardDiceFinder:
    """The dice finder the observer uses: it is given the board (homography) with each frame.

    `uses_board` tells vision/observe.py to pass the board->image homography; it returns the
    dice and the cube together (BoardDice). `fine`: a still read, which can afford the fine
    check net (see _FINE_FROM); a camera's frames cannot (bench_dice_board's speed), except
    once a scene holds still: `reads_still` tells the observer it may ask for that read with
    `fine=True` on a call."""

    uses_board = True
    reads_still = True

    def __init__(self, nets: DiceNets | None = None, fine: bool = False) -> None:
        self._nets = nets
        self.fine = fine

    def __call__(self, image: np.ndarray, h_board: np.ndarray, fine: bool | None = None
                 ) -> BoardDice:
        found = find_board_dice(image, die_side_px(h_board), self._nets,
                                foreshortening(h_board), self.fine if fine is None else fine)
        return printed_face(found, image, h_board)


def printed_face(found: BoardDice, image: np.ndarray, h_board: np.ndarray) -> BoardDice:
    """The owned cube's face as the template reader (cube.py) reads its printed number, when
    that reader finds the cube at the same spot: the check net reads the number from a 32 px
    crop and was the less sure of the two on rendered boards (bench: 74% against 85%). Where
    the template reader sees no cube (most looks never rendered), the net's face stands."""
    if found.cube is None:
        return found
    learned = cube_from_seen(found.cube, np.linalg.inv(h_board))
    if learned is None or learned.reading.position in ("center", "off"):
        return found
    classic = find_cube(image, h_board)
    if classic is None or classic.reading.position != learned.reading.position:
        return found
    return BoardDice(found.dice, replace(found.cube, face=classic.reading.value))
