"""One frame's strips read as the first look reads a board never seen: light and dark settled
within the frame (frame_colour), decoded with a prior on empty points. `analyze` reads a
photo this way (first_look.py), and so does a calibrated camera whose board the first look's
pair reads back (adapt.py, observe.py)."""

from __future__ import annotations

from dataclasses import replace

from nardy_pi.vision.board.frame_colour import relative_light
from nardy_pi.vision.board.layout import checker_length_v
from nardy_pi.vision.board.model import StripPredictions
from nardy_pi.vision.board.reader import BoardReader, BoardReading
from nardy_pi.vision.board.strips import Strips

#: prior odds of an empty point against the strip models' when decoding (board/decode.py).
#: The models are trained on half the empty strips (train/board_reader.py --empty-share 0.5),
#: so their odds of "empty" are about halved, and a photographed game leaves more points bare
#: than the renders do. Chosen for each fold of the real photos (held out by board) on the
#: other four, with decode.MISSING_CAP: 3 for the pair of 2026-12-06; 1.5 (cap 4) in four folds
#: of five for the pair with near walls (2026-12-07), nested 181 -> 168 wrong slots of 3655
#: (bench/bench_board_reader.py). The camera model with heads fitted to a board keeps 1.
EMPTY_WEIGHT = 1.5


def frame_reading(reader: BoardReader, predictions: StripPredictions, strips: Strips,
                  relative_colour: bool = True) -> BoardReading:
    """The reading of one frame's strips (`relative_colour` off: the models' own colours)."""
    if relative_colour:
        layout = reader.cutter.layout
        light = relative_light(strips.raw, predictions.count, predictions.light, reader.seen,
                               layout.base_margin_v,
                               checker_length_v(reader.cutter_corners, layout))
        predictions = replace(predictions, light=light)
    return reader.reading_from(predictions, EMPTY_WEIGHT)
