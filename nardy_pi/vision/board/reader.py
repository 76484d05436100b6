"""Read all 26 slots of one frame: cut strips, run the model, adapt colours to the board when
calibrated, decode with the 15-a-side rule."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import NamedTuple

import numpy as np

from nardy_pi.vision.board.decode import VALUES, decode, signed_distribution
from nardy_pi.vision.board.die_rest import ring_on_checker
from nardy_pi.vision.board.heads import Heads
from nardy_pi.vision.board.layout import BAR_LOWER, BAR_UPPER, SLOTS, STRIP_REACH_V, SurfaceLayout
from nardy_pi.vision.board.model import (
    SecondOpinionWhereUnsure,
    StripEnsemble,
    StripModel,
    StripPredictions,
    average,
    shipped_model,
)
from nardy_pi.vision.board.prototypes import Prototypes
from nardy_pi.vision.board.reuse import StripReuse
from nardy_pi.vision.board.strips import (
    StripCutter,
    Strips,
    cached_cutter,
    map_points,
    model_input,
)

#: a strip less inside the image than this is unseen (its point is null). Both kinds of strip
#: model read a point cut by the picture's edge right more often than not: at 0.4 instead of 0.6
#: the real photos held out by board read 91.6% -> 91.9% per slot (12 of the 15 points newly
#: read right), held-out renders' points partly out of view 80% -> 84% (the camera model
#: 74% -> 78%), the calibrated camera loop 93.0% -> 93.3% (bench_calibrated_reader)
SEEN_SHARE = 0.4
OCCLUDED = 0.5  # occluder probability from which a slot counts as covered
#: share of the surface's size by which a steady reading's other two placements are larger and
#: smaller. Real photos held out by board, two pairs of fold models (fine-tune seeds 15 and 16),
#: wrong slots of 3655: read once 149 / 175; at 0.01 142 / 169, 0.015 141 / 158, 0.02 148 / 159;
#: chosen for each fold on the other four (ties to the smaller): 0.015 or 0.01, nested 144 / 161
NUDGE = 0.015


@dataclass(frozen=True)
class BoardReading:
    counts: tuple[int | None, ...]  # SLOTS signed: points 1..24, white bar (+), black bar (-)
    probs: np.ndarray  # SLOTS x 31 over signed counts -15..15
    slot_confidence: tuple[float, ...]
    confidence: float
    occluded_prob: np.ndarray  # SLOTS
    seen: np.ndarray  # SLOTS bool
    layout: SurfaceLayout
    h_surface: np.ndarray  # unit square -> image

    @property
    def occluded(self) -> bool:
        return bool((self.occluded_prob[self.seen] > OCCLUDED).any())

    @property
    def sureness(self) -> float:
        """How sure the model is of the slots it sees: the mean log of each seen slot's
        likeliest signed count (0 is certain). Strips cut from something that is not a
        playing surface read unsure."""
        if not self.seen.any():
            return float("-inf")
        best = np.asarray(self.probs, np.float64)[self.seen].max(axis=1)
        return float(np.log(np.maximum(best, 1e-6)).mean())

    def checker_at(self, x: float, y: float, image: np.ndarray | None = None) -> bool:
        """Is image point (x, y) on a checker of a stack this reading found? With the image,
        a die's spot must also be framed by checker colour (board/die_rest.py): the model
        counts a die just past a stack's end, or alone on the bar, as a checker."""
        u, v = map_points(np.linalg.inv(self.h_surface), np.array([[x, y]]))[0]
        hit = self.layout.slot_at(float(u), float(v))
        if hit is None:
            return False
        slot, along = hit
        count = self.counts[slot]
        if not count:
            return False
        diameter = self.layout.point_length_v / 5.0
        if along > min(abs(count) * diameter, STRIP_REACH_V) + 0.2 * diameter:
            return False
        if image is None:
            return True
        ring = ring_on_checker(image, self.layout, self.h_surface, self.counts, slot,
                               float(u), float(v))
        return True if ring is None else ring


class BoardReader:
    """One surface placement (corners, layout, frame size) and the model to read it."""

    def __init__(self, corners, layout: SurfaceLayout, frame_size: tuple[int, int],
                 model: StripModel | StripEnsemble | SecondOpinionWhereUnsure | None = None,
                 prototypes: Prototypes | None = None, heads: Heads | None = None,
                 reuse: bool = False) -> None:
        """`reuse`: a still camera's reader, frame after frame: strips that did not change
        keep their outputs (board/reuse.py)."""
        self.model = model or shipped_model()
        self._reuse = StripReuse(self.model) if reuse else None
        # the strips as this model was trained on them (where its points' strips start)
        layout = replace(layout, base_margin_v=self.model.base_margin_v)
        self.cutter = cached_cutter(corners, layout, frame_size)
        self.prototypes = prototypes
        self.heads = heads  # this board's fine-tuned count/colour heads (board/heads.py)
        self.seen = self.cutter.visible >= SEEN_SHARE
        self.cutter_corners = tuple((float(x), float(y)) for x, y in np.asarray(corners))

    def predict(self, image: np.ndarray) -> StripPredictions:
        return self.cut_and_predict(image)[1]

    def cut_and_predict(self, image: np.ndarray) -> tuple[Strips, StripPredictions]:
        """The frame's strips as cut, and the model's outputs for them."""
        strips = self.cutter.cut(image)
        x = model_input(strips, self.model.context)
        return strips, (self._reuse or self.model).predict(x)

    def read(self, image: np.ndarray) -> BoardReading:
        return self.reading_from(self.predict(image))

    def reading_from(self, pred: StripPredictions, empty_weight: float = 1.0) -> BoardReading:
        """`empty_weight`: as decode's."""
        count, light = pred.count, pred.light
        if self.heads is not None:
            count, light = self.heads.apply(pred.embedding)
        if self.prototypes is not None:
            light = self.prototypes.light_probability(pred.embedding, light)
        return self.reading_of(count, light, pred.occluded, empty_weight)

    def reading_of(self, count: np.ndarray, light: np.ndarray,
                   occluded: np.ndarray, empty_weight: float = 1.0) -> BoardReading:
        """A reading from per-slot count probabilities and light-side probabilities."""
        probs = signed_distribution(count, light)
        decoded = decode(probs, self.seen, empty_weight)
        return BoardReading(decoded.counts, probs, decoded.confidence, decoded.board_confidence,
                            occluded, self.seen, self.cutter.layout, self.cutter.h_surface)


def known_log_likelihood(probs: np.ndarray, seen: np.ndarray, counts) -> float:
    """How well per-slot probabilities explain a known position (sum of log probabilities)."""
    idx = np.asarray(counts, int) + int(-VALUES[0])
    p = probs[np.arange(SLOTS), idx]
    return float(np.log(np.maximum(p[seen], 1e-6)).sum())


def fit_layout(image: np.ndarray, corners, model: StripModel | None = None) -> SurfaceLayout:
    """A board never seen: the measured bar span under which the model reads most surely
    (the sum over slots of the log of each slot's best probability)."""
    return fit_reader(image, corners, model).reader.cutter.layout


def nudged(corners, share: float = NUDGE) -> list[np.ndarray]:
    """The surface placed a little larger and a little smaller: where hand-placed or found
    corners may well have been. (Also higher and lower, four placements in all, read the real
    photos no better, 141 / 160 wrong slots against 141 / 158, for twice the cost.)"""
    c = np.asarray(corners, np.float64).reshape(4, 2)
    centre = c.mean(axis=0)
    return [centre + (c - centre) * (1 + share), centre + (c - centre) * (1 - share)]


class FittedReader(NamedTuple):
    """`fit_reader`'s answer: the chosen layout's reader, the model's predictions for the image
    under it, and its strips as cut (the colour step looks at their pixels)."""

    reader: BoardReader
    predictions: StripPredictions
    strips: Strips


def fit_reader(image: np.ndarray, corners, model: StripModel | StripEnsemble | None = None,
               steady: bool = False) -> FittedReader:
    """`fit_layout`'s choice as a reader, with the model's predictions for this image under
    it (so the chosen layout's strips are not cut or read twice). Every candidate's strips go
    through the model in one batch; a strip's outputs do not depend on its batch.

    `steady`: the chosen layout is also read at the `nudged` placements and the readings
    averaged (two more mirrored passes; for one photo, not for every camera frame).
    An ensemble with a `scout` picks the candidate with that member alone, then reads the
    chosen layout whole: the costly member reads one layout, not every candidate."""
    from nardy_pi.vision.board.measure import bar_candidates

    model = model or shipped_model()
    size = (image.shape[1], image.shape[0])
    readers = [BoardReader(corners, layout, size, model)
               for layout in [*bar_candidates(image, corners), SurfaceLayout()]]
    cut = [r.cutter.cut(image) for r in readers]
    strips = np.concatenate([model_input(c, model.context) for c in cut])
    pred = model.scout.predict(strips)
    best: tuple[float, int] | None = None
    for k, reader in enumerate(readers):
        mine = pred.rows(slice(k * SLOTS, (k + 1) * SLOTS))
        probs = signed_distribution(mine.count, mine.light)
        score = float(np.log(np.maximum(probs.max(axis=1), 1e-6))[reader.seen].sum())
        if best is None or score > best[0]:
            best = (score, k)
    assert best is not None
    k = best[1]
    # The chosen layout is read once more, mirrored, and the two readings averaged (as
    # StripModel.predict_mirrored does; its plain reading is the one above, or, when a scout
    # picked, the whole ensemble's: the scout's own plain pass over it runs twice, ~2 ms).
    chosen = strips[k * SLOTS:(k + 1) * SLOTS]
    readings = [pred.rows(slice(k * SLOTS, (k + 1) * SLOTS)) if model.scout is model
                else model.predict(chosen)]
    if steady:
        more = np.concatenate([model_input(StripCutter(c, readers[k].cutter.layout, size)
                                           .cut(image), model.context)
                               for c in nudged(corners)])
        readings.append(model.predict(more))
        chosen = np.concatenate([chosen, more])
    readings.append(model.predict(chosen[..., ::-1]))
    rows = [r.rows(slice(i, i + SLOTS)) for r in readings for i in range(0, len(r.count), SLOTS)]
    return FittedReader(readers[k], _bar_read(model, average(rows), chosen[:SLOTS]), cut[k])


def _bar_read(model: StripModel | StripEnsemble, mean: StripPredictions, strips: np.ndarray
              ) -> StripPredictions:
    """The bar halves as an ensemble's `bar` reader reads them, plain and mirrored averaged
    (model.StripEnsemble.bar; without one, `mean` as it is)."""
    bar = getattr(model, "bar", None)
    if bar is None:
        return mean
    halves = strips[[BAR_LOWER, BAR_UPPER]]
    read = average([bar.predict(halves), bar.predict(halves[..., ::-1])])
    return mean.with_rows([BAR_LOWER, BAR_UPPER], read)
