"""Dice reader figures: real photos (held-out and shipped model), rendered boards, speed.

    python3 bench/bench_dice_photos.py [--photos DIR] [--folds 5] [--renders 60]

Real photos: per-die value accuracy (a missed die counts as wrong), per face, missed dice,
phantom dice. The held-out figure is k-fold by photo (models refitted without the photos they
read); the shipped model was fitted on all photos, so its figure here is optimistic and shown
only for comparison. Rendered boards (nardy_pi.vision.render): value and flat/cocked accuracy,
misses and phantoms at 1280x960 and 640x480. Speed: milliseconds per frame, median.
Nothing is asserted; the figures are printed.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from train_dice_model import DEFAULT_PHOTOS, report  # noqa: E402

from nardy_pi.vision.dice import find_dice  # noqa: E402
from nardy_pi.vision.dice_labels import labelled_photos  # noqa: E402
from nardy_pi.vision.dice_training import cross_validate, evaluate  # noqa: E402


def bench_photos(photo_dir: Path, folds: int) -> list[np.ndarray]:
    photos = labelled_photos(photo_dir)
    images = [cv2.imread(str(p.image_path)) for p in photos]
    print(f"== real photos: {len(photos)} photos, {sum(len(p.labels) for p in photos)} dice "
          f"({photo_dir})")
    report(f"held-out, {folds}-fold by photo (THE figure)",
           cross_validate(photos, images, folds=folds))
    report("shipped model on the photos it was fitted on (optimistic)", evaluate(photos, images))
    return images


def bench_speed(images: list[np.ndarray]) -> None:
    """Wall-clock and CPU time per frame: on a busy machine the CPU figure is the steadier."""
    print("== speed (median ms per frame, this machine)")
    for width, height in ((640, 480), (1280, 960)):
        frames = [cv2.resize(im, (width, height)) for im in images[:80]]
        find_dice(frames[0])
        wall, cpu = [], []
        for frame in frames:
            t0, c0 = time.perf_counter(), time.process_time()
            find_dice(frame)
            wall.append(1000 * (time.perf_counter() - t0))
            cpu.append(1000 * (time.process_time() - c0))
        print(f"  {width}x{height}: {statistics.median(wall):.1f} ms wall "
              f"(p90 {np.percentile(wall, 90):.1f}), {statistics.median(cpu):.1f} ms CPU, "
              f"{len(frames)} frames")


def bench_renders(count: int) -> None:
    try:
        from nardy_pi.vision.render import render_scene
        from nardy_pi.vision.render.random_scenes import random_camera, random_scene
        from nardy_pi.vision.render.styles import STYLES
    except ImportError as exc:
        print(f"== rendered boards: renderer not available ({exc})")
        return
    for width, height in ((1280, 960), (640, 480)):
        rng = np.random.default_rng(7)
        dice = right = flat_right = missed = phantoms = cocked = cocked_seen = 0
        for i in range(count):
            style = STYLES[list(STYLES)[i % len(STYLES)]]
            case = ("valid", "cocked", "split_halves", "on_checker", "off_board")[i % 5]
            shot = render_scene(style, random_camera(rng, width, height),
                                random_scene(rng, style.trays, dice_case=case, hand=False))
            found = find_dice(shot.image)
            used: set[int] = set()
            for truth in shot.truth["dice"]:
                dice += 1
                cx, cy = truth["center"]
                hits = [j for j, d in enumerate(found) if j not in used and _holds(d.box, cx, cy)]
                cocked += not truth["flat"]
                if not hits:
                    missed += 1
                    continue
                j = min(hits, key=lambda k: (found[k].center[0] - cx) ** 2
                        + (found[k].center[1] - cy) ** 2)
                used.add(j)
                right += found[j].value == truth["value"] and found[j].flat == truth["flat"]
                flat_right += found[j].flat == truth["flat"]
                cocked_seen += (not truth["flat"]) and not found[j].flat
            phantoms += len(found) - len(used)
        print(f"== rendered boards {width}x{height}: {count} scenes, {dice} dice")
        print(f"  value and flat right: {right}/{dice} ({100 * right / max(dice, 1):.1f}%), "
              f"flat/cocked right: {flat_right}/{dice - missed}, missed {missed}, "
              f"phantoms {phantoms}, cocked dice flagged {cocked_seen}/{cocked}")


def _holds(box: tuple[float, float, float, float], x: float, y: float) -> bool:
    """A true die centre inside a detection box (3 px slack), as the photo matching does."""
    return box[0] - 3 <= x <= box[2] + 3 and box[1] - 3 <= y <= box[3] + 3


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=Path, default=DEFAULT_PHOTOS)
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--renders", type=int, default=60, help="rendered scenes per size")
    args = parser.parse_args()
    if not any(args.photos.glob("*.jpg")):
        print(f"no photos in {args.photos}", file=sys.stderr)
        return 2
    images = bench_photos(args.photos, args.folds)
    bench_speed(images)
    bench_renders(args.renders)
    return 0


if __name__ == "__main__":
    sys.exit(main())
