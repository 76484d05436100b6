"""Fuzz every parser with mutated input: inputs tried and failures per parser.

Run from the repository root:  python3 bench/fuzz_parsers.py [--count 100000] [--only NAME]

Parsers: XGID, board field, gnubg Position/Match ID, move text, .mat, configuration TOML,
`moves --batch` lines and control-panel JSON. A failure is any exception other than the
ValueError every parser raises for bad input (see tests/fuzz/parsers.py); the first few are
printed with their input. The suite runs a few thousand of each (tests/fuzz).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.fuzz.parsers import TARGETS, fuzz


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100_000, help="inputs per parser")
    parser.add_argument("--only", choices=sorted(TARGETS), action="append")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    total = 0
    print(f"{'parser':14} {'inputs':>9} {'failures':>9} {'inputs/s':>9}")
    for name in args.only or sorted(TARGETS):
        started = time.perf_counter()
        result = fuzz(name, args.count, args.seed)
        rate = result.tried / max(1e-9, time.perf_counter() - started)
        print(f"{name:14} {result.tried:9d} {len(result.failures):9d} {rate:9.0f}", flush=True)
        for text, error in result.failures[:3]:
            print(f"    {error}\n      input: {text[:120]!r}")
        total += len(result.failures)
    print(f"total failures: {total}")
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
