"""How well `find_surface` finds the playing surface on the real photos, and how fast.

    PYTHONPATH=$PWD python3 bench/bench_find_surface.py [--limit N] [--show]

Success: all four corners within 3% of the surface diagonal (order-free: the finder orders
corners as the board appears, the labels carry physical corners into turned/mirrored copies).
Timing at 1280x960, one thread, with the old outline finder (markers.outline_candidates) as the
peer run in the same script.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from nardy_pi.vision.board.find_surface import find_surface
from nardy_pi.vision.markers import outline_candidates
from nardy_pi.vision.train import board_photos as bp

TOLERANCE = 0.03


def corner_errors(label: np.ndarray, found: np.ndarray) -> np.ndarray:
    """Per-corner error (share of the label's diagonal) under the best of the 8 orderings."""
    diag = (np.linalg.norm(label[2] - label[0]) + np.linalg.norm(label[3] - label[1])) / 2
    best = None
    for flip in (False, True):
        f = found[::-1] if flip else found
        for shift in range(4):
            err = np.linalg.norm(np.roll(f, shift, axis=0) - label, axis=1) / diag
            if best is None or err.max() < best.max():
                best = err
    return best


def inside(label: bp.PhotoLabel) -> bool:
    w, h = label.size
    return all(-1 <= x <= w + 1 and -1 <= y <= h + 1 for x, y in label.corners)


def evaluate(labels, root: Path):
    rows = []
    for lab in labels:
        image = cv2.imread(str(lab.image_path(root)))
        found = find_surface(image)
        if found is None:
            rows.append((lab, None))
            continue
        rows.append((lab, corner_errors(np.array(lab.corners), np.array(found.corners))))
    return rows


def summary(rows, title: str) -> None:
    n = len(rows)
    ok = [e is not None and e.max() <= TOLERANCE for _, e in rows]
    errs = [e.mean() for _, e in rows if e is not None]
    none = sum(e is None for _, e in rows)
    boards = defaultdict(list)
    for (lab, _), good in zip(rows, ok, strict=True):
        boards[lab.board].append(good)
    board_ok = sum(np.mean(v) >= 0.5 for v in boards.values())
    print(f"{title}: {sum(ok)}/{n} = {100 * sum(ok) / max(n, 1):.1f}% found within 3%; "
          f"mean corner error {100 * np.mean(errs):.1f}% of the diagonal "
          f"(median {100 * np.median(errs):.1f}%); nothing found {none}; "
          f"boards found in at least half their images {board_ok}/{len(boards)}")


def timing(root: Path, labels, repeats: int) -> None:
    lab = next(la for la in labels if "reference" in la.copy)
    image = cv2.resize(cv2.imread(str(lab.image_path(root))), (1280, 960))
    cv2.setNumThreads(1)

    def clock(fn) -> float:
        fn(image)
        t = time.perf_counter()
        for _ in range(repeats):
            fn(image)
        return (time.perf_counter() - t) / repeats * 1000

    ours = clock(find_surface)
    peer = clock(outline_candidates)
    print(f"speed at 1280x960, one thread: find_surface {ours:.1f} ms "
          f"(target < 30 ms); old outline_candidates {peer:.1f} ms; ratio {ours / peer:.2f}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=0, help="only the first N checked images")
    ap.add_argument("--repeats", type=int, default=10)
    ap.add_argument("--show", action="store_true", help="list every failure")
    args = ap.parse_args()
    try:
        labels = [la for la in bp.load_board_photos() if la.checked]
    except bp.PhotosMissing as e:
        print(e)
        return 1
    if args.limit:
        labels = labels[: args.limit]
    root = bp.default_root()
    rows = evaluate(labels, root)
    summary(rows, "all checked photos")
    summary([r for r in rows if inside(r[0])], "surface wholly inside the image")
    summary([r for r in rows if "reference" in r[0].copy], "reference copies")
    if args.show:
        for lab, e in rows:
            if e is None or e.max() > TOLERANCE:
                print("  miss", lab.name, "-" if e is None else f"{100 * e.max():.1f}%")
    timing(root, labels, args.repeats)
    return 0


if __name__ == "__main__":
    sys.exit(main())
