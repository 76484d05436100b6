"""Bounded load on loopback: 50 open event streams while control requests arrive in a burst.

Bounds, not speed targets: every viewer must end up with the final snapshot, every control
request must get a clean answer (200, or 409 with a reason), and the whole run must finish
within a generous hang guard. Measured times are printed for the record.
"""

from __future__ import annotations

import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from tests.web.helpers import EventStream, Site, running_site

VIEWERS = 50
BURST_THREADS = 4
REQUESTS_PER_THREAD = 10
HANG_GUARD_S = 45.0


def _viewer(site: Site, ready: threading.Barrier, target: dict[str, int], seen: list) -> None:
    stream = EventStream(site.port, timeout=15)
    try:
        assert stream.status == 200
        last = json.loads(stream.next_named("state")["data"])["state"]["seq"]
        ready.wait(timeout=20)
        deadline = time.monotonic() + HANG_GUARD_S
        while time.monotonic() < deadline:
            event = stream.next_event()
            if event is None:
                break
            if event.get("event") == "state":
                last = int(event["id"])
            if "seq" in target and last >= target["seq"]:
                break
        seen.append(last)
    finally:
        stream.close()


def _burst(site: Site, token: str, answers: list[int]) -> None:
    for i in range(REQUESTS_PER_THREAD):
        action = ("cube", {"action": "double"}) if i % 2 == 0 else ("undo", {})
        reply = site.post_json(f"/api/control/{action[0]}", action[1], session=token)
        if reply.status == 409:
            assert reply.json()["error"], "a refusal must carry its reason"
        answers.append(reply.status)
        assert site.get("/api/state").status == 200


def test_fifty_viewers_and_a_control_burst() -> None:
    started = time.monotonic()
    with running_site(max_streams=VIEWERS + 5, heartbeat=1.0) as site:
        token = site.login()
        site.match.roll((3, 1))  # white opens and plays: black may double, and undo it
        site.match.play(0)
        ready = threading.Barrier(VIEWERS + 1)
        target: dict[str, int] = {}
        seen: list[int] = []
        answers: list[int] = []
        viewers = [
            threading.Thread(target=_viewer, args=(site, ready, target, seen), daemon=True)
            for _ in range(VIEWERS)
        ]
        for v in viewers:
            v.start()
        ready.wait(timeout=30)
        assert site.hub.open_streams == VIEWERS
        burst_start = time.monotonic()
        with ThreadPoolExecutor(BURST_THREADS) as pool:
            for f in [pool.submit(_burst, site, token, answers) for _ in range(BURST_THREADS)]:
                f.result(timeout=HANG_GUARD_S)
        burst_s = time.monotonic() - burst_start
        site.match.set_device("camera", "reconnecting")  # the final snapshot everyone must see
        target["seq"] = site.hub.latest()[1].seq
        fan_start = time.monotonic()
        for v in viewers:
            v.join(timeout=HANG_GUARD_S)
        fan_s = time.monotonic() - fan_start
        assert len(answers) == BURST_THREADS * REQUESTS_PER_THREAD
        assert set(answers) <= {200, 409}
        assert 200 in answers
        assert len(seen) == VIEWERS
        assert min(seen) >= target["seq"]
        deadline = time.monotonic() + 5
        while site.hub.open_streams and time.monotonic() < deadline:
            time.sleep(0.05)
        assert site.hub.open_streams == 0
    total = time.monotonic() - started
    print(
        f"\nload: {VIEWERS} streams, {len(answers)} control requests in {burst_s:.2f} s, "
        f"final snapshot reached all viewers in {fan_s:.2f} s, total {total:.2f} s"
    )
    assert total < HANG_GUARD_S
