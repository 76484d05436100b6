"""Calibration's learned section: adapt the strip reader to one board from a known position.

The bar span is the measured candidate (measure.bar_candidates, or the default one-point bar)
under which the model explains the known position best; the light/dark prototypes are the
mean embeddings of the known position's light and dark stacks, fitted here with the model
that is shipped now (a retrained model changes what an embedding means, so they are never
constants, and the file records which model they belong to).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from nardy_pi.vision.board.layout import BAR_LOWER, BAR_UPPER, SurfaceLayout
from nardy_pi.vision.board.model import MODEL_PATH, StripModel, shipped_model
from nardy_pi.vision.board.prototypes import Prototypes
from nardy_pi.vision.board.reader import BoardReader, BoardReading, known_log_likelihood


@lru_cache(maxsize=4)
def model_digest(path: str = str(MODEL_PATH)) -> str:
    """Short content hash of a strip model: prototypes are only valid for the model that
    made them."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


@dataclass(frozen=True)
class LearnedSection:
    layout: SurfaceLayout
    prototypes: Prototypes | None  # None: the model's own colour opinion read the board back
    model: str  # model_digest of the strip model the prototypes were fitted with

    def to_json(self) -> dict:
        return {"layout": self.layout.to_json(),
                "prototypes": None if self.prototypes is None else self.prototypes.to_json(),
                "model": self.model}


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


def fit_learned(image: np.ndarray, corners, board, model: StripModel | None = None
                ) -> LearnedFit:
    """The learned section for this board, and how the known position reads back with it."""
    from nardy_pi.vision.board.measure import bar_candidates

    model = model or shipped_model()
    corners = np.asarray(corners, np.float64)
    size = (image.shape[1], image.shape[0])
    known = slot_counts(board)
    best = None
    for layout in [*bar_candidates(image, corners), SurfaceLayout()]:
        reader = BoardReader(corners, layout, size, model)
        pred = reader.predict(image)
        score = known_log_likelihood(reader.reading_from(pred).probs, reader.seen, known)
        if best is None or score > best[0]:
            best = (score, layout, reader, pred)
    assert best is not None
    _, layout, reader, pred = best
    digest = model_digest()
    # Prototypes first; when they do not read the position back but the model's own opinion
    # does, the board needs none.
    protos = Prototypes.fit(pred.embedding, np.asarray(known), reader.seen)
    tried = []
    for p in ([protos] if protos is not None else []) + [None]:
        reader.prototypes = p
        reading = reader.reading_from(pred)
        bad = disagreements(reading, board)
        tried.append((bad, LearnedSection(layout, p, digest), reading))
        if not bad:
            break
    bad, section, reading = min(tried, key=lambda t: len(t[0]))
    return LearnedFit(section, reading, bad)
