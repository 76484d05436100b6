"""Honest figures on real photos: each board read by a model that never saw it.

`python -m nardy_pi.vision.train.board_reader --photos --lobo DIR` leaves the output of
one model per fold of boards (DIR/fold<K>.onnx) and DIR/folds.json naming each fold's boards.
Here every board is scored with the model of the fold that held it out.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from nardy_pi.vision.board.model import StripEnsemble, StripModel
from nardy_pi.vision.train.board_photos import (
    PhotoLabel,
    ReaderScore,
    Tally,
    load_board_photos,
    score_reader,
)

REPO = Path(__file__).resolve().parents[3]
#: the camera loop's model (board/model.py MODEL_PATH's recipe)
FOLD_MODELS = REPO / "bench" / "models" / "strip_folds"
#: the same folds for the first look's pair (LITE_MODEL_PATH's and SECOND_MODEL_PATH's);
#: strip_folds_first beside them holds the camera pair's first member's (FIRST_MODEL_PATH's)
FIRST_FOLD_MODELS = REPO / "bench" / "models" / "strip_folds_lite"
SECOND_FOLD_MODELS = REPO / "bench" / "models" / "strip_folds_b"
#: the same folds for the first look's bar reader (BAR_MODEL_PATH's)
BAR_FOLD_MODELS = REPO / "bench" / "models" / "strip_folds_bar"

MakeReader = Callable[[StripModel], Callable[[Any, Any], Any]]


def fold_boards(fold_dir: Path = FOLD_MODELS) -> list[list[str]]:
    manifest = fold_dir / "folds.json"
    if not manifest.is_file():
        raise FileNotFoundError(
            f"no fold models in {fold_dir} (make them with `python -m "
            "nardy_pi.vision.train.board_reader --photos --lobo DIR`)")
    return [list(f) for f in json.loads(manifest.read_text())["folds"]]


def with_second_opinion(model: StripModel, second_dir: Path = SECOND_FOLD_MODELS,
                        bar_dir: Path | None = BAR_FOLD_MODELS) -> StripEnsemble:
    """A fold model and the same fold's second opinion, averaged as `analyze` reads, and the
    same fold's bar reader (all trained without that fold's boards; the second picks the bar
    candidate). `bar_dir` None: the pair reads the bar too."""
    second = second_dir / model.path.name
    bar = None if bar_dir is None else bar_dir / model.path.name
    for path in (second, bar):
        if path is not None and not path.is_file():
            raise FileNotFoundError(f"no fold model {path}")
    return StripEnsemble([model, StripModel(second)], scout=1,
                         bar=None if bar is None else StripModel(bar))


def held_out_score(make_reader: MakeReader, fold_dir: Path = FOLD_MODELS,
                   labels: tuple[PhotoLabel, ...] | None = None,
                   root: Path | None = None) -> ReaderScore:
    """Every labelled photo read by the fold model that held its board out."""
    labels = load_board_photos(root) if labels is None else labels
    folds = fold_boards(fold_dir)
    placed = {b for f in folds for b in f}
    unplaced = {lab.board for lab in labels} - placed
    if unplaced:
        raise ValueError(f"boards in no fold of {fold_dir}: {', '.join(sorted(unplaced))}")
    per_board: dict[str, Tally] = {}
    for k, boards in enumerate(folds):
        test = [lab for lab in labels if lab.board in set(boards) and lab.checked]
        if not test:  # a fold of unchecked photos only trains no model
            continue
        score = score_reader(make_reader(StripModel(fold_dir / f"fold{k}.onnx")), test, root)
        per_board.update(score.per_board)
    per_board = dict(sorted(per_board.items()))
    overall = Tally(*(sum(getattr(t, f) for t in per_board.values())
                      for f in ("slots_right", "slots", "exact", "images")))
    return ReaderScore(overall=overall, per_board=per_board)
