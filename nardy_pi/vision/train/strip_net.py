"""The strip model (PyTorch side): a small CNN over one slot's strip.

Outputs: checker count 0..15, checker colour light/dark (meaningful when the count is not 0),
whether something that is neither board, checker nor die covers the strip, and the embedding
the heads read (calibration keeps per-board prototypes of it).

A `grey` net first averages the three colour channels (a fixed 1x1 convolution inside the
exported graph, so the reader feeds it the same strips): it must count by shape, rims and
shadows alone, and so errs on other strips than a colour model (a third opinion).
"""

from __future__ import annotations

import numpy as np
import torch
from torch import nn

from nardy_pi.vision.board.layout import STRIP_H, STRIP_W

EMBEDDING = 64
MAX_COUNT = 15
#: channels of the four convolutions (the shipped model's): 24-48-48-64 read held-out renders and
#: real photos better than 16-32-32-48 and cost 6.5 ms more per calibrated frame (bench notes)
WIDTHS = (24, 48, 48, 64)


def _block(cin: int, cout: int, stride: int = 1) -> list[nn.Module]:
    return [nn.Conv2d(cin, cout, 3, stride=stride, padding=1, bias=False), nn.BatchNorm2d(cout),
            nn.ReLU(inplace=True)]


def _grey_conv() -> nn.Conv2d:
    """4 -> 4 channels: each colour channel becomes their mean; the unknown mask passes."""
    conv = nn.Conv2d(4, 4, 1, bias=False)
    weight = torch.zeros(4, 4, 1, 1)
    weight[:3, :3] = 1.0 / 3.0
    weight[3, 3] = 1.0
    conv.weight.data.copy_(weight)
    conv.weight.requires_grad_(False)
    return conv


def _is_grey_conv(weight) -> bool:
    return tuple(weight.shape) == (4, 4, 1, 1)


class StripNet(nn.Module):
    def __init__(self, widths: tuple[int, int, int, int] = WIDTHS, grey: bool = False,
                 inputs: int = 4) -> None:
        """`inputs`: 4 (a strip: colour and unknown) or 8 (with its frame's reference,
        board/strips.with_context; not with `grey`)."""
        super().__init__()
        if inputs not in (4, 8) or (grey and inputs != 4):
            raise ValueError(f"a strip net reads 4 channels, or 8 in colour, not {inputs}")
        w1, w2, w3, w4 = widths
        self.grey = _grey_conv() if grey else None
        self.features = nn.Sequential(
            *_block(inputs, w1, stride=2),  # 64 x 16
            *_block(w1, w2, stride=2),  # 32 x 8
            *_block(w2, w3, stride=2),  # 16 x 4
            *_block(w3, w4), nn.MaxPool2d(2),  # 8 x 2
        )
        self._add_heads(w4)

    def _add_heads(self, last: int) -> None:
        """The embedding and heads over the front end's `last` channels at 8 x 2."""
        flat = last * (STRIP_H // 16) * (STRIP_W // 16)
        self.embed = nn.Sequential(nn.Flatten(), nn.Linear(flat, EMBEDDING), nn.ReLU(inplace=True))
        self.count = nn.Linear(EMBEDDING, MAX_COUNT + 1)
        self.colour = nn.Linear(EMBEDDING, 2)
        self.occluded = nn.Linear(EMBEDDING, 1)

    def forward(self, x: torch.Tensor):
        if self.grey is not None:
            x = self.grey(x)
        e = self.embed(self.features(x))
        return self.count(e), self.colour(e), self.occluded(e), e


def onnx_widths(path) -> tuple[int, ...]:
    """The convolution widths of an exported strip model (to build its PyTorch twin)."""
    return tuple(int(w.shape[0]) for w in _conv_weights(path)
                 if not _is_grey_conv(w))


def onnx_inputs(path) -> int:
    """The input channels of an exported strip model: 4, or 8 when it reads context."""
    weights = _conv_weights(path)
    return int(weights[0].shape[1]) if weights else 4


def onnx_lite(path) -> bool:
    """Whether an exported strip model is on Lite0's front end (train/lite_net.py): it has
    depthwise convolutions."""
    return any(w.shape[1] == 1 and w.shape[2] > 1 for w in _conv_weights(path))


def _conv_norm_pairs(features: nn.Module) -> list[tuple[nn.Conv2d, nn.BatchNorm2d]]:
    """Each convolution with the batch norm after it, in the order the ONNX graph runs them."""
    layers = [m for m in features.modules() if isinstance(m, (nn.Conv2d, nn.BatchNorm2d))]
    pairs = list(zip(layers[0::2], layers[1::2], strict=True))
    if not all(isinstance(c, nn.Conv2d) and isinstance(b, nn.BatchNorm2d) for c, b in pairs):
        raise ValueError("every convolution of a strip model is followed by its norm")
    return pairs


def onnx_grey(path) -> bool:
    """Whether an exported strip model averages the colour channels first (`grey`)."""
    weights = _conv_weights(path)
    return bool(weights) and _is_grey_conv(weights[0])


def _conv_weights(path) -> list:
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(path)).graph
    weights = {i.name: i for i in graph.initializer}
    return [numpy_helper.to_array(weights[n.input[1]])
            for n in graph.node if n.op_type == "Conv"]


def load_onnx(net: StripNet, path, in_colour: bool = False) -> StripNet:
    """Start from an exported model: its convolutions carry the batch norms folded in, so each
    norm becomes the identity plus the folded bias (keep norms in eval mode when fine-tuning).
    `in_colour`: a grey model loads into a colour net (grey=False) computing the same outputs,
    so that fine-tuning can learn colour on top of what it learnt from shape."""
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(path)).graph
    weights = {i.name: numpy_helper.to_array(i).copy() for i in graph.initializer}
    convs = [n for n in graph.node if n.op_type == "Conv"]
    if convs and _is_grey_conv(weights[convs[0].input[1]]):
        if net.grey is None and not in_colour:
            raise ValueError(f"{path} is a grey strip model: build StripNet(grey=True)")
        grey, convs = weights[convs[0].input[1]][:, :, 0, 0], convs[1:]
        if net.grey is None:  # the averaging folded into the first convolution: same outputs
            first = convs[0].input[1]
            weights[first] = np.einsum("okyx,kc->ocyx", weights[first], grey)
    elif net.grey is not None:
        raise ValueError(f"{path} is a colour strip model: build StripNet(grey=False)")
    gemms = [n for n in graph.node if n.op_type == "Gemm"]
    pairs = _conv_norm_pairs(net.features)
    shapes = [tuple(weights[n.input[1]].shape) for n in convs]
    if (len(gemms) != 4 or len(convs) != len(pairs)
            or shapes != [tuple(conv.weight.shape) for conv, _ in pairs]):
        raise ValueError(f"{path} is not a strip model of this shape")
    with torch.no_grad():
        for node, (conv, norm) in zip(convs, pairs, strict=True):
            w, b = weights[node.input[1]], weights[node.input[2]]
            conv.weight.copy_(torch.from_numpy(w))
            norm.weight.fill_(1.0)
            norm.bias.copy_(torch.from_numpy(b))
            norm.running_mean.zero_()
            norm.running_var.fill_(1.0 - norm.eps)
        for node, layer in zip(gemms, (net.embed[1], net.count, net.colour, net.occluded),
                               strict=True):
            layer.weight.copy_(torch.from_numpy(weights[node.input[1]]))
            layer.bias.copy_(torch.from_numpy(weights[node.input[2]]))
    return net
