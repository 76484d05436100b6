"""Speed of the domain-randomised renderer, one thread, against the old renderer as a peer.

    PYTHONPATH=$PWD python3 bench/bench_render.py [--n 20]

Prints milliseconds per image at 1280x960 and 640x480 for both splits, and the ratio to the
old renderer (nardy_pi.vision.render.render_scene) on the same machine in the same run.
Targets (issue 15 brief): <= 60 ms per 1280x960 image, less at 640x480. Figures only.
"""

from __future__ import annotations

import argparse
import time

import cv2
import numpy as np

from nardy_pi.vision.render import render_scene
from nardy_pi.vision.render.random_scenes import random_camera, random_scene
from nardy_pi.vision.render.randomised import render_random
from nardy_pi.vision.render.styles import STYLES


def _ms(fn, n: int) -> float:
    fn(10_000)  # warm caches and imports
    t = time.perf_counter()
    for i in range(n):
        fn(i)
    return (time.perf_counter() - t) / n * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=20, help="images per measurement")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    for w, h in ((1280, 960), (640, 480)):
        def old(i, w=w, h=h):
            rng = np.random.default_rng(i)
            style = STYLES[sorted(STYLES)[i % len(STYLES)]]
            return render_scene(style, random_camera(rng, w, h), random_scene(rng, style.trays))

        peer = _ms(old, args.n)
        for split in ("train", "heldout"):
            ms = _ms(lambda i, s=split, w=w, h=h: render_random(i, s, (w, h)), args.n)
            print(f"randomised {split:7s} {w}x{h}: {ms:6.1f} ms/image "
                  f"(old renderer {peer:5.1f} ms, ratio {ms / peer:4.2f})")


if __name__ == "__main__":
    main()
