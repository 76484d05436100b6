"""Beliefs pooled over a camera's last few frames (vision/pooled_belief.py)."""

from __future__ import annotations

import numpy as np
import pytest

from nardy_pi.vision.pooled_belief import PooledBelief
from nardy_pi.vision.types import Observation

POINTS = (0,) * 24


def frame(p4: float, occluded: bool = False, probs: bool = True) -> Observation:
    """A frame whose reader gives point 5 a 4 with probability p4, else a 5."""
    table = np.zeros((26, 31))
    table[:, 15] = 1.0
    table[4, 15] = 0.0
    table[4, 19], table[4, 20] = p4, 1.0 - p4
    return Observation(POINTS, 0, 0, None, None, (), occluded=occluded,
                       point_probs=tuple(map(tuple, table.tolist())) if probs else None)


def p4(obs: Observation) -> float:
    return obs.point_probs[4][19]


def test_the_last_frames_are_averaged_and_no_more() -> None:
    pool = PooledBelief(frames=3)
    assert p4(pool(frame(0.9))) == pytest.approx(0.9)  # one frame: as read
    assert p4(pool(frame(0.3))) == pytest.approx(0.6)
    assert p4(pool(frame(0.3))) == pytest.approx(0.5)
    assert p4(pool(frame(0.0))) == pytest.approx(0.2)  # the first has left the pool
    assert len(pool) == 3
    assert np.allclose(np.sum(pool(frame(0.0)).point_probs, axis=1), 1.0)


def test_an_occluded_frame_or_one_without_beliefs_starts_the_pool_afresh() -> None:
    pool = PooledBelief(frames=3)
    pool(frame(0.9))
    hand = frame(0.5, occluded=True)
    assert pool(hand) is hand  # passed on untouched
    assert p4(pool(frame(0.1))) == pytest.approx(0.1)
    pool(frame(0.9))
    bare = frame(0.5, probs=False)  # the colour reader gives no probabilities
    assert pool(bare) is bare
    assert p4(pool(frame(0.1))) == pytest.approx(0.1)
    with pytest.raises(ValueError, match="at least one frame"):
        PooledBelief(frames=0)
