"""Club figures through a real Mosquitto on loopback: N simulated boards (the real
`ClubPublisher` output, one MQTT connection each) publish snapshots; the tournament page
(the real subscriber, board table and waitress server) streams them over server-sent events.

    python3 bench/bench_club.py [--boards 20] [--rate 5] [--seconds 8]

Printed: snapshots published and shown on the page per second, and the latency from a
board's `show()` to the page's SSE event (median, 95th percentile, max; target <= 200 ms on
loopback with 20 boards). The peer figure, in the same run and through the same broker: a
raw paho publish -> subscribe round trip of the same payload. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path
from tempfile import TemporaryDirectory

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import paho.mqtt.client as mqtt  # noqa: E402

from nardy_pi.club.boards import BoardTable  # noqa: E402
from nardy_pi.club.broker_url import parse_broker_url  # noqa: E402
from nardy_pi.club.publisher import ClubPublisher, encode_state  # noqa: E402
from nardy_pi.club.subscriber import ClubSubscriber  # noqa: E402
from nardy_pi.club.web import create_club_app  # noqa: E402
from nardy_pi.state import MoveRecord, PlayerState, State  # noqa: E402
from nardy_pi.web.server import WebServer  # noqa: E402
from tests.club.mosquitto import Mosquitto  # noqa: E402


def sample_state(seq: int) -> State:
    """A mid-game snapshot of ordinary size (30 moves listed)."""
    moves = tuple(MoveRecord(i, "white" if i % 2 else "black", (6, 5), "24/18 13/8")
                  for i in range(1, 31))
    return State(
        variant="backgammon", board="-b----E-C---eE---c-e----B-",
        points=(-2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2),
        turn="white", phase="moving", dice=(6, 5), white=PlayerState("Ann", 3, 120, 0, 0),
        black=PlayerState("Ben", 1, 131, 0, 0), moves=moves, last_move=moves[-1], seq=seq,
        devices={"camera": "ok", "club": "ok"},
    )


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def describe(values_ms: list[float]) -> str:
    if not values_ms:
        return "no samples"
    return (f"median {statistics.median(values_ms):.1f} ms, p95 {percentile(values_ms, 0.95):.1f}"
            f" ms, max {max(values_ms):.1f} ms ({len(values_ms)} samples)")


class PageReader(threading.Thread):
    """Reads the page's event stream and notes when each (board, seq) first arrives."""

    def __init__(self, port: int) -> None:
        super().__init__(daemon=True)
        self.port = port
        self.seen: dict[tuple[str, int], float] = {}
        self.stop = False

    def run(self) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        conn.request("GET", "/api/boards/events")
        response = conn.getresponse()
        data: list[bytes] = []
        while not self.stop:
            line = response.readline()
            if not line:
                return
            if line.startswith(b"data: "):
                data.append(line[6:].rstrip(b"\n"))
            elif line == b"\n" and data:
                arrived = time.perf_counter()
                try:
                    event = json.loads(b"\n".join(data))
                except json.JSONDecodeError:
                    event = {}
                data = []
                for table in event.get("tables", []):
                    state = table.get("state") or {}
                    key = (table["board"], state.get("seq", -1))
                    self.seen.setdefault(key, arrived)


def bench_page(url: str, boards: int, rate: float, seconds: float) -> float:
    """The page figures; returns the median latency in ms."""
    table = BoardTable()
    subscriber = ClubSubscriber(parse_broker_url(url), table)
    subscriber.start()
    server = WebServer(create_club_app(table, lambda: subscriber.link), table,  # type: ignore[arg-type]
                       "127.0.0.1", 0)
    server.start()
    publishers = [ClubPublisher(parse_broker_url(url), f"table-{i:02d}") for i in range(boards)]
    for p in publishers:
        p.start()
    deadline = time.monotonic() + 15
    while any(p.status() != "ok" for p in publishers) or subscriber.link != "ok":
        if time.monotonic() > deadline:
            raise SystemExit("the boards did not connect to the broker within 15 s")
        time.sleep(0.05)
    reader = PageReader(server.port)
    reader.start()
    time.sleep(0.5)
    sent: dict[tuple[str, int], float] = {}
    base = sample_state(0)
    interval = 1.0 / (rate * boards)
    started = time.perf_counter()
    n = 0
    while time.perf_counter() - started < seconds:
        board = publishers[n % boards]
        seq = n // boards + 1
        sent[(board.board, seq)] = time.perf_counter()
        board.show(replace(base, seq=seq))
        n += 1
        wait = started + n * interval - time.perf_counter()
        if wait > 0:
            time.sleep(wait)
    elapsed = time.perf_counter() - started
    time.sleep(1.0)  # let the last ones arrive
    reader.stop = True
    latencies = [(reader.seen[k] - t) * 1000 for k, t in sent.items() if k in reader.seen]
    shown = len(latencies)
    print(f"== {boards} boards, {rate:g} snapshots/s each, {seconds:g} s, "
          f"{len(encode_state(base))}-byte snapshots")
    print(f"published: {n / elapsed:.0f} snapshots/s ({n} in {elapsed:.1f} s)")
    print(f"shown on the page: {shown / elapsed:.0f} snapshots/s ({shown} of {n}; the page "
          "shows the newest of a table, so a burst may skip one)")
    print(f"board show() -> page SSE: {describe(latencies)}")
    p95 = percentile(latencies, 0.95) if latencies else float("inf")
    print(f"target p95 <= 200 ms on loopback: {'met' if p95 <= 200 else 'NOT met'}")
    for p in publishers:
        p.close()
    server.stop()
    subscriber.stop()
    return statistics.median(latencies) if latencies else float("nan")


def bench_raw_paho(url: str, count: int) -> float:
    """The peer: one paho client publishes, another receives, same payload and QoS."""
    broker = parse_broker_url(url)
    payload = encode_state(sample_state(1))
    got: dict[int, float] = {}
    done = threading.Event()

    def on_message(_c: mqtt.Client, _u: object, message: mqtt.MQTTMessage) -> None:
        got[int(message.topic.rsplit("/", 1)[1])] = time.perf_counter()
        if len(got) >= count:
            done.set()

    sub = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
    sub.on_message = on_message
    sub.connect(broker.host, broker.port)
    sub.subscribe("bench/raw/#", qos=1)
    sub.loop_start()
    pub = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
    pub.connect(broker.host, broker.port)
    pub.loop_start()
    time.sleep(0.5)
    sent: dict[int, float] = {}
    for i in range(count):
        sent[i] = time.perf_counter()
        pub.publish(f"bench/raw/{i}", payload, qos=1)
        time.sleep(0.01)
    done.wait(10)
    latencies = [(got[i] - sent[i]) * 1000 for i in sent if i in got]
    print(f"peer, raw paho publish -> subscribe ({len(payload)} bytes, QoS 1): "
          f"{describe(latencies)}")
    for client in (pub, sub):
        client.disconnect()
        client.loop_stop()
    return statistics.median(latencies) if latencies else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=20)
    parser.add_argument("--rate", type=float, default=5.0, help="snapshots per second per board")
    parser.add_argument("--seconds", type=float, default=8.0)
    args = parser.parse_args()
    with TemporaryDirectory() as folder:
        broker = Mosquitto(Path(folder))
        broker.start()
        try:
            page = bench_page(broker.url, args.boards, args.rate, args.seconds)
            raw = bench_raw_paho(broker.url, 300)
            print(f"ratio, page / raw paho (median latency): {page / raw:.1f}x (the page's path "
                  "adds decoding, the board table, the board picture and the HTTP stream)")
        finally:
            broker.stop()


if __name__ == "__main__":
    main()
