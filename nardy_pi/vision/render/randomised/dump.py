"""Write a range of randomised renders to a folder, for training runs that read from disk.

    python3 -m nardy_pi.vision.render.randomised.dump OUT --start 0 --count 500 \\
        --split train --size 640x480

OUT gets NNNNNNN.jpg (quality 97) per seed and truth.jsonl, one JSON object per line with
"seed", "image" and the truth (truth_dict); an occluder mask goes to NNNNNNN_mask.png.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path

import cv2
import numpy as np

from nardy_pi.vision.render.randomised.render import render_random
from nardy_pi.vision.render.randomised.truth import RenderTruth


def truth_dict(truth: RenderTruth) -> dict:
    """Everything in the truth as plain JSON values, without the occluder mask."""
    out = {}
    for f in dataclasses.fields(truth):
        if f.name == "occluder_mask":
            continue
        value = getattr(truth, f.name)
        if isinstance(value, tuple) and value and dataclasses.is_dataclass(value[0]):
            value = [dataclasses.asdict(v) for v in value]
        elif dataclasses.is_dataclass(value):
            value = dataclasses.asdict(value)
        out[f.name] = value
    out["analyze"] = truth.analyze_json()
    return json.loads(json.dumps(out))  # tuples -> lists, checked serialisable


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"size must look like 640x480, got {text!r}") from None
    if not (16 <= w <= 8192 and 16 <= h <= 8192):
        raise argparse.ArgumentTypeError(f"size {w}x{h} is out of range")
    return w, h


def dump(out: Path, start: int, count: int, split: str, size: tuple[int, int]) -> int:
    out.mkdir(parents=True, exist_ok=True)
    with (out / "truth.jsonl").open("a", encoding="utf-8") as lines:
        for seed in range(start, start + count):
            r = render_random(seed, split, size)  # type: ignore[arg-type]
            name = f"{seed:07d}.jpg"
            cv2.imwrite(str(out / name), r.image, [cv2.IMWRITE_JPEG_QUALITY, 97])
            row = {"seed": seed, "split": split, "image": name, **truth_dict(r.truth)}
            if r.truth.occluder_mask is not None:
                mask_name = f"{seed:07d}_mask.png"
                cv2.imwrite(str(out / mask_name), r.truth.occluder_mask.astype(np.uint8) * 255)
                row["mask"] = mask_name
            lines.write(json.dumps(row) + "\n")
    return count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Write randomised board renders to a folder.")
    parser.add_argument("out", type=Path)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--split", choices=("train", "heldout"), default="train")
    parser.add_argument("--size", type=_size, default=(640, 480))
    args = parser.parse_args(argv)
    if args.count < 0:
        parser.error("--count cannot be negative")
    try:
        n = dump(args.out, args.start, args.count, args.split, args.size)
    except OSError as exc:
        print(f"{args.out}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    print(f"wrote {n} renders to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
