"""Referee and loop figures (printed, not asserted):

1. latency from a settled observation to the referee's verdict (roll accepted, move recorded),
   over random legal games, referee only;
2. the vision part of that latency on rendered frames (one `Observer.observe`), and the
   frames per second through the whole loop (demo table -> vision -> referee -> outputs);
3. peak memory (max RSS) of `nardy-pi run` with the demo table and the web page,
   against the target of 150 MB (a Raspberry Pi Zero 2 W).

Run: python3 bench/bench_referee.py [--seconds 30] [--games 20]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from a checkout without installing

from nardy_pi.referee import Referee, RefereeSettings  # noqa: E402
from nardy_pi.referee import events as ev  # noqa: E402
from nardy_pi.rules.movegen import legal_plays  # noqa: E402
from nardy_pi.rules.position import Position  # noqa: E402
from nardy_pi.vision.types import DieOnBoard, Observation  # noqa: E402

RSS_TARGET_MB = 150


def _obs(p: Position, dice: tuple[DieOnBoard, ...] = ()) -> Observation:
    return Observation(p.points, p.bar[0], p.bar[1], p.off[0], p.off[1], dice)


def _die(value: int, half: str) -> DieOnBoard:
    return DieOnBoard(value, (0.0, 0.0), True, True, half, False)  # type: ignore[arg-type]


def referee_latency(games: int, variant: str, seed: int = 7) -> dict[str, list[float]]:
    """Time of the `observe` call that completes settling, per verdict kind (seconds)."""
    rng = random.Random(seed)
    timings: dict[str, list[float]] = {"roll": [], "move": []}
    for _ in range(games):
        ref = Referee(variant, RefereeSettings(settle_frames=2, move_settle_seconds=0))
        now = 0.0

        def feed(obs: Observation, kind: str | None, ref: Referee = ref) -> list[ev.RefereeEvent]:
            nonlocal now
            out: list[ev.RefereeEvent] = []
            for i in range(2):
                now += 0.2
                t0 = time.perf_counter()
                got = ref.observe(obs, now)
                dt = time.perf_counter() - t0
                if i == 1 and kind and got:
                    timings[kind].append(dt)
                out += got
            return out

        feed(_obs(ref.position), None)
        while True:
            a, b = rng.sample(range(1, 7), 2)
            if ref.phase.value == "opening":
                feed(_obs(ref.position, (_die(a, "right"), _die(b, "left"))), "roll")
            else:
                a, b = rng.randint(1, 6), rng.randint(1, 6)
                feed(_obs(ref.position, (_die(a, "right"), _die(b, "right"))), "roll")
            if ref.dice is None:
                continue
            plays = legal_plays(ref.position, ref.dice, ref.variant)
            after = rng.choice(plays).result if plays else ref.position
            feed(_obs(after, tuple(_die(v, "right") for v in ref.dice)), None)
            events = feed(_obs(after), "move")
            if any(isinstance(e, ev.GameFinished) for e in events) or len(ref.history) > 400:
                break
    return timings


def loop_fps(seconds: float) -> tuple[float, float, list[float]]:
    """Frames/s through the loop with the demo table; mean observe time; verdict latencies."""
    from nardy_pi.app.wiring import build
    from nardy_pi.config import Config

    running = build(Config(), web=None)  # no page: the loop alone
    observe_times: list[float] = []
    inner = running.loop.observe

    def timed(frame: object) -> Observation:
        t0 = time.perf_counter()
        out = inner(frame)  # type: ignore[arg-type]
        observe_times.append(time.perf_counter() - t0)
        return out

    running.loop.observe = timed  # type: ignore[assignment]
    try:
        stats = asyncio.run(running.loop.run(seconds))
    finally:
        running.close()
    return stats.frames / seconds, statistics.mean(observe_times), stats.verdict_latency


def peak_rss_mb(seconds: float) -> float:
    cmd = [sys.executable, "-m", "nardy_pi", "run", "--duration", str(seconds), "--quiet",
           "--host", "127.0.0.1", "--port", "0"]
    subprocess.run(cmd, check=True, capture_output=True, cwd=ROOT)
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024  # kB on Linux


def _ms(values: list[float]) -> str:
    if not values:
        return "n/a"
    values = sorted(values)
    p95 = values[min(len(values) - 1, int(0.95 * len(values)))]
    return f"median {statistics.median(values) * 1000:.2f} ms, p95 {p95 * 1000:.2f} ms, " \
           f"max {values[-1] * 1000:.2f} ms (n={len(values)})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    for variant in ("backgammon", "long"):
        t = referee_latency(args.games, variant)
        print(f"referee {variant:10s} settled obs -> roll verdict: {_ms(t['roll'])}")
        print(f"referee {variant:10s} settled obs -> move verdict: {_ms(t['move'])}")
    fps, observe_s, verdicts = loop_fps(args.seconds)
    print(f"loop (demo table, rendered frames): {fps:.2f} frames/s; "
          f"observe {observe_s * 1000:.0f} ms/frame (the renderer takes the rest)")
    print(f"loop frame capture -> verdict (one frame, incl. vision): {_ms(verdicts)}")
    print("  a verdict needs `settle_frames` (2) identical frames: add one frame period")
    rss = peak_rss_mb(args.seconds)
    verdict = "within" if rss <= RSS_TARGET_MB else "OVER"
    print(f"nardy-pi run peak RSS: {rss:.0f} MB ({verdict} the {RSS_TARGET_MB} MB target)")


if __name__ == "__main__":
    main()
