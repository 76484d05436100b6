"""Long-nardy family benchmark: legal-play generation speed and the worst cases.

Run on demand from the repository root:

    python3 bench/bench_long.py                  # long, gulbar, mad-gulbar, crazy-long
    python3 bench/bench_long.py --games 40 --variants long

Figures (printed, never asserted; wall-clock times of this process):
- pairs/s: (position, roll) pairs for which the whole set of legal plays was generated, per
  second; results/s: distinct resulting positions produced per second. Pairs come from seeded
  random self-play (half of the turns steered toward long runs of points, so the six-block rule
  comes up) and from a sampler of clumped positions (blocks, near-blocks, bear-offs).
- Worst cases: the slowest pairs seen, with their roll and number of distinct plays. Ladders of
  doubles (mad gulbar, crazy long nardy: 1-1 is twelve movements) dominate: listing every play
  of a long ladder can explode (one clumped mad-gulbar position with 1-1 has 3.6 million
  distinct plays and took 280 s), so ladders longer than --max-movements are left out unless
  asked for.
`long_family_speed` is the entry point other bench scripts may call.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the repository root: nardy_pi and tests.rules.long

from nardy_pi.rules.long_rules import movement_sequence  # noqa: E402
from nardy_pi.rules.movegen import legal_plays  # noqa: E402
from nardy_pi.rules.position import Position  # noqa: E402
from nardy_pi.rules.settings import DEFAULT_SETTINGS  # noqa: E402
from nardy_pi.rules.variants import get_variant  # noqa: E402
from tests.rules.long.util import clumped_position, self_play  # noqa: E402

Pair = tuple[Position, tuple[int, int]]
VARIANTS = ("long", "gulbar", "mad-gulbar", "crazy-long")


def sample(variant: str, games: int, clumped: int, seed: int) -> list[Pair]:
    # self-play re-throws ladders over 8 movements to stay fast; the clumped sample and the
    # extra ladder pairs below put them back
    pairs = [pair for g in range(games) for pair in self_play(seed + g, variant)]
    rng = random.Random(seed)
    for _ in range(clumped):
        pairs.append((clumped_position(rng, variant), (rng.randint(1, 6), rng.randint(1, 6))))
    return pairs


def timed(pairs: Iterable[Pair], variant: str) -> list[tuple[float, Pair, int]]:
    v = get_variant(variant)
    out = []
    for pos, roll in pairs:
        start = time.perf_counter()
        n = len(legal_plays(pos, roll, v, DEFAULT_SETTINGS))
        out.append((time.perf_counter() - start, (pos, roll), n))
    return out


def report(title: str, rows: Sequence[tuple[float, Pair, int]], worst: int) -> None:
    seconds = sum(r[0] for r in rows) or 1e-9
    results = sum(r[2] for r in rows)
    median_ms = sorted(r[0] for r in rows)[len(rows) // 2] * 1e3
    print(
        f"  {title:<22}{len(rows):>6} pairs {len(rows) / seconds:>9,.0f} pairs/s "
        f"{results / seconds:>10,.0f} results/s  median {median_ms:.2f} ms"
    )
    for t, (pos, roll), n in sorted(rows, key=lambda r: -r[0])[:worst]:
        roll_text = f"{roll[0]}-{roll[1]}"
        print(f"      worst {t * 1e3:9.1f} ms  roll {roll_text}  {n:>7} plays  off {pos.off}")


def long_family_speed(
    variants: Sequence[str] = VARIANTS, games: int = 20, clumped: int = 500, seed: int = 0,
    worst: int = 3, max_movements: int = 8,
) -> None:  # fmt: skip
    """Print generation speed and the worst cases for each long-family variant."""
    print("\n== Long nardy family generation ==")
    for variant in variants:
        pairs = sample(variant, games, clumped, seed)
        v = get_variant(variant)
        sizes = [len(movement_sequence(v, p[1], DEFAULT_SETTINGS)) for p in pairs]
        plain = [p for p, n in zip(pairs, sizes, strict=True) if n <= 4]
        ladders = [p for p, n in zip(pairs, sizes, strict=True) if 4 < n <= max_movements]
        print(f" {variant}:")
        report("ordinary rolls", timed(plain, variant), worst)
        if ladders:
            report("ladders of doubles", timed(ladders, variant), worst)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", nargs="+", default=list(VARIANTS), choices=VARIANTS)
    parser.add_argument("--games", type=int, default=20, help="self-play games per variant")
    parser.add_argument("--clumped", type=int, default=500, help="clumped positions per variant")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--worst", type=int, default=3, help="slowest pairs to list")
    parser.add_argument(
        "--max-movements", type=int, default=8, help="longest ladder of doubles to time (<= 24)"
    )
    args = parser.parse_args(argv)
    long_family_speed(
        args.variants, args.games, args.clumped, args.seed, args.worst, args.max_movements
    )


if __name__ == "__main__":
    main()
