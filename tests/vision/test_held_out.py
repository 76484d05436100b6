"""Honest real-photo figures: each board scored by the fold model that never saw it."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

from nardy_pi.vision.board.model import MODEL_PATH, StripModel
from nardy_pi.vision.train.held_out import held_out_score


def test_a_fold_with_no_checked_photo_needs_no_model(tmp_path: Path) -> None:
    """Leave-one-board-out over every board gives folds whose only board has no checked
    photo; the training skips them, so scoring must not ask for their model."""
    from nardy_pi.vision.train.board_photos import load_board_photos
    from tests.shared_data import shared_dir

    root = shared_dir("data", "board-photos")
    labels = load_board_photos(root)
    scored, unchecked = sorted({lab.board for lab in labels if lab.checked})[:2]
    picked = [lab for lab in labels if lab.board == scored and lab.checked][:2]
    picked += [replace(lab, checked=False) for lab in labels if lab.board == unchecked]
    (tmp_path / "folds.json").write_text(json.dumps({"folds": [[scored], [unchecked]]}))
    # fold 0 only (the model, its heads and strip format): fold 1 has nothing to score
    for src in MODEL_PATH.parent.glob(MODEL_PATH.stem + ".*"):
        shutil.copy(src, tmp_path / src.name.replace(MODEL_PATH.stem, "fold0", 1))

    asked: list[str] = []

    def make_reader(model: StripModel):
        asked.append(model.path.name)
        return lambda image, corners: ((0,) * 24, (0, 0))

    score = held_out_score(make_reader, tmp_path, labels=tuple(picked), root=root)
    assert asked == ["fold0.onnx"]
    assert list(score.per_board) == [scored]
    assert score.overall.images == 2
