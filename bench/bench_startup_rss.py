"""`nardy-pi analyze` start-up and `nardy-pi run` peak memory, each against a peer measured in
the same run (printed figures, never asserted).

    python3 bench/bench_startup_rss.py [--repeats 7] [--seconds 15] [--repo CHECKOUT]

- analyze: wall time of a whole `nardy-pi analyze IMAGE --calibration CAL --json` process on a
  640x480 rendered frame (median of --repeats), and without --calibration (the learned reader
  on given corners); peers: `python3 -c pass` and `python3 -c "import cv2, numpy"` (the floor
  any vision command pays), printed as ratios so a busy machine shows up in both.
- run: peak resident memory (the child's ru_maxrss) of `nardy-pi run --duration S` on the
  demo table with the web page; peer: the peak of a bare `import cv2, numpy`.
Targets (issue 15): analyze <= 0.5 s here, run <= 150 MB.

Children run with bytecode caching on, after one warm-up run, as an installed package runs
(this workplace sets PYTHONDONTWRITEBYTECODE, which would recompile every module each time).
--repo measures another checkout (e.g. an older commit exported with `git archive`).

Figures on this machine, 2026-12-02 (2 cores shared with other agents and a training run;
load average 12-14, so times are ~2x a quiet machine's; ratios are the steadier figure):
  before (50b1457): analyze 1.04 s (x2.3 the cv2+numpy import), without calibration 0.97 s;
                    run peak RSS 204 MB (x4.6 the cv2+numpy import's 44 MB)
  after:            analyze 0.70 s (x1.4), without calibration 0.71 s (x1.4);
                    run peak RSS 145 MB (x3.3)
  at load ~2 (by hand, same commands): analyze 0.77-0.93 s before, 0.37-0.43 s after.
2026-12-07 night, e5e115a (--repo, a `git archive` of it) against af7bf91, same hour, load
about 1 (the machine slower than on 12-07 morning: e5e115a's analyze --corners measured 0.53
s then): analyze --corners 0.72 s (x3.8 the cv2+numpy import) -> 0.46 s (x3.5; the first
look reads the surface once, bench_board_reader's notes); analyze --calibration 0.37 -> 0.26 s
(x1.9 -> x2.0: the same code, the spread of the hour); run peak RSS 124 / 139 MB -> 146 / 145
MB: the camera now loads the fine dice check net for a still scene's read (observe.py
fine_when_settled), within the 150 MB target by a few MB.
2026-12-07 late, 1052652 (--repo) against 87be9ab, back to back at load 0.5-0.8: analyze
--calibration 0.32 -> 0.23 s (x2.3 -> x1.8 the cv2+numpy import), analyze --corners 0.52 ->
0.41 s (x3.8 -> x3.2; it now also loads the first look's bar reader, about 25 ms); run peak
RSS 145 MB both. The savings: PNG and JPEG headers read without Pillow (imageio, 32-35 ms of
Pillow's import and plugin registry) and CIELAB in numpy (lab.py: OpenCV builds its Lab tables
on a process's first conversion, 57-62 ms here).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TARGET_S, TARGET_MB = 0.5, 150


def _env(repo: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPATH"] = str(repo)  # children also run there: `python -m` puts the working
    return env  # directory first on sys.path


def _child(cmd: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """Wall seconds, peak RSS in MB and the standard error of one child process."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, cwd=env["PYTHONPATH"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    _pid, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    if proc.stderr:
        proc.stderr.close()
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed: {err.strip()}")
    return wall, usage.ru_maxrss / 1024, err


def _median_wall(cmd: list[str], env: dict[str, str], repeats: int) -> float:
    _child(cmd, env)  # warm-up: bytecode cache, disk cache
    return statistics.median(_child(cmd, env)[0] for _ in range(repeats))


def _frame(folder: Path, env: dict[str, str]) -> tuple[Path, Path, str]:
    """A rendered start position, its calibration and its corners (made by the checkout)."""
    code = (
        "import sys, cv2\n"
        "from nardy_pi.vision.render import Camera, Scene, render_scene\n"
        "from nardy_pi.vision.render.styles import STYLES\n"
        "from nardy_pi.vision.start_positions import start_board\n"
        "cam = Camera(width=640, height=480, perspective=0.03, seed=21)\n"
        "shot = render_scene(STYLES['tournament'], cam,"
        " Scene(points=start_board('backgammon').points, seed=1))\n"
        "cv2.imwrite(sys.argv[1], shot.image)\n"
        "print(';'.join(f'{x:.2f},{y:.2f}' for x, y in shot.corners))\n"
    )
    image, cal = folder / "start.png", folder / "cal.json"
    cwd = env["PYTHONPATH"]
    corners = subprocess.run([sys.executable, "-c", code, str(image)], env=env, cwd=cwd,
                             check=True, capture_output=True, text=True).stdout.strip()
    subprocess.run([sys.executable, "-m", "nardy_pi", "calibrate", str(image), "--corners",
                    corners, "--out", str(cal)], env=env, cwd=cwd, check=True,
                   capture_output=True)
    return image, cal, corners


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeats", type=int, default=7)
    p.add_argument("--seconds", type=float, default=15.0, help="length of the `run`")
    p.add_argument("--repo", type=Path, default=REPO, help="checkout to measure")
    args = p.parse_args()
    env = _env(args.repo.resolve())
    py = sys.executable
    print(f"checkout {args.repo}; load average {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory() as tmp:
        image, cal, corners = _frame(Path(tmp), env)
        bare = _median_wall([py, "-c", "pass"], env, args.repeats)
        floor = _median_wall([py, "-c", "import cv2, numpy"], env, args.repeats)
        analyze = _median_wall([py, "-m", "nardy_pi", "analyze", str(image), "--calibration",
                                str(cal), "--json"], env, args.repeats)
        first_look = _median_wall([py, "-m", "nardy_pi", "analyze", str(image), "--corners",
                                   corners, "--json"], env, args.repeats)
    verdict = "within" if analyze <= TARGET_S else "OVER"
    print(f"analyze --calibration start-up {analyze:.2f} s ({verdict} the {TARGET_S} s target); "
          f"peers: python -c pass {bare:.2f} s (x{analyze / bare:.1f}), import cv2+numpy "
          f"{floor:.2f} s (x{analyze / floor:.1f})")
    print(f"analyze --corners (learned reader, no calibration) {first_look:.2f} s "
          f"(x{first_look / floor:.1f} the cv2+numpy import)")
    peer_mb = _child([py, "-c", "import cv2, numpy"], env)[1]
    _wall, run_mb, err = _child([py, "-m", "nardy_pi", "run", "--duration", str(args.seconds),
                                 "--quiet", "--host", "127.0.0.1", "--port", "0"], env)
    frames = re.search(r"stopped after (\d+) frames", err)
    verdict = "within" if run_mb <= TARGET_MB else "OVER"
    print(f"run (demo table, web page, {args.seconds:.0f} s, "
          f"{frames.group(1) if frames else '?'} frames) peak RSS {run_mb:.0f} MB "
          f"({verdict} the {TARGET_MB} MB target); peer: import cv2+numpy {peer_mb:.0f} MB "
          f"(x{run_mb / peer_mb:.1f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
