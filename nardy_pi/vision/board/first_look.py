"""A board never seen, read from one image and its corners (board-frame.md §4).

No calibration: the bar and the points' length are measured from the image (`fit_layout`,
`measure.with_measured_length`), every slot is read by the learned strip models (the first
look's pair, `model.first_look_model`, whose points' strips start a little outside the surface
edge), light checkers are white, and which side is light is settled within the frame
(`frame_colour`).
Dice come from the dice finder and are placed on the surface the corners give. The cube
needs a calibrated board and is not read here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from nardy_pi.vision import geometry as g
from nardy_pi.vision.board.decode import with_side_bars
from nardy_pi.vision.board.frame_reading import frame_reading
from nardy_pi.vision.board.measure import with_measured_length
from nardy_pi.vision.board.model import StripEnsemble, StripModel, first_look_model
from nardy_pi.vision.board.reader import BoardReading, fit_reader
from nardy_pi.vision.board.strips import map_points
from nardy_pi.vision.roll import judge_roll
from nardy_pi.vision.types import CubeReading, DieOnBoard, DieReading, Observation

CHECKERS = 15
#: a surface found automatically (not markers, not --corners) is read only when the reading
#: is at least this sure (BoardReading.sureness): strips cut from a frame, a table or half the
#: board read unsure. Real photos held out by board (fold models), finds analyze trusted: 53
#: -> 42, every one of the 20 within 3% kept, the 5 off by 40% or more all refused, those off
#: by 3-15% 28 -> 22; held-out renders 43 -> 38, the 31 within 3% kept, those off 12 -> 7
#: (bench/bench_find_surface.py). Chosen on those photos: -0.25 kept one gross miss, -0.15
#: lost two right finds.
FOUND_SURFACE_SURENESS = -0.2
DiceFinder = Callable[[np.ndarray], Sequence[DieReading]]


@dataclass(frozen=True)
class FirstLook:
    observation: Observation
    reading: BoardReading
    dice_boxes: tuple[tuple[float, float, float, float], ...]


def read_unseen_board(image: np.ndarray, corners, dice_finder: DiceFinder | None = None,
                      accepted_dice_counts: tuple[int, ...] = (2,),
                      model: StripModel | StripEnsemble | None = None, steady: bool = False,
                      relative_colour: bool = True) -> FirstLook:
    """`steady`: the surface also read placed a little larger and smaller, and the readings
    averaged (reader.nudged: corners placed by hand or found are a little off as often as
    not). It helped the earlier pairs (real photos held out by board, wrong slots of 3655:
    149 -> 141 with the plain first member, 145 -> 131 with Lite0 on its first base), but
    not the pair on the longer Lite0 base (of 3510: 126 against 125 read once; with the
    corners jittered by 1% or 2% of the diagonal, 187 / 499 against 184 / 491), for over
    twice the time, so analyze reads once (bench/bench_board_reader.py, 2026-12-07 night).
    `relative_colour`: light and dark told apart within the frame (off: the model's colours
    alone, the bench's peer)."""
    corners = np.asarray(corners, dtype=np.float64)
    reader, predictions, strips = fit_reader(image, corners, model or first_look_model(),
                                             steady=steady)
    reading = frame_reading(reader, predictions, strips, relative_colour)
    reading = replace(reading, layout=with_measured_length(reading.layout, image, corners))
    found = _find_dice(image, corners, dice_finder)
    obs = observation_from_reading(reading, found, accepted_dice_counts, image=image)
    return FirstLook(obs, reading, tuple(d.box for d in found))


def observation_from_reading(reading: BoardReading, found: Sequence[DieReading],
                             accepted_dice_counts: tuple[int, ...] = (2,),
                             cube: CubeReading | None = None,
                             image: np.ndarray | None = None) -> Observation:
    """A reading and the dice found as board-frame.md §3's object, with §4's confidence.
    With the frame's `image`, whether a die rests on a checker is also judged from around it."""
    from nardy_pi.vision.board.adapt import bar_totals

    counts = reading.counts
    points = tuple(counts[:24])
    bar_white, bar_black = bar_totals(counts)
    off_white = off_black = None
    if all(c is not None for c in counts):  # the whole surface seen: the rest is borne off
        off_white = max(CHECKERS - bar_white - sum(c for c in points if c and c > 0), 0)
        off_black = max(CHECKERS - bar_black - sum(-c for c in points if c and c < 0), 0)
    dice = tuple(_place(d, reading, image) for d in found)
    return Observation(
        points=points,  # type: ignore[arg-type]  # None marks a point out of view
        bar_white=bar_white,
        bar_black=bar_black,
        off_white=off_white,
        off_black=off_black,
        dice=dice,
        cube=cube,
        roll=judge_roll(dice, accepted_dice_counts),
        occluded=reading.occluded,
        point_probs=tuple(map(tuple, with_side_bars(reading.probs).tolist())),
        confidence=reading.confidence,
        point_confidence=tuple(reading.slot_confidence[:24]),
    )


def _find_dice(image: np.ndarray, corners: np.ndarray,
               dice_finder: DiceFinder | None) -> list[DieReading]:
    """A board finder (`uses_board`, vision/dice_board.py) takes its die size from the corners;
    its cube is not reported here (see the module docstring)."""
    if dice_finder is None:
        return []
    if getattr(dice_finder, "uses_board", False):
        h = g.board_to_image_homography(corners)
        return list(dice_finder(image, h).dice)  # type: ignore[call-arg,attr-defined]
    return list(dice_finder(image))


def _place(d: DieReading, reading: BoardReading, image: np.ndarray | None) -> DieOnBoard:
    u, v = map_points(np.linalg.inv(reading.h_surface), np.array([d.center]))[0]
    on_board = bool(0.0 <= u <= 1.0 and 0.0 <= v <= 1.0)
    middle = (reading.layout.bar_u0 + reading.layout.bar_u1) / 2
    return DieOnBoard(
        value=d.value if d.flat else None,
        center=(float(d.center[0]), float(d.center[1])),
        flat=d.flat,
        on_board=on_board,
        half=("left" if u < middle else "right") if on_board else None,
        on_checker=on_board and reading.checker_at(*d.center, image=image),
    )
