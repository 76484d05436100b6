"""Calibration's learned section: how the strip reader reads one board, from a known position.

The bar span is the measured candidate (measure.bar_candidates, or the default one-point bar)
under which the models explain the known position best. The first look's pair reads the board
as `analyze` does (board/frame_reading.py) when it reads the known position back:
on renderer styles never trained on it reads the camera's later frames better than the
camera model adapted to the board (bench/bench_calibrated_reader.py). Otherwise the camera
model is adapted, and the first adaptation that reads the position back is kept: the count and
colour heads fine-tuned on its strips (judged leave-one-out, board/heads.py), else light/dark
prototypes (the mean embeddings of its light and dark stacks), else the model as shipped. Both
are fitted here with the model installed now (a retrained model changes what an embedding
means, so they are never constants, and the file records which model they belong to).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TypeVar

import numpy as np

from nardy_pi.vision.board.heads import Heads
from nardy_pi.vision.board.layout import BAR_LOWER, BAR_UPPER, SurfaceLayout
from nardy_pi.vision.board.model import (
    MODEL_PATH,
    StripModel,
    StripPredictions,
    shipped_model,
)
from nardy_pi.vision.board.prototypes import Prototypes
from nardy_pi.vision.board.reader import BoardReader, BoardReading, known_log_likelihood
from nardy_pi.vision.calibration_schema import STRIP_MODELS


@lru_cache(maxsize=4)
def model_digest(path: str = str(MODEL_PATH)) -> str:
    """Short content hash of a strip model: prototypes are only valid for the model that
    made them."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


T = TypeVar("T")

#: which strip models read a board: the camera model with the section's adaptation, or the
#: first look's pair as it reads a board never seen
CAMERA, PAIR = STRIP_MODELS


@dataclass(frozen=True)
class LearnedSection:
    layout: SurfaceLayout
    prototypes: Prototypes | None  # None: not needed to read the board back
    model: str  # model_digest of the strip model the adaptation was fitted with
    heads: Heads | None = None  # fine-tuned count/colour heads, when they read it back
    strips: str = CAMERA  # STRIP_MODELS: which models read the strips

    @property
    def adaptation(self) -> str:
        if self.strips == PAIR:
            return "first-look pair"
        return ("fine-tuned heads" if self.heads is not None else
                "prototypes" if self.prototypes is not None else "none")

    def to_json(self) -> dict:
        return {"layout": self.layout.to_json(),
                "prototypes": None if self.prototypes is None else self.prototypes.to_json(),
                "heads": None if self.heads is None else self.heads.to_json(),
                "model": self.model, "strips": self.strips}


@dataclass(frozen=True)
class LearnedFit:
    section: LearnedSection
    reading: BoardReading  # the known position read back with the section
    disagree: tuple[int, ...]  # points 1..24 (25: the bar) that do not read back


def slot_counts(board) -> list[int]:
    """A BoardField as the reader's 26 signed slots (points, white bar +, black bar -)."""
    return [*board.points, board.bar_white, -board.bar_black]


def bar_totals(counts) -> tuple[int, int]:
    """White and black checkers on the bar: either colour may lie in either half."""
    halves = [c for c in (counts[BAR_LOWER], counts[BAR_UPPER]) if c is not None]
    return sum(c for c in halves if c > 0), sum(-c for c in halves if c < 0)


def disagreements(reading: BoardReading, board) -> tuple[int, ...]:
    """Points (1..24) that do not read back, and 25 for the bar; unseen points are not
    compared."""
    bad = [p for p in range(1, 25)
           if reading.seen[p - 1] and reading.counts[p - 1] != board.points[p - 1]]
    if (reading.seen[BAR_LOWER] and reading.seen[BAR_UPPER]
            and bar_totals(reading.counts) != (board.bar_white, board.bar_black)):
        bad.append(25)
    return tuple(bad)


#: Tall stacks (long nardy's heads of 15) are read short on boards the reader never saw
#: (bench_calibrated_reader's notes). One of at least TALL_STACK checkers read with its colour
#: and at least TALL_READ_AS of them still shows the board's place and look are right; in play
#: the rules count it (referee/decode.py). `calibrate --tall-stacks-uncounted` accepts such.
TALL_STACK = 6
TALL_READ_AS = 5


def tall_miscounts(reading: BoardReading, board) -> tuple[int, ...]:
    """Points (1..24) of TALL_STACK or more checkers read with another count of the same
    colour, at least TALL_READ_AS."""
    out = []
    for p in range(1, 25):
        known, read = board.points[p - 1], reading.counts[p - 1]
        if (reading.seen[p - 1] and read is not None and read != known
                and abs(known) >= TALL_STACK and read * known > 0
                and abs(read) >= TALL_READ_AS):
            out.append(p)
    return tuple(out)


def fit_learned(image: np.ndarray, corners, board, model: StripModel | None = None,
                pair: bool = True) -> LearnedFit:
    """The learned section for this board, and how the known position reads back with it.
    `pair`: try the first look's pair first (off: the camera model's adaptations only)."""
    model = model or shipped_model()
    corners = np.asarray(corners, np.float64)
    known = slot_counts(board)
    tried = []

    def wrong(fit: LearnedFit) -> tuple[int, int]:  # points wrong, then tall stacks miscounted
        tall = tall_miscounts(fit.reading, board)
        return len(fit.disagree) - len(tall), len(tall)

    if pair:
        tried.append(_pair_fit(image, corners, board))
        if not tried[0].disagree:
            return tried[0]

    def read(reader: BoardReader) -> tuple[np.ndarray, StripPredictions]:
        pred = reader.predict(image)
        return reader.reading_from(pred).probs, pred

    layout, reader, pred = _best_layout(image, corners, known, model, read)
    digest = model_digest()
    seen = reader.seen
    # Fine-tuned heads, read back leave-one-out: the honest check of a fit to this frame.
    shipped = Heads.from_model(model)
    heads = shipped.fitted(pred.embedding, known, seen)
    count, light = shipped.leave_one_out(pred.embedding, known, seen)
    reading = reader.reading_of(count, light, pred.occluded)
    tried.append(LearnedFit(LearnedSection(layout, None, digest, heads), reading,
                            disagreements(reading, board)))
    protos = Prototypes.fit(pred.embedding, np.asarray(known), seen)
    for p in ([protos] if protos is not None else []) + [None]:
        if not tried[-1].disagree:
            break
        reader.prototypes = p
        reading = reader.reading_from(pred)
        tried.append(LearnedFit(LearnedSection(layout, p, digest), reading,
                                disagreements(reading, board)))
    reader.prototypes = None
    return min(tried, key=wrong)  # the first of the best


def _pair_fit(image: np.ndarray, corners: np.ndarray, board) -> LearnedFit:
    """The first look's pair, reading the known position back as the camera loop will read
    each frame (model.camera_pair, one plain pass, frame_reading)."""
    from nardy_pi.vision.board.frame_reading import frame_reading
    from nardy_pi.vision.board.model import FIRST_MODEL_PATH, camera_pair

    def read(reader: BoardReader) -> tuple[np.ndarray, BoardReading]:
        strips, pred = reader.cut_and_predict(image)
        reading = frame_reading(reader, pred, strips)
        return reading.probs, reading

    layout, _, reading = _best_layout(image, corners, slot_counts(board), camera_pair(), read)
    section = LearnedSection(layout, None, model_digest(str(FIRST_MODEL_PATH)), strips=PAIR)
    return LearnedFit(section, reading, disagreements(reading, board))


def _best_layout(image: np.ndarray, corners: np.ndarray, known: list[int], model,
                 read: Callable[[BoardReader], tuple[np.ndarray, T]]
                 ) -> tuple[SurfaceLayout, BoardReader, T]:
    """The bar candidate (measure.bar_candidates, or the default one-point bar) under which
    `read`'s probabilities explain the known position best, with its point length measured;
    its reader and what `read` gave there."""
    from nardy_pi.vision.board.measure import bar_candidates, with_measured_length

    size = (image.shape[1], image.shape[0])
    best = None
    for layout in [*bar_candidates(image, corners), SurfaceLayout()]:
        reader = BoardReader(corners, layout, size, model)
        probs, got = read(reader)
        score = known_log_likelihood(probs, reader.seen, known)
        if best is None or score > best[0]:
            best = (score, layout, reader, got)
    assert best is not None
    _, layout, reader, got = best
    # the strips do not depend on the point length: measured once, for the chosen layout
    return with_measured_length(layout, image, corners), reader, got
