"""Learning a board while it is played: positions the referee confirmed refit the heads.

Calibration sees one position (the start: stacks of 2, 3 and 5), so it cannot teach the
reader what fails most on a board it never saw, counting taller stacks. Every legal play the
referee accepts names the position the camera saw at that moment, checkers the rules vouch
for, so its strips are labelled examples of this very board. They join a bounded pool and the
count and colour heads are refitted on it, pulled towards the calibration's heads so that a
few frames only nudge them (board/heads.py does the fitting).

A frame whose reading sees a third of the occupied points empty or of the other colour is
not learned from: that is another frame or a moved camera, not a miscounted stack.

Measured (bench_calibrated_reader.py --learn, 20 sessions of 20 frames, renderer styles held
out of training, each frame read before its own position is confirmed), shipped strip model
(24-48-48-64): per slot 92.9% -> 93.1%, frames exact 25.1% either way; 320 frames learned, 11
refused. Pulls of 0.03, 0.1, 1 and 3 gave 92.9-93.0% and 22.1-23.9% exact. With the earlier
16-32-32-48 model the gain was larger (92.2% -> 93.2-93.3%, exact 19.8% -> 24.3-24.7% at pulls
0.1-0.3), and refusing on any count mismatch over a third of the occupied points refused 94
frames in 263 instead of 15. The gain is small because what fails is counting tall stacks,
which a refit of the last layer barely moves. The real photos hold one position per board, so
there is no real-photo figure for learning from play.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

import numpy as np

from nardy_pi.vision.board.heads import Heads
from nardy_pi.vision.board.layout import BAR_LOWER, BAR_UPPER, SLOTS

MAX_FRAMES = 30  # the newest confirmed frames kept (26 strips each)
PULL = 0.3  # towards the calibration's heads (the module's note has the others tried)
MAX_DISAGREEING = 1 / 3  # share of occupied slots that may read otherwise than confirmed


def confirmed_slots(points: Sequence[int], bar: tuple[int, int]
                    ) -> tuple[np.ndarray, np.ndarray]:
    """A confirmed position as the reader's 26 signed slot counts, and which slots carry a
    label. The bar's halves are labelled only when the bar is empty: which half a checker on
    the bar lies in is not part of a position."""
    counts = np.zeros(SLOTS, int)
    counts[:24] = points
    labelled = np.ones(SLOTS, bool)
    if bar != (0, 0):
        labelled[[BAR_LOWER, BAR_UPPER]] = False
    return counts, labelled


class ConfirmedFrames:
    """The pool of confirmed frames of one board, and the heads refitted on it."""

    def __init__(self, base: Heads, max_frames: int = MAX_FRAMES) -> None:
        self.base = base  # the calibration's heads: what the refit is pulled towards
        self.heads = base
        self._frames: deque[tuple[np.ndarray, np.ndarray, np.ndarray]] = deque(
            maxlen=max_frames)
        self.learned = 0
        self.refused = 0

    def __len__(self) -> int:
        return len(self._frames)

    def add(self, embedding: np.ndarray, read: Sequence[int | None], counts: np.ndarray,
            use: np.ndarray) -> bool:
        """Learn one frame: its strips' embeddings, what was read from them, the confirmed
        signed counts and the slots to learn from. False (and nothing learned) when the
        reading disagrees on too many of them."""
        use = np.asarray(use, bool)
        if not use.any():
            return False
        # Judged on the slots holding checkers in either (empty points agree on any board)
        # and on whose checkers they are: a miscounted stack is what there is to learn, a
        # point read empty or of the other colour means another frame or a moved camera.
        held = [s for s in np.flatnonzero(use) if read[s] or counts[s]]
        wrong = sum(1 for s in held if np.sign(read[s] or 0) != np.sign(counts[s]))
        if wrong > MAX_DISAGREEING * len(held):
            self.refused += 1
            return False
        self._frames.append((np.asarray(embedding, np.float64), np.asarray(counts), use))
        e, c, u = (np.concatenate(parts) for parts in zip(*self._frames, strict=True))
        self.heads = self.base.fitted(e, c, u, PULL)
        self.learned += 1
        return True
