"""The shipped strip model, run with OpenCV's dnn module (no extra runtime on the Pi)."""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from nardy_pi.vision.board.decode import signed_distribution

MODEL_PATH = Path(__file__).resolve().parent.parent / "models" / "strip_reader.onnx"
#: the camera pair's first member (`camera_pair`): the shipped recipe on strips that start
#: outside the surface edge (layout.FIRST_LOOK_MARGIN_V)
FIRST_MODEL_PATH = MODEL_PATH.with_name("strip_reader_first.onnx")
#: the first look's first member (`first_look_model`): the same recipe on EfficientNet-Lite0's
#: front end started from ImageNet weights (train/lite_net.py); it reads real boards better
#: and costs four times as much, once per photo
LITE_MODEL_PATH = MODEL_PATH.with_name("strip_reader_lite.onnx")
#: the second member of both pairs: a second opinion trained by another recipe (renders with
#: loose checkers, twice the corner jitter), on the same strips
SECOND_MODEL_PATH = MODEL_PATH.with_name("strip_reader_b.onnx")
#: the first look's bar reader (`StripEnsemble.bar`): Lite0 trained on renders whose bar
#: checkers lie anywhere along the bar and are labelled (train/board_reader.py --bar-labels);
#: the pair's members learned occupied bars only from the first renderer's habit
BAR_MODEL_PATH = MODEL_PATH.with_name("strip_reader_bar.onnx")
_OUTPUTS = ["count", "colour", "occluded", "embedding"]


@dataclass(frozen=True, slots=True)
class StripPredictions:
    count: np.ndarray  # N x 16 probabilities of 0..15 checkers
    light: np.ndarray  # N: probability that the checkers are the light side's
    occluded: np.ndarray  # N: probability that something else covers the strip
    embedding: np.ndarray  # N x E: what the heads read (calibration keeps prototypes)

    def rows(self, which: slice) -> StripPredictions:
        """The predictions of some strips of a batch."""
        return StripPredictions(self.count[which], self.light[which], self.occluded[which],
                                self.embedding[which])

    def with_rows(self, which, other: StripPredictions) -> StripPredictions:
        """These predictions with the strips `which` read as `other` reads them (the
        embedding stays this one's: the heads and prototypes are fitted to it)."""
        parts: dict[str, np.ndarray] = {}
        for name in ("count", "light", "occluded"):
            mine = getattr(self, name).copy()
            mine[which] = getattr(other, name)
            parts[name] = mine
        return StripPredictions(embedding=self.embedding, **parts)


def strip_path(model_path: Path) -> Path:
    """`<model>.strip.json`, beside a model: the strips it was trained on (`base_margin_v`:
    how far outside the surface edge the points' strips start; `context`: whether each strip
    comes with its frame's reference, strips.with_context; no file: at the edge, alone)."""
    return model_path.with_name(model_path.stem + ".strip.json")


@dataclass(frozen=True, slots=True)
class StripFormat:
    """How a model's strips are cut and fed (its `<model>.strip.json`)."""

    base_margin_v: float = 0.0
    context: bool = False

    def to_json(self) -> dict:
        return {"base_margin_v": self.base_margin_v, "context": self.context}


def strip_format(model_path: Path) -> StripFormat:
    side = strip_path(model_path)
    if not side.is_file():
        return StripFormat()
    try:
        data = json.loads(side.read_text())
        margin = float(data["base_margin_v"])
        context = data.get("context", False)
    except (ValueError, KeyError, TypeError) as e:
        raise ValueError(f"{side} does not say where the strips start: {e}") from None
    if not 0.0 <= margin < 0.2:
        raise ValueError(f"{side}: base_margin_v {margin} is not a margin")
    if not isinstance(context, bool):
        raise ValueError(f"{side}: context must be true or false, not {context!r}")
    return StripFormat(margin, context)


def _softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


class StripModel:
    def __init__(self, path: Path | str = MODEL_PATH) -> None:
        path = Path(path)
        if not path.is_file():
            raise ValueError(f"strip model not found: {path} (train it with "
                             "`python -m nardy_pi.vision.train.board_reader`)")
        self.path = path
        # OpenCV 5's classic engine runs this small graph faster; OpenCV 4 has only that one.
        engine = getattr(cv2.dnn, "ENGINE_CLASSIC", None)
        self.net = (cv2.dnn.readNetFromONNX(str(path)) if engine is None
                    else cv2.dnn.readNetFromONNX(str(path), engine=engine))
        self.net.setPreferableBackend(cv2.dnn.DNN_BACKEND_OPENCV)
        fmt = strip_format(path)
        self.base_margin_v = fmt.base_margin_v
        self.context = fmt.context  # it reads each strip with its frame's reference
        self.inputs = 8 if fmt.context else 4
        self.scout = self  # it picks among the bar candidates itself (StripEnsemble.scout)

    def _input(self, x: np.ndarray) -> np.ndarray:
        # An ensemble feeds every member the widest input; a member without context reads
        # the plain channels only.
        return x[:, :self.inputs] if x.shape[1] > self.inputs else x

    def raw(self, x: np.ndarray) -> list[np.ndarray]:
        """The four outputs for N x C x H x W strips (C: 4, or 8 with context), as the network
        computes them."""
        self.net.setInput(np.ascontiguousarray(self._input(x), np.float32))
        return [np.asarray(o).reshape(len(x), -1) for o in self.net.forward(_OUTPUTS)]

    def predict(self, x: np.ndarray) -> StripPredictions:
        count, colour, occluded, embedding = self.raw(x)
        light = _softmax(colour)[:, 0]
        return StripPredictions(_softmax(count), light, 1.0 / (1.0 + np.exp(-occluded[:, 0])),
                                embedding)


    def predict_mirrored(self, x: np.ndarray) -> StripPredictions:
        """Predictions averaged over each strip and its mirror image: a stack reads the same
        either way round, and the average is steadier on boards never seen (real photos,
        held out by board: 86.1% -> 87.0% per slot)."""
        both = self.predict(np.concatenate([x, x[..., ::-1]]))
        n = len(x)
        return average([both.rows(slice(0, n)), both.rows(slice(n, 2 * n))])


def average(preds: list[StripPredictions]) -> StripPredictions:
    """The mean of several readings of the same strips (mirrored, or cut a little apart)."""
    return StripPredictions(*(np.mean([getattr(p, f.name) for p in preds], axis=0)
                              for f in fields(StripPredictions)))


class StripEnsemble:
    """Strip models read together, their probabilities averaged: what `analyze` reads a board
    never seen with. Two models trained by different recipes err on different strips; their
    average read the real photos held out by board better than either (90.0% and 90.6% ->
    91.6% per slot, images exact 71 and 68 -> 81 of 151; bench/bench_board_reader.py). It
    costs a forward pass per member, so the camera loop asks the second only where the first
    is unsure (SecondOpinionWhereUnsure).

    The embedding is the first member's: heads and prototypes are fitted to one model only.
    `scout`: the member that alone picks among the bar candidates (reader.fit_reader) before
    the whole ensemble reads the chosen one: the cheap member, where another costs much more
    (None: the whole ensemble picks).
    `bar`: a model that alone reads the chosen layout's two bar halves (reader.fit_reader),
    where the members never learned checkers lying anywhere along the bar."""

    def __init__(self, models: list[StripModel], scout: int | None = None,
                 bar: StripModel | None = None) -> None:
        if not models:
            raise ValueError("an ensemble needs at least one strip model")
        if scout is not None and not 0 <= scout < len(models):
            raise ValueError(f"no member {scout} to scout with among {len(models)}")
        every = [*models, *([bar] if bar else [])]
        if len({m.base_margin_v for m in every}) > 1:
            raise ValueError("the models of an ensemble must read the same strips "
                             f"({', '.join(m.path.name for m in every)} differ)")
        self.models = models
        self.bar = bar
        self.base_margin_v = models[0].base_margin_v
        self.context = any(m.context for m in models)
        if bar is not None and bar.context != self.context:
            raise ValueError(f"the bar reader {bar.path.name} must read strips as the members do")
        self.scout = self if scout is None else models[scout]

    @property
    def path(self) -> Path:
        return self.models[0].path

    def _mean(self, preds: list[StripPredictions]) -> StripPredictions:
        mean = average(preds)
        return StripPredictions(mean.count, mean.light, mean.occluded, preds[0].embedding)

    def predict(self, x: np.ndarray) -> StripPredictions:
        return self._mean([m.predict(x) for m in self.models])

    def predict_mirrored(self, x: np.ndarray) -> StripPredictions:
        return self._mean([m.predict_mirrored(x) for m in self.models])


class SecondOpinionWhereUnsure:
    """A pair for the camera loop (camera_pair): the first member reads every strip, the
    second only those the first is unsure of (no signed count at SURE, or an occluder at
    LOOK_OCCLUDED or more), and those two are averaged as the pair averages them. On renderer
    styles never trained on (calibrated sessions, bench_calibrated_reader) about one strip in
    seven went to the second member and the readings matched the whole pair's (94.9% against
    94.7% per slot, the same frames exact and occlusion figures), at a fifth of its cost."""

    SURE = 0.9
    LOOK_OCCLUDED = 0.1

    def __init__(self, pair: StripEnsemble) -> None:
        if len(pair.models) != 2:
            raise ValueError("a second opinion needs a pair of strip models")
        self.first, self.second = pair.models
        self.base_margin_v = pair.base_margin_v
        self.context = pair.context

    def unsure(self, first: StripPredictions) -> np.ndarray:
        sure = signed_distribution(first.count, first.light).max(axis=1)
        return (sure < self.SURE) | (first.occluded >= self.LOOK_OCCLUDED)

    def predict(self, x: np.ndarray) -> StripPredictions:
        first = self.first.predict(x)
        unsure = self.unsure(first)
        if not unsure.any():
            return first
        second = self.second.predict(x[unsure])
        return first.with_rows(unsure, average([first.rows(unsure), second]))


@lru_cache(maxsize=1)
def camera_pair() -> SecondOpinionWhereUnsure:
    """The pair a calibrated camera reads with when the camera model alone cannot learn the
    board (board/adapt.py): the plain first member, whose cost fits a frame's budget, and the
    second opinion where it is unsure."""
    return SecondOpinionWhereUnsure(
        StripEnsemble([_loaded(str(FIRST_MODEL_PATH)), _loaded(str(SECOND_MODEL_PATH))]))


@lru_cache(maxsize=1)
def first_look_model() -> StripEnsemble:
    """The first look's pair, for reading a board never seen (once per photo, so its first
    member can be the costlier Lite0 model). Its strips start outside the surface edge; the
    camera loop's model (`shipped_model`) reads strips cut at the edge, where its occluder head
    proved steadier (bench/bench_board_reader.py, 2026-12-05)."""
    return StripEnsemble([_loaded(str(LITE_MODEL_PATH)), _loaded(str(SECOND_MODEL_PATH))],
                         scout=1, bar=_loaded(str(BAR_MODEL_PATH)))


def shipped_model(path: str = str(MODEL_PATH)) -> StripModel:
    """One loaded copy per process and path: loading parses the ONNX graph."""
    return _loaded(str(Path(path)))


@lru_cache(maxsize=4)
def _loaded(path: str) -> StripModel:
    return StripModel(path)
