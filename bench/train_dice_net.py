"""Train the learned dice models (proposal + check nets) and ship them as ONNX.

    nice -n 10 python3 bench/train_dice_net.py [--renders 500] [--randomised 1500] [--seed 0]
        [--fine] [--write] [--photos DIR] [--boards DIR] [--cache DIR]
        [--folds [--fold-count N] [--fold K]]

Needs the `[train]` extra (CPU PyTorch, onnx). Seeded, one thread; the defaults reproduce the
shipped models (about 6 minutes a model here once the renders are cached; rendering them the
first time takes another 10 or more).
Training frames: renders in random board looks (dice_samples.random_style; the four named
styles and the randomised renderer's held-out styles are never trained on), the real dice
photos and the real board photos' boxed dice (when ../shared/data is present).
`--write` stores nardy_pi/vision/models/dice_heat.onnx and dice_check.onnx.
`--fine` trains the fine check net instead (dice_training_net.fine_check_net: EfficientNet-
Lite0's first blocks from ImageNet weights; the proposal net is trained again as ever, its
false peaks being the check net's negatives; about 30 minutes here): `--write` stores
dice_check_fine.onnx, `--folds` writes foldK_fine.onnx beside the plain run's fold models.
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from nardy_pi.vision.dice_crops import DIE_SIDE_UNITS  # noqa: E402
from nardy_pi.vision.dice_net import CHECK_MODEL, FINE_MODEL, HEAT_MODEL  # noqa: E402
from nardy_pi.vision.dice_samples import (  # noqa: E402
    Sample,
    board_photo_samples,
    dice_photo_samples,
    randomised_samples,
    rendered_samples,
    shrunk,
)

DEFAULT_PHOTOS = REPO.parent / "shared" / "data" / "dice-photos" / "train"
DEFAULT_BOARDS = REPO.parent / "shared" / "data" / "board-photos"
DEFAULT_CACHE = Path("/tmp/nardy_pi_dice_cache")
#: the fold models bench_dice_board.py reads, kept in the repo (a /tmp cache did not outlive
#: a session, and each retraining moves the figures by a seed's noise)
DICE_FOLDS = REPO / "bench" / "models" / "dice_folds"


def cached_renders(count: int, seed: int, cache: Path, named: bool = False) -> list[Sample]:
    """Rendered frames, kept on disk between runs (rendering is most of the time)."""
    path = cache / f"renders_{'named' if named else 'random'}_{count}_{seed}_u{DIE_SIDE_UNITS}.pkl"
    if path.exists():
        return pickle.loads(path.read_bytes())
    samples = [shrunk(s) for s in rendered_samples(count, seed, named_styles=named)]
    cache.mkdir(parents=True, exist_ok=True)
    path.write_bytes(pickle.dumps(samples))
    return samples


#: randomised frames are cached in chunks of this many (frame seeds seed + i), so a larger
#: count keeps the frames of a smaller one and renders only the rest
RANDOMISED_CHUNK = 500


def cached_randomised(count: int, seed: int, cache: Path) -> list[Sample]:
    """Frames of the domain-randomised renderer's train split (frame seeds seed ..
    seed + count - 1), kept on disk between runs."""
    samples: list[Sample] = []
    for start in range(0, count, RANDOMISED_CHUNK):
        n = min(RANDOMISED_CHUNK, count - start)
        path = cache / f"randomised_train_{n}_{seed + start}_u{DIE_SIDE_UNITS}.pkl"
        if path.exists():
            samples += pickle.loads(path.read_bytes())
            continue
        chunk = [shrunk(s) for s in randomised_samples(n, seed + start)]
        cache.mkdir(parents=True, exist_ok=True)
        path.write_bytes(pickle.dumps(chunk))
        samples += chunk
    return samples


def fold_of(group: str, count: int = 2) -> int:
    """Which of `count` grouped folds a photo's scene falls in (stable across runs)."""
    return sum(map(ord, group)) % count


def fold_count(folder: Path) -> int:
    """How many fold models `--folds` left in `folder` (folds.json; 2 without it)."""
    manifest = folder / "folds.json"
    if not manifest.is_file():
        return 2
    return int(json.loads(manifest.read_text())["folds"])


def board_samples(boards: Path) -> list[Sample]:
    """The board photos with dice: hand labels (values by eye, corners) when the photos
    engineer's labels are installed, else the upstream boxes (no values, scale from
    checkers)."""
    try:
        from nardy_pi.vision.dice_samples import labelled_board_photo_samples

        return [s for s, _ in labelled_board_photo_samples(boards)]
    except (ImportError, FileNotFoundError):
        return board_photo_samples(boards) if (boards / "labels").is_dir() else []


def real_samples(photos: Path, boards: Path) -> tuple[list[Sample], list[Sample]]:
    dice = dice_photo_samples(photos) if photos.is_dir() else []
    return [shrunk(s) for s in dice], [shrunk(s) for s in board_samples(boards)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--renders", type=int, default=500, help="old-renderer frames")
    parser.add_argument("--randomised", type=int, default=1500,
                        help="randomised-renderer frames (train split; 500 until 2026-12-07, "
                        "see bench_dice_board's notes)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--heat-steps", type=int, default=1200)
    parser.add_argument("--check-epochs", type=int, default=8)
    parser.add_argument("--check-widths", type=int, nargs=4, metavar="C",
                        help="the check net's three convolutions and its hidden layer "
                        "(default: dice_training_net.CHECK_WIDTHS)")
    parser.add_argument("--fine", action="store_true",
                        help="train the fine check net (Lite0 front end) instead of the plain")
    parser.add_argument("--board-repeat", type=int, default=6,
                        help="copies of each real board photo in the mix (each at its own "
                        "scale and jitter): a few dozen real boards against a thousand renders")
    parser.add_argument("--photos", type=Path, default=DEFAULT_PHOTOS)
    parser.add_argument("--boards", type=Path, default=DEFAULT_BOARDS)
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    parser.add_argument("--out", type=Path, help="with --folds: where the fold models go "
                        "(default: bench/models/dice_folds)")
    parser.add_argument("--write", action="store_true", help="store the ONNX models")
    parser.add_argument("--folds", action="store_true",
                        help="instead: fold models for bench/bench_dice_board.py, each "
                        "without one fold's real photos, grouped by board / scene")
    parser.add_argument("--fold-count", type=int, default=2,
                        help="with --folds: how many folds (grouped by board / scene)")
    parser.add_argument("--fold", type=int,
                        help="with --folds: only this fold (run several side by side)")
    args = parser.parse_args()
    if args.fold_count < 2:
        parser.error("--fold-count must be 2 or more")
    if args.fold is not None and not 0 <= args.fold < args.fold_count:
        parser.error(f"--fold must be 0..{args.fold_count - 1}")
    args.out = args.out or (DICE_FOLDS if args.folds else args.cache)
    try:
        from nardy_pi.vision.dice_training_net import CHECK_WIDTHS, export_onnx, train_nets
    except ImportError as exc:
        print(f"training needs the [train] extra (torch): {exc}", file=sys.stderr)
        return 2
    args.check_widths = args.check_widths or CHECK_WIDTHS
    t0 = time.perf_counter()
    renders = cached_renders(args.renders, args.seed, args.cache)
    try:
        renders += cached_randomised(args.randomised, 100_000, args.cache)
    except ImportError:
        print("randomised renderer not installed: old renderer only")
    dice, board = real_samples(args.photos, args.boards)
    board = board * args.board_repeat
    print(f"{len(renders)} renders, {len(dice)} dice photos, {len(board)} board photo copies "
          f"({time.perf_counter() - t0:.0f} s to load)")
    if args.folds:  # each fold model never sees the real photos of its fold
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "folds.json").write_text(json.dumps({"folds": args.fold_count}) + "\n")
        for k in range(args.fold_count) if args.fold is None else (args.fold,):
            kept = [s for s in [*dice, *board] if fold_of(s.group, args.fold_count) != k]
            heat, check = train_nets([*renders, *kept], args.seed + 10 * (k + 1),
                                     args.heat_steps, args.check_epochs, args.check_widths,
                                     args.fine)
            if args.fine:
                export_onnx(None, check, None, args.out / f"fold{k}_fine.onnx")
            else:
                export_onnx(heat, check, args.out / f"fold{k}_heat.onnx",
                            args.out / f"fold{k}_check.onnx")
            print(f"fold {k}: trained on {len(kept)} of {len(dice) + len(board)} real frames "
                  f"({time.perf_counter() - t0:.0f} s)")
        return 0
    heat, check = train_nets([*renders, *dice, *board], args.seed, args.heat_steps,
                             args.check_epochs, args.check_widths, args.fine)
    print(f"trained in {time.perf_counter() - t0:.0f} s")
    if args.write and args.fine:
        export_onnx(None, check, None, FINE_MODEL)
        print(f"wrote {FINE_MODEL.relative_to(REPO)} ({FINE_MODEL.stat().st_size} B)")
    elif args.write:
        export_onnx(heat, check, HEAT_MODEL, CHECK_MODEL)
        print(f"wrote {HEAT_MODEL.relative_to(REPO)} ({HEAT_MODEL.stat().st_size} B), "
              f"{CHECK_MODEL.relative_to(REPO)} ({CHECK_MODEL.stat().st_size} B)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
