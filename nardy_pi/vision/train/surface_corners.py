"""Train the surface corner model (board/corner_finder.py) and export it to ONNX.

    python -m nardy_pi.vision.train.surface_corners --cache /tmp/corners
        # renders of the randomised renderer (train split), then every real photo
        # -> nardy_pi/vision/models/surface_corners.onnx (about 25 min on 2 cores)
    python -m nardy_pi.vision.train.surface_corners --cache /tmp/corners \
        --lobo bench/models/surface_folds
        # the same base, fine-tuned once per fold of photo boards without that fold's boards:
        # the fold models bench/bench_find_surface.py scores the photos with

Data: each rendered frame (random board set, camera tilt, framing) gives two copies, each cut
to a random window (so the surface often leaves the picture, as in close phone photos), turned
by a quarter turn at random plus a few degrees, and shaken photometrically like the strip
model's (strip_data.shake). The photos (../shared/data/board-photos, labelled corners) give
shaken copies too. Targets: the four corners in the picture's clockwise order from its
top-left (corner_finder.picture_order), and whether the bar runs up the picture (a second
head, trained alongside; at run time the point pattern decides that). Seeded.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from nardy_pi.vision.board.corner_finder import (
    CANVAS,
    MODEL,
    STRIDE,
    picture_order,
    picture_to_canvas,
    to_canvas,
)

#: the shipped recipe: rendered frames (two copies each) and base steps; then the photos'
#: fine-tune (copies per photo, steps, learning rate)
RECIPE = {"frames": 5000, "steps": 2500, "lr": 2e-3, "photo_copies": 24,
          "photo_steps": 800, "photo_lr": 5e-4, "batch": 48}


def shaken_copy(image: np.ndarray, corners, rng: np.random.Generator
                ) -> tuple[np.ndarray, np.ndarray]:
    """A random window of the picture (60-100% of it), turned by quarter turns and a few
    degrees, shaken photometrically; the corners follow."""
    from nardy_pi.vision.train.strip_data import shake

    h, w = image.shape[:2]
    zoom = rng.uniform(0.6, 1.0) if rng.random() < 0.6 else 1.0
    cw, ch = w * zoom, h * zoom
    x0, y0 = rng.uniform(0, w - cw), rng.uniform(0, h - ch)
    angle = float(rng.choice([0, 90, 180, 270]) + rng.normal(0, 4))
    centre = (x0 + cw / 2, y0 + ch / 2)
    m = cv2.getRotationMatrix2D(centre, angle, 1.0)
    cos, sin = abs(np.cos(np.radians(angle))), abs(np.sin(np.radians(angle)))
    ow, oh = int(cw * cos + ch * sin), int(cw * sin + ch * cos)
    m[0, 2] += ow / 2 - centre[0]
    m[1, 2] += oh / 2 - centre[1]
    fill = tuple(int(v) for v in rng.integers(0, 256, 3)) if rng.random() < 0.5 else (0, 0, 0)
    border = cv2.BORDER_REFLECT if rng.random() < 0.5 else cv2.BORDER_CONSTANT
    out = cv2.warpAffine(image, m, (max(ow, 8), max(oh, 8)), flags=cv2.INTER_LINEAR,
                         borderMode=border, borderValue=fill)
    moved = np.c_[np.asarray(corners, np.float64), np.ones(4)] @ m.T
    return shake(out, rng), moved


def sample(image: np.ndarray, corners, rng: np.random.Generator | None
           ) -> tuple[np.ndarray, np.ndarray, int]:
    """(canvas, corners in canvas px in picture order, bar upright 1/0); `rng` None: as is."""
    if rng is not None:
        image, corners = shaken_copy(image, corners, rng)
    canvas, place = to_canvas(image)
    ordered, order = picture_order(picture_to_canvas(np.asarray(corners), place))
    # physical corners run top_left, top_right, ...: the bar runs up the picture when the
    # picture's first corner is the physical top_left or bottom_right
    return canvas, ordered.astype(np.float32), int(order[0] % 2 == 0)


class Samples:
    def __init__(self, n: int) -> None:
        self.x = np.zeros((n, CANVAS, CANVAS, 3), np.uint8)
        self.y = np.zeros((n, 4, 2), np.float32)
        self.up = np.zeros(n, np.float32)
        self.n = 0

    def add(self, item: tuple[np.ndarray, np.ndarray, int]) -> None:
        self.x[self.n], self.y[self.n], self.up[self.n] = item
        self.n += 1

    def save(self, path: Path) -> None:
        np.savez(path, x=self.x[: self.n], y=self.y[: self.n], up=self.up[: self.n])

    @classmethod
    def load(cls, path: Path) -> Samples:
        d = np.load(path)
        out = cls(0)
        out.x, out.y, out.up = d["x"], d["y"], d["up"]
        out.n = len(out.x)
        return out


def render_samples(frames: int, seed: int, cache: Path | None) -> Samples:
    from nardy_pi.vision.render.randomised import render_random

    path = None if cache is None else cache / f"corners-render-{frames}-{seed}.npz"
    if path is not None and path.exists():
        return Samples.load(path)
    rng = np.random.default_rng(seed)
    out = Samples(2 * frames)
    start = time.time()
    for k in range(frames):
        size = (320, 240) if rng.random() < 0.7 else (240, 320)
        shot = render_random(200_000 + seed * 100_000 + k, split="train", size=size)
        for _ in range(2):
            out.add(sample(shot.image, shot.truth.corners, rng))
        if k % max(1, frames // 10) == 0:
            print(f"rendered {k}/{frames} ({time.time() - start:.0f}s)", flush=True)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        out.save(path)
    return out


def photo_samples(copies: int, seed: int, boards: set[str] | None) -> Samples:
    """Shaken copies of the checked photos (of `boards` only, when given)."""
    from nardy_pi.vision.train.board_photos import load_board_photos, read_image

    labels = [lab for lab in load_board_photos() if lab.checked
              and (boards is None or lab.board in boards)]
    rng = np.random.default_rng(seed)
    out = Samples(len(labels) * copies)
    for lab in labels:
        image = read_image(lab)
        for _ in range(copies):
            out.add(sample(image, lab.corners, rng))
    return out


def build_net():
    import torch
    import torch.nn.functional as F
    from torch import nn

    def block(cin: int, cout: int, stride: int = 1, dilation: int = 1) -> nn.Module:
        return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, padding=dilation,
                                       dilation=dilation, bias=False),
                             nn.BatchNorm2d(cout), nn.ReLU(inplace=True))

    class CornerNet(nn.Module):
        """A small U-net: down to 1/16 (the whole board in view), up to 1/4 for the maps."""

        def __init__(self) -> None:
            super().__init__()
            self.e1 = nn.Sequential(block(3, 16, 2), block(16, 16))
            self.e2 = nn.Sequential(block(16, 32, 2), block(32, 32))
            self.e3 = nn.Sequential(block(32, 48, 2), block(48, 48))
            self.e4 = nn.Sequential(block(48, 64, 2), block(64, 64, dilation=2),
                                    block(64, 64, dilation=4))
            self.d3 = block(64 + 48, 48)
            self.d2 = block(48 + 32, 32)
            self.heat = nn.Conv2d(32, 4, 1)
            self.upright = nn.Linear(64, 1)

        def forward(self, x):
            x2 = self.e2(self.e1(x))
            x3 = self.e3(x2)
            x4 = self.e4(x3)
            y = self.d3(torch.cat([F.interpolate(x4, scale_factor=2.0, mode="nearest"), x3], 1))
            y = self.d2(torch.cat([F.interpolate(y, scale_factor=2.0, mode="nearest"), x2], 1))
            return self.heat(y), self.upright(x4.mean((2, 3)))

    return CornerNet()


def train(net, data: Samples, steps: int, lr: float, batch: int, seed: int):
    """Soft-argmax corners against the truth (L1), each map against a small Gaussian at its
    corner (when inside the canvas), and the bar's direction."""
    import torch
    import torch.nn.functional as F

    torch.manual_seed(seed)
    x_all, y_all = torch.from_numpy(data.x), torch.from_numpy(data.y)
    up_all = torch.from_numpy(data.up)
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps)
    cells = CANVAS // STRIDE
    centres = (torch.arange(cells, dtype=torch.float32) + 0.5) * STRIDE - 0.5
    gy, gx = torch.meshgrid(centres, centres, indexing="ij")
    gen = torch.Generator().manual_seed(seed)
    net.train()
    start = time.time()
    for step in range(steps):
        idx = torch.randint(0, len(x_all), (batch,), generator=gen)
        x = x_all[idx].permute(0, 3, 1, 2).float() / 255.0 - 0.5
        y, up = y_all[idx], up_all[idx]
        heat, up_logit = net(x)
        log_p = torch.log_softmax(heat.flatten(2), -1).reshape_as(heat)
        p = log_p.exp()
        pos = torch.stack([(p.sum(2) * centres).sum(-1), (p.sum(3) * centres).sum(-1)], -1)
        l1 = (pos - y).abs().mean() / CANVAS
        d2 = ((gx[None, None] - y[..., 0, None, None]) ** 2
              + (gy[None, None] - y[..., 1, None, None]) ** 2)
        target = torch.exp(-d2 / (2 * (1.5 * STRIDE) ** 2))
        target = target / target.sum((2, 3), keepdim=True).clamp_min(1e-6)
        inside = ((y >= 0) & (y < CANVAS)).all(-1).float()
        ce = (-(target * log_p).sum((2, 3)) * inside).mean()
        bar = F.binary_cross_entropy_with_logits(up_logit[:, 0], up)
        loss = 10 * l1 + 0.1 * ce + 0.2 * bar
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % max(1, steps // 20) == 0 or step == steps - 1:
            print(f"step {step + 1}/{steps} corner error {l1.item() * CANVAS:.2f} px "
                  f"bar {bar.item():.3f} ({time.time() - start:.0f}s)", flush=True)
    net.eval()
    return net


def export(net, path: Path) -> None:
    import torch

    path.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(net, torch.zeros(1, 3, CANVAS, CANVAS), str(path), input_names=["canvas"],
                      output_names=["heat", "upright"], opset_version=13, dynamo=False)


def concat(parts: list[Samples]) -> Samples:
    out = Samples(0)
    out.x = np.concatenate([p.x[: p.n] for p in parts])
    out.y = np.concatenate([p.y[: p.n] for p in parts])
    out.up = np.concatenate([p.up[: p.n] for p in parts])
    out.n = len(out.x)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--smoke", action="store_true", help="a few frames and steps (CI)")
    p.add_argument("--frames", type=int, default=RECIPE["frames"])
    p.add_argument("--steps", type=int, default=RECIPE["steps"])
    p.add_argument("--photo-steps", type=int, default=RECIPE["photo_steps"])
    p.add_argument("--photo-copies", type=int, default=RECIPE["photo_copies"])
    p.add_argument("--no-photos", action="store_true", help="renders only")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--out", type=Path, default=MODEL)
    p.add_argument("--cache", type=Path, default=None,
                   help="keep the rendered samples and the base model here")
    p.add_argument("--lobo", type=Path, default=None, metavar="DIR",
                   help="instead of the shipped model: one model per fold of photo boards, "
                   "each fine-tuned without its fold (DIR/fold<K>.onnx, DIR/folds.json)")
    p.add_argument("--folds", type=int, default=2)
    args = p.parse_args(argv)
    try:
        import torch
    except ImportError:
        print("PyTorch is not installed: pip install -e '.[train]'", file=sys.stderr)
        return 2
    torch.set_num_threads(args.threads)
    if args.smoke:
        args.frames, args.steps, args.photo_steps, args.no_photos = 6, 3, 0, True
    base_path = None if args.cache is None else (
        args.cache / f"corners-base-{args.frames}-{args.steps}-{args.seed}.pt")
    net = build_net()
    if base_path is not None and base_path.exists():
        net.load_state_dict(torch.load(base_path))
        print(f"base model from {base_path}")
    else:
        renders = render_samples(args.frames, args.seed, args.cache)
        train(net, renders, args.steps, RECIPE["lr"], RECIPE["batch"], args.seed)
        if base_path is not None:
            torch.save(net.state_dict(), base_path)
    if args.no_photos or args.photo_steps == 0:
        export(net, args.out)
        print(f"wrote {args.out}")
        return 0
    from nardy_pi.vision.train.board_photos import board_folds, load_board_photos

    renders = render_samples(args.frames, args.seed, args.cache)
    keep = renders.n // 2  # renders beside the photos, against forgetting

    def fine_tuned(boards: set[str] | None, seed: int):
        part = Samples(0)
        part.x, part.y, part.up, part.n = (renders.x[:keep], renders.y[:keep],
                                           renders.up[:keep], keep)
        data = concat([photo_samples(args.photo_copies, seed, boards), part])
        tuned = build_net()
        tuned.load_state_dict(net.state_dict())
        return train(tuned, data, args.photo_steps, RECIPE["photo_lr"], RECIPE["batch"], seed)

    if args.lobo is None:
        export(fine_tuned(None, args.seed + 1), args.out)
        print(f"wrote {args.out}")
        return 0
    labels = [lab for lab in load_board_photos() if lab.checked]
    folds = board_folds(labels, args.folds)
    args.lobo.mkdir(parents=True, exist_ok=True)
    every = {lab.board for lab in labels}
    for k, fold in enumerate(folds):
        held = set(fold.test_boards)
        export(fine_tuned(every - held, args.seed + 1 + k), args.lobo / f"fold{k}.onnx")
    (args.lobo / "folds.json").write_text(
        json.dumps({"folds": [list(f.test_boards) for f in folds]}, indent=1) + "\n")
    print(f"wrote {len(folds)} fold models to {args.lobo}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
