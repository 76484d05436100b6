"""The page under a prankster: viewer latency while one address holds many idle connections.

Run from the repository root:  python3 bench/bench_web_load.py [--idle 150 500 2000]

For each count, one loopback address (127.0.0.66) opens that many connections and sends
nothing; another (127.0.0.1) then fetches `/` and `/api/state` 20 times. Printed: how many
idle connections the server kept, the viewer's median and worst time, and the ratio against
the same viewer with no prankster (the peer, measured first in the same run).
"""

from __future__ import annotations

import argparse
import socket
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.web.helpers import HOST, running_site

PRANKSTER = "127.0.0.66"


def viewer_times(site, rounds: int = 20) -> list[float]:
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        assert site.request("GET", "/", timeout=30).status == 200
        assert site.request("GET", "/api/state", timeout=30).status == 200
        times.append(time.perf_counter() - started)
    return times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--idle", type=int, nargs="+", default=[150, 500, 2000])
    args = parser.parse_args()
    with running_site() as site:
        base = statistics.median(viewer_times(site))
        print(f"no prankster: viewer median {base * 1000:.1f} ms")
        for count in args.idle:
            held: list[socket.socket] = []
            for _ in range(count):
                try:
                    held.append(socket.create_connection((HOST, site.port), timeout=5,
                                                         source_address=(PRANKSTER, 0)))
                except OSError:
                    break
            time.sleep(0.5)
            times = viewer_times(site)
            kept = 0
            for s in held:
                s.setblocking(False)
                try:
                    kept += s.recv(1) != b""
                except BlockingIOError:
                    kept += 1
                except OSError:
                    pass
                s.close()
            med = statistics.median(times)
            print(f"{count:5d} idle tried, {kept:4d} kept: viewer median {med * 1000:.1f} ms, "
                  f"worst {max(times) * 1000:.1f} ms, ratio {med / base:.2f}")


if __name__ == "__main__":
    main()
