"""Training the learned dice models with PyTorch on CPU (the `[train]` extra); never at runtime.

`train_nets(samples, seed)` fits the proposal net and the check net on dice_samples.Samples and
returns them as torch modules; `export_onnx` writes them for dice_net.py. The check net's
negatives include the proposal net's own false peaks, so it learns exactly the mistakes it
will be shown. Dice whose value is not labelled (board photos) teach "some die" only: their
loss is the log of the summed die probabilities.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import torch
from torch import nn

from nardy_pi.vision.dice_crops import (
    CLASSES,
    COCKED,
    CROP_PX,
    HEAT_STRIDE,
    cut_crops,
    heat_image,
    image_to_cell,
)
from nardy_pi.vision.dice_samples import UNKNOWN_VALUE, Sample
from nardy_pi.vision.train.lite_net import (
    LITE_BLOCKS,
    imagenet_weights,
    lite_front,
    load_lite_front,
)

PATCH = 64  # proposal-net training window, scaled pixels
_SIGMA_CELLS = 1.0


def heat_net() -> nn.Module:
    # The last dilated layer sees ~5 die sides: enough to tell a die from a checker's rim, a
    # point's tip or a watermark letter, which the 2.5-die view of the first net could not.
    # Batch norm (folded into the convolutions on export) and a final bias at the prior of a
    # centre (CenterNet's -2.19 is for far denser objects): without them the net spent its
    # steps pushing every cell down and ended flat, a die's centre no higher than the board.
    net = nn.Sequential(
        nn.Conv2d(3, 12, 3, stride=2, padding=1), nn.BatchNorm2d(12), nn.ReLU(),
        nn.Conv2d(12, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
        nn.Conv2d(16, 16, 3, padding=2, dilation=2), nn.BatchNorm2d(16), nn.ReLU(),
        nn.Conv2d(16, 16, 3, padding=4, dilation=4), nn.BatchNorm2d(16), nn.ReLU(),
        nn.Conv2d(16, 2, 1),
    )
    nn.init.constant_(net[-1].bias, -4.6)
    return net


CHECK_WIDTHS = (10, 16, 24, 48)  # three convolutions' channels, then the hidden layer


def check_net(widths: Sequence[int] = CHECK_WIDTHS) -> nn.Module:
    c1, c2, c3, hidden = widths
    return nn.Sequential(
        nn.Conv2d(3, c1, 3, padding=1), nn.BatchNorm2d(c1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(c1, c2, 3, padding=1), nn.BatchNorm2d(c2), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(c2, c3, 3, padding=1), nn.BatchNorm2d(c3), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(c3 * (CROP_PX // 8) ** 2, hidden), nn.ReLU(),
        nn.Linear(hidden, len(CLASSES)),
    )


def fine_check_net() -> nn.Module:
    """The fine check net (dice_board.checked reads with it what the plain one lets through):
    EfficientNet-Lite0's stem and first five blocks started from their ImageNet weights
    (train/lite_net.py), then the plain net's hidden layer. Filters learnt on photographs
    read real dice on boards never trained on better than ours learnt from renders (bench/
    bench_dice_board.py, 2026-12-07); they cost about four times as much a crop."""
    hidden = CHECK_WIDTHS[3]
    net = nn.Sequential(
        *lite_front(3),  # 32 -> 4 px, 40 channels
        nn.Flatten(), nn.Linear(LITE_BLOCKS[-1][1] * (CROP_PX // 8) ** 2, hidden), nn.ReLU(),
        nn.Linear(hidden, len(CLASSES)),
    )
    load_lite_front(net, imagenet_weights(), 2.0)  # crops are BGR in -0.5..0.5
    return net


def _log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", flush=True)


# --- proposal net -----------------------------------------------------------------------------

def _heat_item(sample: Sample, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """One scaled frame (uint8 HxWx3) and its target maps (2, H/2, W/2), scale jittered."""
    small, factor = heat_image(sample.image, sample.die_px * float(rng.uniform(0.7, 1.4)))
    h, w = small.shape[0] // HEAT_STRIDE, small.shape[1] // HEAT_STRIDE
    target = np.zeros((2, h, w), np.float32)
    ys, xs = np.mgrid[0:h, 0:w]
    for t in sample.things:
        cx, cy = image_to_cell(np.array([t.x, t.y]), factor)
        # Centred on the nearest cell, so that cell's target is exactly 1 (a focal-loss peak).
        ix, iy = round(cx), round(cy)
        blob = np.exp(-((xs - ix) ** 2 + (ys - iy) ** 2) / (2 * _SIGMA_CELLS**2))
        channel = 1 if t.is_cube else 0
        target[channel] = np.maximum(target[channel], blob)
    return small, target


def _patch(small: np.ndarray, target: np.ndarray, rng: np.random.Generator):
    """A PATCH-square window (padded by edge copies when the frame is smaller). Half the
    windows hold an object: a frame is mostly empty board, and a window without a die
    teaches nothing about dice."""
    pad_y, pad_x = max(0, PATCH - small.shape[0]), max(0, PATCH - small.shape[1])
    if pad_y or pad_x:
        small = np.pad(small, ((0, pad_y), (0, pad_x), (0, 0)), mode="edge")
        target = np.pad(target, ((0, 0), (0, pad_y // HEAT_STRIDE), (0, pad_x // HEAT_STRIDE)))
    peaks = np.argwhere(target.max(axis=0) >= 0.999)
    if len(peaks) and rng.random() < 0.5:
        cy, cx = peaks[int(rng.integers(len(peaks)))] * HEAT_STRIDE
        y = int(np.clip(cy - rng.integers(8, PATCH - 8), 0, small.shape[0] - PATCH))
        x = int(np.clip(cx - rng.integers(8, PATCH - 8), 0, small.shape[1] - PATCH))
    else:
        y = int(rng.integers(0, small.shape[0] - PATCH + 1))
        x = int(rng.integers(0, small.shape[1] - PATCH + 1))
    y, x = y // HEAT_STRIDE * HEAT_STRIDE, x // HEAT_STRIDE * HEAT_STRIDE
    c, cy, cx = PATCH // HEAT_STRIDE, y // HEAT_STRIDE, x // HEAT_STRIDE
    return small[y : y + PATCH, x : x + PATCH], target[:, cy : cy + c, cx : cx + c]


def _photometric(x: torch.Tensor, gen: torch.Generator) -> torch.Tensor:
    """Light, white balance and noise jitter on a batch in [-0.5, 0.5]."""
    n = x.shape[0]
    gain = 0.7 + 0.6 * torch.rand(n, 1, 1, 1, generator=gen)
    tint = 0.9 + 0.2 * torch.rand(n, 3, 1, 1, generator=gen)
    bias = 0.15 * (torch.rand(n, 1, 1, 1, generator=gen) - 0.5)
    noise = 0.03 * torch.rand(n, 1, 1, 1, generator=gen) * torch.randn(x.shape, generator=gen)
    x = (((x + 0.5) * gain * tint + bias + noise) - 0.5).clamp(-0.5, 0.5)
    # Some real board photos are greyscale copies: colour must not be what finds a die.
    grey = torch.rand(n, generator=gen) < 0.15
    x[grey] = x[grey].mean(dim=1, keepdim=True).expand(-1, 3, -1, -1)
    return x


def _to_tensor(images: np.ndarray) -> torch.Tensor:
    return torch.from_numpy(images.transpose(0, 3, 1, 2).astype(np.float32) / 255.0 - 0.5)


def _focal_loss(logits: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """CenterNet's penalty-reduced focal loss: the cell at each centre (target 1) must fire,
    cells near it are punished less the nearer they are, and easy background counts little
    (a frame is nearly all background)."""
    p = torch.sigmoid(logits).clamp(1e-4, 1 - 1e-4)
    peak = target >= 0.999
    pos = -((1 - p) ** 2 * torch.log(p))[peak].sum()
    neg = -(((1 - target) ** 4) * p**2 * torch.log(1 - p))[~peak].sum()
    return (pos + neg) / peak.sum().clamp(min=1)


def train_heat(samples: Sequence[Sample], seed: int, steps: int = 1500,
               batch: int = 32) -> nn.Module:
    rng = np.random.default_rng(seed)
    gen = torch.Generator().manual_seed(seed)
    torch.manual_seed(seed)
    frames = [_heat_item(s, rng) for s in samples for _ in range(2)]
    net = heat_net()
    opt = torch.optim.Adam(net.parameters(), lr=3e-3)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    for step in range(steps):
        picks = rng.integers(0, len(frames), batch)
        pairs = [_patch(*frames[int(i)], rng) for i in picks]
        x = _photometric(_to_tensor(np.stack([p[0] for p in pairs])), gen)
        y = torch.from_numpy(np.stack([p[1] for p in pairs]))
        if rng.random() < 0.5:
            x, y = x.flip(3), y.flip(3)
        if rng.random() < 0.5:  # boards are photographed from either side and turned
            x, y = x.transpose(2, 3), y.transpose(2, 3)
        loss = _focal_loss(net(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 300 == 0 or step == steps - 1:
            _log(f"proposal net step {step}: loss {loss.item():.4f}")
    return net.eval()


# --- check net --------------------------------------------------------------------------------

def _heat_peaks(net: nn.Module, sample: Sample, limit: int = 24) -> np.ndarray:
    """Image positions of the proposal net's strongest peaks (as dice_board.proposals)."""
    small, factor = heat_image(sample.image, sample.die_px)
    with torch.no_grad():
        m = net(_to_tensor(small[None]))[0].max(dim=0).values
    pooled = nn.functional.max_pool2d(m[None, None], 3, 1, 1)[0, 0]
    ys, xs = torch.nonzero((m == pooled) & (m > -2.0), as_tuple=True)
    if len(xs) == 0:
        return np.zeros((0, 2))
    order = torch.argsort(m[ys, xs], descending=True)[:limit]
    cells = np.column_stack([xs[order].numpy(), ys[order].numpy()]).astype(np.float64)
    return (cells * HEAT_STRIDE + 0.5) / factor - 0.5


def check_examples(samples: Sequence[Sample], heat: nn.Module | None, seed: int,
                   jitters: int = 4, randoms: int = 12) -> tuple[np.ndarray, np.ndarray]:
    """Crops (N, CROP_PX, CROP_PX, 3) and class targets (UNKNOWN_VALUE: some die, value unknown)."""
    rng = np.random.default_rng(seed)
    crops, targets = [], []
    for s in samples:
        die = s.die_px * float(rng.uniform(0.7, 1.4))
        things = np.array([(t.x, t.y) for t in s.things]).reshape(-1, 2)
        spots, cls = [], []
        for t in s.things:
            for _ in range(jitters):
                dx, dy = rng.uniform(-0.3, 0.3, 2) * die
                spots.append((t.x + dx, t.y + dy))
                cls.append(t.cls)
        h, w = s.image.shape[:2]
        negatives = [(rng.uniform(0, w), rng.uniform(0, h)) for _ in range(randoms)]
        for t in s.things:  # just beside an object: half a die and a bit of another in view
            a, r = rng.uniform(0, 2 * np.pi), rng.uniform(1.1, 1.8) * die
            negatives.append((t.x + r * np.cos(a), t.y + r * np.sin(a)))
        if heat is not None:
            negatives.extend(map(tuple, _heat_peaks(heat, s)))
        for x, y in negatives:
            if len(things) and np.hypot(*(things - (x, y)).T).min() < 0.9 * die:
                continue
            spots.append((x, y))
            cls.append(0)
        if spots:
            crops.append(cut_crops(s.image, die, np.array(spots)))
            targets.extend(cls)
    return np.concatenate(crops), np.array(targets)


def _check_loss(logits: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    logp = nn.functional.log_softmax(logits, dim=1)
    known = target >= 0
    loss = torch.zeros(())
    if known.any():
        loss = loss + nn.functional.nll_loss(logp[known], target[known], reduction="sum")
    unknown = ~known
    if unknown.any():  # a die, face not labelled: any die class (flat or cocked)
        some_die = torch.logsumexp(logp[unknown][:, 1 : COCKED + 1], dim=1)
        loss = loss - some_die.sum()
    return loss / len(target)


def train_check(crops: np.ndarray, targets: np.ndarray, seed: int, epochs: int = 10,
                batch: int = 256, widths: Sequence[int] = CHECK_WIDTHS,
                fine: bool = False) -> nn.Module:
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    rng = np.random.default_rng(seed)
    net = fine_check_net() if fine else check_net(widths)
    steps = epochs * ((len(crops) + batch - 1) // batch)
    opt = torch.optim.Adam(net.parameters(), lr=3e-3, weight_decay=1e-5)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    x_all = _to_tensor(crops)
    y_all = torch.from_numpy(targets.astype(np.int64))
    is_cube = y_all >= CLASSES.index("cube2")
    step = 0
    for epoch in range(epochs):
        order = torch.from_numpy(rng.permutation(len(crops)))
        total = 0.0
        for k in range(0, len(order), batch):
            idx = order[k : k + batch]
            x, y = _photometric(x_all[idx], gen), y_all[idx]
            # Dice look alike in every orientation; the cube's printed number does not.
            flip = torch.rand(len(idx), generator=gen) < 0.5
            flip &= ~is_cube[idx]
            x[flip] = x[flip].flip(3)
            turn = (torch.rand(len(idx), generator=gen) < 0.5) & ~is_cube[idx]
            x[turn] = x[turn].transpose(2, 3)
            loss = _check_loss(net(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            step += 1
            total += loss.item() * len(idx)
        _log(f"check net epoch {epoch}: loss {total / len(crops):.4f}")
    return net.eval()


def train_nets(samples: Sequence[Sample], seed: int = 0, heat_steps: int = 1500,
               check_epochs: int = 10, check_widths: Sequence[int] = CHECK_WIDTHS,
               fine: bool = False) -> tuple[nn.Module, nn.Module]:
    """The proposal net and the check net (`fine`: the fine check net instead; the proposal
    net is trained all the same, its false peaks being the check net's hardest negatives)."""
    # One thread: on a shared machine two threads of tiny convolutions mostly wait on each
    # other (measured 3x slower per step under load).
    torch.set_num_threads(1)
    _log(f"training on {len(samples)} frames, {sum(len(s.things) for s in samples)} objects")
    heat = train_heat(samples, seed, heat_steps)
    crops, targets = check_examples(samples, heat, seed + 1)
    _log(f"check net: {len(crops)} crops, {int((targets != 0).sum())} of objects")
    check = train_check(crops, targets, seed + 2, check_epochs, widths=check_widths, fine=fine)
    return heat, check


def export_onnx(heat: nn.Module | None, check: nn.Module, heat_path: Path | None,
                check_path: Path) -> None:
    """Both nets to ONNX; `heat` None: the check net alone (a fine check net)."""
    check_path.parent.mkdir(parents=True, exist_ok=True)
    if heat is not None and heat_path is not None:
        torch.onnx.export(heat, torch.zeros(1, 3, 96, 128), str(heat_path), opset_version=17,
                          input_names=["image"], output_names=["heat"],
                          dynamic_axes={"image": {2: "h", 3: "w"}}, dynamo=False)
    torch.onnx.export(check, torch.zeros(1, 3, CROP_PX, CROP_PX), str(check_path),
                      opset_version=17, input_names=["crops"], output_names=["logits"],
                      dynamic_axes={"crops": {0: "n"}}, dynamo=False)


__all__ = ["UNKNOWN_VALUE", "export_onnx", "train_nets"]
