"""Training the dice proposal net (vision/dice_training_net.py, the `[train]` extra): a short
seeded run on a few renders must already put dice centres among its strongest peaks.

The first proposal net trained flat (no normalisation, a final bias at 0): after 600 steps a
die's centre scored no higher than empty board, so real board dice were never proposed. This
run is a few seconds of CPU and fails the same way if that comes back."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="training needs the [train] extra (torch)")

from nardy_pi.vision.dice_samples import rendered_samples, shrunk  # noqa: E402
from nardy_pi.vision.dice_training_net import _heat_peaks, heat_net, train_heat  # noqa: E402


def _recall(net, samples) -> float:
    hit = total = 0
    for s in samples:
        peaks = _heat_peaks(net, s, limit=8)
        for t in s.things:
            total += 1
            hit += bool(len(peaks)) and np.hypot(*(peaks - (t.x, t.y)).T).min() < 0.7 * s.die_px
    return hit / max(total, 1)


def test_a_short_run_proposes_the_dice_an_untrained_net_does_not() -> None:
    torch.set_num_threads(1)
    samples = [shrunk(s) for s in rendered_samples(24, seed=5, sizes=((640, 480),))]
    train, held = samples[:18], samples[18:]
    assert sum(len(s.things) for s in held) >= 6
    torch.manual_seed(0)
    untrained = heat_net().eval()
    net = train_heat(train, seed=0, steps=250, batch=16)
    assert _recall(net, held) >= 0.6
    assert _recall(net, held) > _recall(untrained, held) + 0.3
