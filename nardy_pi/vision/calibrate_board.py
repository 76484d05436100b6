"""Calibrate with whichever reader reads the known position back (calibration format 2).

The colour reader (calibrate.py) is tried first: on boards like our renderer's it reads 99.9%
per slot and is fast. The learned section (board/adapt.py) is always fitted too, so a file
also works for the learned reader. When the colour reader cannot learn the board or does not
read the position back, the learned reader is used if it does: a pair of strip models like
`analyze`'s for a board never seen (its first member the plain model, which fits a camera
frame's budget; model.camera_pair), or else the camera model adapted to this board. When
neither does, there is no calibration, and the points that disagree are named.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from nardy_pi.rules.notation.board_field import BoardField, format_board_field
from nardy_pi.vision import geometry as g
from nardy_pi.vision.calibration import Calibration
from nardy_pi.vision.rectify import DEFAULT_SCALE
from nardy_pi.vision.stacking import STACK_STYLES


@dataclass(frozen=True)
class Calibrated:
    calibration: Calibration | None  # the best candidate (also when refused, for the overlay)
    accepted: bool
    seen: object | None  # observe.Seen of the calibration frame with that candidate
    agree: int  # points 1..24 of the position read back by the chosen candidate
    message: str  # why it was refused, or which reader was chosen


def _disagreeing(points, bar: tuple[int, int] | None, board: BoardField) -> list[int]:
    bad = [p for p in range(1, 25)
           if points[p - 1] is not None and points[p - 1] != board.points[p - 1]]
    if bar is not None and bar != (board.bar_white, board.bar_black):
        bad.append(25)
    return bad


def describe(points, bar: tuple[int, int], board: BoardField, bad: list[int]) -> str:
    """'points 6, 13 read 4, 0; the position has 5, -5' (25 is the bar)."""
    def show(i: int, read: bool) -> str:
        if i == 25:
            w, b = bar if read else (board.bar_white, board.bar_black)
            return f"bar {w}/{b}"
        return str(points[i - 1] if read else board.points[i - 1])

    names = ", ".join("bar" if i == 25 else str(i) for i in bad)
    word = "point" if len(bad) == 1 else "points"
    return (f"{word} {names} read {', '.join(show(i, True) for i in bad)}; "
            f"the position has {', '.join(show(i, False) for i in bad)}")


def calibrate_board(image: np.ndarray, corners, board: BoardField, trays: bool | None = None,
                    stack_styles: tuple[str, ...] = STACK_STYLES,
                    tall_stacks_uncounted: bool = False) -> Calibrated:
    """`tall_stacks_uncounted`: the learned reader may read a tall stack (board/adapt.py
    TALL_STACK, long nardy's heads) with another count of its colour and still be accepted;
    off, every point must read back (board-frame.md §2)."""
    from nardy_pi.vision.board.adapt import bar_totals, fit_learned, tall_miscounts
    from nardy_pi.vision.calibrate import calibrate
    from nardy_pi.vision.observe import Observer

    corners = np.asarray(corners, np.float64)
    colour_cal = None
    colour_problem = ""
    try:
        colour_cal = calibrate(image, corners, board, trays=trays, stack_styles=stack_styles)
    except ValueError as exc:
        colour_problem = str(exc)
    fit = fit_learned(image, corners, board)
    if colour_cal is not None:
        colour_cal = replace(colour_cal, learned=fit.section)
        seen = Observer(colour_cal).observe(image)
        obs = seen.observation
        bad = _disagreeing(obs.points, (obs.bar_white, obs.bar_black), board)
        if not bad:
            return Calibrated(colour_cal, True, seen, 24, "colour reader: read back 24/24")
        colour_problem = f"reads back {24 - len([b for b in bad if b < 25])}/24"
    base = colour_cal or Calibration(
        image_size=(image.shape[1], image.shape[0]),
        corners=tuple((float(a), float(b)) for a, b in corners),
        homography=g.board_to_image_homography(corners),
        colours=None, point_classes=None, gain=None,
        trays=bool(trays), stack_styles=tuple(stack_styles),
        position=format_board_field(board.points, board.bar_white, board.bar_black),
        scale=DEFAULT_SCALE)
    learned_cal = replace(base, reader="learned", learned=fit.section)
    seen = Observer(learned_cal).observe(image)
    reading = fit.reading
    seen_points = sum(bool(s) for s in reading.seen[:24])
    tall = tall_miscounts(reading, board)
    bad = [b for b in fit.disagree if not (tall_stacks_uncounted and b in tall)]
    agree = seen_points - len([b for b in fit.disagree if b < 25])
    if not bad:
        how = {"first-look pair": "with the pair of strip models (the first look's, with the "
               "plain first model)",
               "fine-tuned heads": "with heads fine-tuned to this board (checked leave-one-out)",
               "prototypes": "with this board's prototypes",
               "none": "as the model reads"}[fit.section.adaptation]
        unseen = 24 - seen_points
        note = f"; {unseen} points out of view" if unseen else ""
        if fit.disagree:  # only tall stacks' counts, and they may be
            note += "; " + ", ".join(
                f"point {p}'s {abs(board.points[p - 1])} counted {abs(reading.counts[p - 1])}"
                for p in tall) + " (tall stacks are counted by the rules in play)"
        return Calibrated(learned_cal, True, seen, agree,
                          f"learned reader {how}: read back {agree}/{seen_points}{note}"
                          + (f" (colour reader: {colour_problem})" if colour_problem else ""))
    points = reading.counts[:24]
    text = describe(points, bar_totals(reading.counts), board, list(fit.disagree))
    if set(fit.disagree) <= set(tall):
        text += (" (only tall stacks' counts: --tall-stacks-uncounted accepts a board whose "
                 "tall stacks read short or long with their colour right)")
    return Calibrated(learned_cal, False, seen, agree, text)
