"""The page under a prankster: viewer latency while one address holds many idle connections.

Run from the repository root:  python3 bench/bench_web_load.py [--idle 150 500 2000]

For each count, a separate process (its own descriptor table, as a phone on the café's
network would be) opens that many connections from one loopback address (127.0.0.66) and
sends nothing; another address (127.0.0.1) then fetches `/` and `/api/state` 20 times.
Printed: how many idle connections the server kept, the viewer's median and worst time for
the page and the state, and the ratio against the same viewer with no prankster (measured
first in the same run). The issue's bar: the page within a second at 150 idle connections.
"""

from __future__ import annotations

import argparse
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

PRANKSTER = "127.0.0.66"


def hold(port: int, count: int) -> None:
    """The prankster's process: open `count` idle connections, say how many, wait for a
    line on stdin, then say how many the server still keeps open."""
    held: list[socket.socket] = []
    for _ in range(count):
        try:
            held.append(socket.create_connection(("127.0.0.1", port), timeout=5,
                                                 source_address=(PRANKSTER, 0)))  # fmt: skip
        except OSError:
            break
    print(f"opened {len(held)}", flush=True)
    sys.stdin.readline()
    kept = 0
    for s in held:
        s.setblocking(False)
        try:
            kept += s.recv(1) != b""
        except BlockingIOError:
            kept += 1  # still open, nothing to read
        except OSError:
            pass
        s.close()
    print(f"kept {kept}", flush=True)


def viewer_times(site, rounds: int = 20) -> list[float]:
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        assert site.request("GET", "/", timeout=30).status == 200
        assert site.request("GET", "/api/state", timeout=30).status == 200
        times.append(time.perf_counter() - started)
    return times


def main() -> None:
    from tests.web.helpers import running_site

    parser = argparse.ArgumentParser()
    parser.add_argument("--idle", type=int, nargs="+", default=[150, 500, 2000])
    args = parser.parse_args()
    with running_site() as site:
        base = statistics.median(viewer_times(site))
        print(f"no prankster: viewer median {base * 1000:.1f} ms (page + state)")
        for count in args.idle:
            child = subprocess.Popen(
                [sys.executable, __file__, "--hold", str(site.port), str(count)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
            )  # fmt: skip
            assert child.stdin is not None and child.stdout is not None
            opened = child.stdout.readline().split()[-1]
            time.sleep(0.5)
            times = viewer_times(site)
            child.stdin.write("\n")
            child.stdin.flush()
            kept = child.stdout.readline().split()[-1]
            child.wait(timeout=60)
            med = statistics.median(times)
            print(f"{count:5d} idle tried, {opened:>5} opened, {kept:>4} kept by the server: "
                  f"viewer median {med * 1000:.1f} ms, worst {max(times) * 1000:.1f} ms, "
                  f"ratio {med / base:.2f}")


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--hold":
        hold(int(sys.argv[2]), int(sys.argv[3]))
    else:
        main()
