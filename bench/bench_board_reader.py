"""Board reader figures (issue 15), real photos first.

    PYTHONPATH=. python3 bench/bench_board_reader.py [--frames N] [--skip-real] [--skip-speed]

1. Real photos (../shared/data/board-photos), leave-one-board-out: the shipped model is
   trained on renders only, so it never saw any of these boards. Corners from the photo
   labels, bar measured, no calibration. Per slot (24 points + the bar) and boards exact.
2. Renderer styles never trained on (randomised renderer, held-out split), after calibration
   on the start position, each frame placed by its own corners: per slot, exact, occlusion
   recall and false alarms on clean frames.
3. Milliseconds per full observation (dice included), one thread, 640x480 and 1280x960, with
   the first-generation reader (commit FIRST_READER, extracted from git) as the peer.
4. `nardy-pi analyze` start-up (`--help`) and a whole analyze of one image without calibration.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
FIRST_READER = "c18398a"  # the last commit with the colour-class reader


def _pct(a: float, b: float) -> str:
    return f"{100.0 * a / b:.1f}% ({a}/{b})" if b else "n/a"


def _slots_right(obs, points, bar) -> tuple[int, int, bool]:
    """Right and total over the labelled points and the bar (one slot: both colours)."""
    right = total = 0
    for got, want in zip(obs.points, points, strict=True):
        if want is None:
            continue
        total += 1
        right += got == want
    total += 1
    right += (obs.bar_white, obs.bar_black) == tuple(bar)
    return right, total, right == total


def real_photos() -> None:
    print("== real photos, leave-one-board-out (the model is trained on renders only, so no "
          "board was seen), corners given, bar measured, no calibration")
    try:
        from nardy_pi.vision.train.board_photos import load_board_photos, score_reader
    except ImportError:
        print("   skipped: the photo labels (vision/train/board_photos.py) are not installed")
        return
    try:
        labels = load_board_photos()
    except FileNotFoundError as exc:
        print(f"   skipped: {exc}")
        return
    from nardy_pi.vision.board.reader import fit_layout
    from nardy_pi.vision.observe import Observer

    def read(image, corners):
        observer = Observer(None, corners=corners, layout=fit_layout(image, corners))
        obs = observer.observe(image).observation
        return obs.points, (obs.bar_white, obs.bar_black)

    t0 = time.perf_counter()
    score = score_reader(read, labels)
    o = score.overall
    print(f"   per slot {_pct(o.slots_right, o.slots)}; images exact {_pct(o.exact, o.images)}; "
          f"boards with every image exact {score.boards_exact:.1%} of {len(score.per_board)} "
          f"({time.perf_counter() - t0:.0f} s)")
    worst = sorted(score.per_board.items(), key=lambda kv: kv[1].per_slot)[:5]
    print("   weakest boards: " + ", ".join(f"{b} {t.per_slot:.0%}" for b, t in worst))


def heldout_renders(frames: int) -> None:
    from nardy_pi.vision.calibrate import calibrate
    from nardy_pi.vision.observe import Observer
    from nardy_pi.vision.render.randomised import HELDOUT_STYLES, render_random
    from nardy_pi.vision.start_positions import start_board

    print(f"== renderer styles never trained on, calibrated on the start position, "
          f"{frames} frames per style (640x480)")
    start = start_board("backgammon")
    total = {"right": 0, "slots": 0, "exact": 0, "clean": 0, "occ": 0, "caught": 0, "alarms": 0}
    for k, style in enumerate(HELDOUT_STYLES.values()):
        shot = render_random(1000 + k, "heldout", (640, 480), position=start.points,
                             dice="none", occluder=False, cube="none", style=style)
        try:
            cal = calibrate(shot.image, shot.truth.corners, start)
        except ValueError as exc:
            print(f"   {style.name}: calibration failed: {exc}")
            continue
        t = dict.fromkeys(total, 0)
        for n in range(frames):
            r = render_random(20000 + 100 * k + n, "heldout", (640, 480), style=style)
            observer = Observer(cal, corners=r.truth.corners)
            obs = observer.observe(r.image).observation
            if r.truth.occluded:
                t["occ"] += 1
                t["caught"] += obs.occluded
                continue
            t["clean"] += 1
            t["alarms"] += obs.occluded
            seen = [p if v else None for p, v in zip(r.truth.points, r.truth.visible,
                                                       strict=True)]
            a, b, ok = _slots_right(obs, seen, (r.truth.bar_white, r.truth.bar_black))
            t["right"], t["slots"], t["exact"] = t["right"] + a, t["slots"] + b, t["exact"] + ok
        for key in total:
            total[key] += t[key]
        print(f"   {style.name}: calibration read back {cal.readback:.0%}; per slot "
              f"{_pct(t['right'], t['slots'])}, exact {_pct(t['exact'], t['clean'])}, "
              f"occlusion recall {_pct(t['caught'], t['occ'])}, false alarms "
              f"{_pct(t['alarms'], t['clean'])}")
    print(f"   all: per slot {_pct(total['right'], total['slots'])}, exact "
          f"{_pct(total['exact'], total['clean'])}, occlusion recall "
          f"{_pct(total['caught'], total['occ'])}, false alarms "
          f"{_pct(total['alarms'], total['clean'])}")


# Run in a subprocess against either reader's code: calibrate on the start position, then
# time full observations (dice finder included) on rendered frames, one thread.
_TIMER = r"""
import json, sys, time
import cv2, numpy as np
cv2.setNumThreads(1)
from nardy_pi.vision.calibrate import calibrate
from nardy_pi.vision.observe import Observer, default_dice_finder
from nardy_pi.vision.render import Camera, Scene, render_scene
from nardy_pi.vision.render.random_scenes import random_scene
from nardy_pi.vision.render.styles import STYLES
from nardy_pi.vision.start_positions import start_board
out = {}
for w, h in ((640, 480), (1280, 960)):
    cam = Camera(width=w, height=h, perspective=0.03, rotation_deg=2.0, seed=5)
    style = STYLES["wood"]
    start = render_scene(style, cam, Scene(points=start_board("backgammon").points, seed=1))
    observer = Observer(calibrate(start.image, start.corners, start_board("backgammon")),
                        default_dice_finder())
    rng = np.random.default_rng(3)
    frames = [render_scene(style, cam, random_scene(rng, False, dice_case="valid",
                                                    hand=False)).image for _ in range(8)]
    observer.observe(frames[0])
    wall, cpu = [], []
    for _ in range(int(sys.argv[1])):
        for f in frames:
            t0, c0 = time.perf_counter(), time.process_time()
            observer.observe(f)
            wall.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
    out[f"{w}x{h}"] = [1000 * float(np.median(wall)), 1000 * float(np.median(cpu))]
print(json.dumps(out))
"""


def _time_reader(pythonpath: Path, rounds: int) -> dict:
    env = {**os.environ, "PYTHONPATH": str(pythonpath), "OMP_NUM_THREADS": "1"}
    out = subprocess.run([sys.executable, "-c", _TIMER, str(rounds)], env=env, cwd=pythonpath,
                         capture_output=True, text=True, timeout=900)
    if out.returncode != 0:
        raise RuntimeError(out.stderr.strip().splitlines()[-1])
    return json.loads(out.stdout.strip().splitlines()[-1])


def speed(rounds: int) -> None:
    print("== ms per full observation with dice, one thread (median wall / CPU)")
    new = _time_reader(ROOT, rounds)
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", FIRST_READER, "nardy_pi"],
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        old = _time_reader(Path(tmp), rounds)
    for size in new:
        (nw, nc), (ow, oc) = new[size], old[size]
        print(f"   {size}: new reader {nw:.1f} / {nc:.1f} ms; first reader {ow:.1f} / "
              f"{oc:.1f} ms; ratio {nc / oc:.2f} (CPU)")


def startup() -> None:
    import cv2

    from nardy_pi.vision.render import Camera, Scene, render_scene
    from nardy_pi.vision.render.styles import STYLES

    print("== nardy-pi analyze start-up (median of 3, wall)")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with tempfile.TemporaryDirectory() as tmp:
        shot = render_scene(STYLES["felt"], Camera(seed=2), Scene(points=(0,) * 24, seed=1))
        image = Path(tmp) / "board.png"
        cv2.imwrite(str(image), shot.image)
        corners = ";".join(f"{x:.1f},{y:.1f}" for x, y in shot.corners)
        for label, args in (("--help", ["analyze", "--help"]),
                            ("whole analyze, no calibration",
                             ["analyze", str(image), "--corners", corners, "--json"])):
            times = []
            for _ in range(3):
                t0 = time.perf_counter()
                subprocess.run([sys.executable, "-m", "nardy_pi", *args], env=env, check=True,
                               capture_output=True)
                times.append(time.perf_counter() - t0)
            print(f"   {label}: {np.median(times):.2f} s")
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], env=env, check=True)
        print(f"   (python itself: {time.perf_counter() - t0:.2f} s)")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--frames", type=int, default=20, help="renderer frames per held-out style")
    p.add_argument("--rounds", type=int, default=2, help="timing rounds over 8 frames")
    p.add_argument("--skip-real", action="store_true")
    p.add_argument("--skip-heldout", action="store_true")
    p.add_argument("--skip-speed", action="store_true")
    args = p.parse_args()
    if not args.skip_real:
        real_photos()
    if not args.skip_heldout:
        heldout_renders(args.frames)
    if not args.skip_speed:
        speed(args.rounds)
        startup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
