"""Carry a reference photo's corners to its copies through the copies' own checker boxes.

Each copy of a board photo was made upstream by affine augmentations (turns, mirrors, shear,
crop, stretch), and the upstream tool moved the boxes with the image. An affine map sends a
box's centre to its transformed box's centre, so the reference-to-copy map can be fitted to the
boxed checkers' centres: on the photos it explains them to a fraction of a pixel (median 0.005
checker diameters), where the SIFT homographies first used to carry the corners were off by a
tenth to a quarter of a checker, and up to half a checker at a corner (data/README.md).

`python -m nardy_pi.vision.train.photo_carry` prints each copy's corner shift; `--write`
puts the carried corners into data/board_photos.json and places each die's `on_board` and
`half` again. Points out of view (null) are kept as they are: a carry moves the corners by
half a checker at most, and some nulls were set by eye.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from nardy_pi.vision.train.board_photos import (
    LABELS_FILE,
    PhotoLabel,
    default_root,
    read_labels,
)
from nardy_pi.vision.train.photo_pastes import read_checker_boxes

EDGE = 2.0  # px: a box this close to the image's edge may be cut by it (its centre moved)
MATCH = 0.6  # checker diameters: how far a carried centre may land from its copy's box
INLIER = 0.1  # checker diameters: RANSAC's reprojection threshold
ROUNDS = 5  # match, fit, match again
MIN_MATCHES = 12  # fewer pairs (a board with few checkers, strong perspective) is no fit
MAX_RESIDUAL = 0.04  # diameters: a worse fit is no fit (the augmentations are affine)
ORDER = ("top_left", "top_right", "bottom_right", "bottom_left")


@dataclass(frozen=True, slots=True)
class Boxes:
    centres: np.ndarray  # K x 2 image px
    sides: np.ndarray  # K: +1 light, -1 dark
    diameter: float  # median checker diameter, px


@dataclass(frozen=True, slots=True)
class Carry:
    affine: np.ndarray  # 2 x 3, reference image px -> copy image px
    corners: np.ndarray  # 4 x 2, the reference's corners carried (TL, TR, BR, BL)
    matches: int
    residual: float  # median distance of a matched centre from its carried one, diameters


def whole_boxes(label: PhotoLabel, root: Path | None = None) -> Boxes:
    """The label's boxed checkers that the image's edge does not cut."""
    root = default_root() if root is None else root
    width, height = label.size
    b = read_checker_boxes(root / "labels" / f"{label.name}.txt", width, height)
    whole = ((b[:, 0] > EDGE) & (b[:, 1] > EDGE) & (b[:, 2] < width - EDGE)
             & (b[:, 3] < height - EDGE))
    sizes = np.hypot(b[:, 2] - b[:, 0], b[:, 3] - b[:, 1]) / np.sqrt(2)
    centres = np.stack([(b[:, 0] + b[:, 2]) / 2, (b[:, 1] + b[:, 3]) / 2], axis=1)
    return Boxes(centres[whole], b[whole, 4], float(np.median(sizes)) if len(b) else 0.0)


def carry(reference: PhotoLabel, copy: PhotoLabel, root: Path | None = None) -> Carry | None:
    """The affine map from the reference to the copy fitted on their boxes' centres, started
    from the two labels' present corners (a wrong start that lands within MATCH still
    converges); None when fewer than MIN_MATCHES checkers pair up or the map does not
    explain them to MAX_RESIDUAL."""
    ref, cop = whole_boxes(reference, root), whole_boxes(copy, root)
    if len(ref.centres) < MIN_MATCHES or len(cop.centres) < MIN_MATCHES:
        return None
    start = cv2.getPerspectiveTransform(np.float32(reference.corners), np.float32(copy.corners))
    landed = cv2.perspectiveTransform(ref.centres[None].astype(np.float32), start)[0]
    affine = None
    for _ in range(ROUNDS):
        src, dst = [], []
        for i, p in enumerate(landed):
            d = np.hypot(*(cop.centres - p).T)
            d[cop.sides != ref.sides[i]] = np.inf
            j = int(np.argmin(d))
            if d[j] < MATCH * cop.diameter:
                src.append(ref.centres[i])
                dst.append(cop.centres[j])
        if len(src) < MIN_MATCHES:
            return None
        src_a, dst_a = np.float32(src), np.float32(dst)
        affine, _ = cv2.estimateAffine2D(src_a, dst_a, ransacReprojThreshold=INLIER * cop.diameter,
                                         refineIters=50)
        if affine is None:
            return None
        landed = cv2.transform(ref.centres[None].astype(np.float32), affine)[0]
    residual = np.hypot(*(cv2.transform(src_a[None], affine)[0] - dst_a).T)
    corners = cv2.transform(np.float32(reference.corners)[None], affine)[0].astype(np.float64)
    fit = float(np.median(residual)) / cop.diameter
    return Carry(affine, corners, len(src), fit) if fit <= MAX_RESIDUAL else None


def die_place(corners: np.ndarray, bar_u: tuple[float, float], centre) -> tuple[bool, str | None]:
    """`on_board` and `half` of a die whose box is centred at `centre` (image px)."""
    to_unit = cv2.getPerspectiveTransform(np.float32(corners),
                                          np.float32([[0, 0], [1, 0], [1, 1], [0, 1]]))
    u, v = cv2.perspectiveTransform(np.float32([[centre]]), to_unit)[0, 0]
    if not (0 <= u <= 1 and 0 <= v <= 1):
        return False, None
    if bar_u[0] <= u <= bar_u[1]:
        return True, None
    return True, "left" if u < bar_u[0] else "right"


def _write(carried: dict[str, np.ndarray]) -> None:
    data = json.loads(LABELS_FILE.read_text(encoding="utf-8"))
    for raw in data["images"]:
        corners = carried.get(raw["name"])
        if corners is None:
            continue
        raw["corners"] = {k: [round(float(x), 1), round(float(y), 1)]
                          for k, (x, y) in zip(ORDER, corners, strict=True)}
        for die in raw["dice"]:
            placed = die_place(corners, tuple(raw["bar_u"]), die["center"])
            if placed != (die["on_board"], die["half"]):
                print(f"{raw['name']}: die at {die['center']} now {placed}")
            die["on_board"], die["half"] = placed
    LABELS_FILE.write_text(json.dumps(data, separators=(",", ":"), ensure_ascii=False),
                           encoding="utf-8")
    print(f"wrote {len(carried)} copies' corners to {LABELS_FILE}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--write", action="store_true", help="write the carried corners")
    args = ap.parse_args(argv)
    labels = read_labels()
    by_name = {lab.name: lab for lab in labels}
    carried: dict[str, np.ndarray] = {}
    for lab in labels:
        if "reference" in lab.copy:
            continue
        c = carry(by_name[lab.reference], lab)
        if c is None:
            print(f"{lab.name}: no fit (too few boxed checkers, or they do not agree), "
                  "corners kept")
            continue
        shift = np.hypot(*(c.corners - np.asarray(lab.corners)).T).max()
        print(f"{lab.name}: {c.matches} checkers, residual {c.residual:.3f} diameters, "
              f"corners move up to {shift:.1f} px")
        carried[lab.name] = c.corners
    if args.write:
        _write(carried)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
