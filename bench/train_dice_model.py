"""Train the dice top-face pip model on the real photos and report held-out figures.

    python3 bench/train_dice_model.py [--photos DIR] [--folds 5] [--seed 0] [--write]

Prints k-fold figures split by photo (each fold's model reads only photos it never saw).
`--write` then fits on every photo and stores nardy_pi/vision/models/dice_top_face.npz.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import cv2

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from nardy_pi.vision.dice_labels import Tally, labelled_photos  # noqa: E402
from nardy_pi.vision.dice_topface import MODEL_PATH  # noqa: E402
from nardy_pi.vision.dice_training import cross_validate, fit_model, pip_examples  # noqa: E402

DEFAULT_PHOTOS = REPO.parent / "shared" / "data" / "dice-photos" / "train"


def report(title: str, tally: Tally) -> None:
    print(f"{title}: {tally.correct}/{tally.labelled} dice read right "
          f"({100 * tally.accuracy:.1f}%), missed {tally.missed}, phantoms {tally.phantoms}")
    faces = "  ".join(
        f"{v}: {100 * tally.per_face_correct[v] / tally.per_face[v]:.1f}%"
        for v in sorted(tally.per_face)
    )
    print(f"  per face  {faces}")
    worst = ", ".join(f"{t}->{r}: {n}" for (t, r), n in tally.confusions.most_common(8))
    print(f"  most common confusions (true->read): {worst or 'none'}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=Path, default=DEFAULT_PHOTOS)
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--hidden", type=int, default=12, help="hidden units")
    parser.add_argument("--write", action="store_true", help="store the model fitted on all")
    args = parser.parse_args()

    photos = labelled_photos(args.photos)
    if not photos:
        print(f"no labelled photos in {args.photos}", file=sys.stderr)
        return 2
    images = [cv2.imread(str(p.image_path)) for p in photos]
    t0 = time.perf_counter()
    held_out = cross_validate(photos, images, args.folds, args.seed, args.hidden)
    report(f"held-out ({args.folds}-fold by photo, {time.perf_counter() - t0:.0f} s)", held_out)
    if args.write:
        examples = [pip_examples(p, im) for p, im in zip(photos, images, strict=True)]
        final = fit_model(examples, args.hidden, args.seed)
        MODEL_PATH.parent.mkdir(parents=True, exist_ok=True)
        final.save(MODEL_PATH, held_out_accuracy=held_out.accuracy, folds=args.folds)
        print(f"wrote {MODEL_PATH.relative_to(REPO)} "
              f"({sum(len(e.targets) for e in examples)} labelled pips)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
