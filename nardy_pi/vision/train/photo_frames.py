"""Real photos as training frames, from the photo labels (vision/train/board_photos.py):
board id (the original photo), corners, 24 point counts (None where unseen), bar counts and
the bar's span. Folds are grouped by board, so a held-out board is never seen in any copy."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from nardy_pi.vision.board.layout import BAR_LOWER, BAR_UPPER, SLOTS, SurfaceLayout
from nardy_pi.vision.train.strip_data import Frame


def photo_frames(exclude_fold: int | None = None, folds: int = 5) -> Iterator[tuple[Frame, int]]:
    """Checked photos as frames, leaving out the boards of fold `exclude_fold`."""
    from nardy_pi.vision.train.board_photos import (
        board_folds,
        default_root,
        load_board_photos,
        read_image,
    )
    from nardy_pi.vision.train.photo_pastes import read_checker_boxes

    labels = load_board_photos()
    held = set(board_folds(labels, folds)[exclude_fold].test_boards) if (
        exclude_fold is not None) else set()
    boards = sorted({lab.board for lab in labels})
    for lab in labels:
        if not lab.checked or lab.board in held:
            continue
        counts = np.zeros(SLOTS, np.int64)
        known = np.zeros(SLOTS, bool)
        for i, c in enumerate(lab.points):
            if c is not None:
                counts[i], known[i] = c, True
        # Which bar half holds which side is not labelled: bar strips count only when empty.
        known[BAR_LOWER] = known[BAR_UPPER] = tuple(lab.bar) == (0, 0)
        layout = SurfaceLayout(float(lab.bar_u[0]), float(lab.bar_u[1]))
        image = read_image(lab)
        boxes = default_root() / "labels" / f"{lab.name}.txt"
        checkers = (read_checker_boxes(boxes, image.shape[1], image.shape[0])
                    if boxes.is_file() else None)
        yield (Frame(image, np.asarray(lab.corners, float), layout, counts, None, known,
                     checkers), 10000 + boards.index(lab.board))
