"""One frame's strips read as the first look reads a board never seen: light and dark settled
within the frame (frame_colour), decoded with a prior on empty points. `analyze` reads a
photo this way (first_look.py), and so does a calibrated camera whose board the first look's
pair reads back (adapt.py, observe.py)."""

from __future__ import annotations

from dataclasses import replace

from nardy_pi.vision.board.frame_colour import relative_light
from nardy_pi.vision.board.model import StripPredictions
from nardy_pi.vision.board.reader import BoardReader, BoardReading
from nardy_pi.vision.board.strips import Strips

#: prior odds of an empty point against the strip models' when decoding (board/decode.py).
#: The models are trained on half the empty strips (train/board_reader.py --empty-share 0.5),
#: so their odds of "empty" are about halved, and a photographed game leaves more points bare
#: than the renders do. Real photos held out by board, the weight chosen for each fold on the
#: other four (3 for every fold; 1, 1.4, 2, 2.5, 3, 3.5, 4, 6 tried): 209 -> 197 wrong slots of
#: 3510, images exact 87 -> 89 of 145, phantom checkers 32 -> 12, missed 81 -> 101; held-out
#: renders 97.1% -> 97.3% per slot. The camera model with heads fitted to a board keeps 1
#: (bench_calibrated_reader: 93.6% -> 93.5% at 3).
EMPTY_WEIGHT = 3.0


def frame_reading(reader: BoardReader, predictions: StripPredictions, strips: Strips,
                  relative_colour: bool = True) -> BoardReading:
    """The reading of one frame's strips (`relative_colour` off: the models' own colours)."""
    if relative_colour:
        light = relative_light(strips.raw, predictions.count, predictions.light, reader.seen,
                               reader.cutter.layout.base_margin_v)
        predictions = replace(predictions, light=light)
    return reader.reading_from(predictions, EMPTY_WEIGHT)
