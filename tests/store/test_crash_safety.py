"""Crash safety: a writer process is SIGKILLed at random moments, 100+ times.

After every kill the database must open, every stored match must replay, and every event
the writer acknowledged (it acknowledges only after `apply` returned, i.e. after COMMIT)
must be in the log with exactly the acknowledged content. The writer is a forked child of
this process so that each round costs milliseconds, not an interpreter start.
"""

from __future__ import annotations

import os
import random
import select
import signal
import time
from pathlib import Path

from nardy_pi.game.engine import replay
from nardy_pi.game.events import event_to_json
from nardy_pi.store.eventlog import EventStore
from tests.store.crash_writer import write_forever

ROUNDS = 110
WRITER_START_SECONDS = 60.0  # a generous bound for a loaded machine to start the writer


def _run_and_kill(db: Path, seed: int, delay: float, at_start: bool) -> list[tuple[int, int, str]]:
    """Start a writer, kill it `delay` seconds into its life (`at_start`: from its start-up)
    or into its writing (from its first acknowledgement); return its acknowledgements.

    Counting from the first acknowledgement keeps the kills inside the writing however slow
    a loaded machine is to start the writer: a fixed delay from the fork may end every round
    before the first COMMIT there, and then the test proves nothing."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the writer
        os.close(read_fd)
        try:
            write_forever(str(db), write_fd, seed)
        finally:
            os._exit(1)
    os.close(write_fd)
    received = b""
    if not at_start:
        deadline = time.monotonic() + WRITER_START_SECONDS
        while b"\n" not in received and time.monotonic() < deadline:
            ready, _, _ = select.select([read_fd], [], [], 0.5)
            if ready:
                chunk = os.read(read_fd, 65536)
                if not chunk:
                    break  # the writer died by itself: its acknowledgements are still read
                received += chunk
    time.sleep(delay)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    with os.fdopen(read_fd, "rb") as pipe:
        received += pipe.read()
    if not at_start:
        assert b"\n" in received, f"the writer wrote nothing in {WRITER_START_SECONDS} s"
    acks = []
    for line in received.decode().splitlines():
        parts = line.split(" ", 2)
        if len(parts) == 3 and line.endswith("}"):  # a half-written last line is no ack
            acks.append((int(parts[0]), int(parts[1]), parts[2]))
    return acks


def test_sigkill_at_random_moments_loses_no_acknowledged_event(tmp_path: Path) -> None:
    db = tmp_path / "crash.db"
    rng = random.Random(2024)
    acknowledged: dict[tuple[int, int], str] = {}
    for round_no in range(ROUNDS):
        at_start = round_no % 4 == 0  # some kills land in the start-up (opening, recovery)
        delay = rng.random() * (0.05 if at_start else 0.04)
        for match_id, seq, payload in _run_and_kill(db, round_no, delay, at_start):
            acknowledged[(match_id, seq)] = payload
        with EventStore(db) as store:  # it opens (and recovers the WAL)
            ids = store.match_ids()
            for match_id in ids[-2:]:  # the matches this round may have touched
                events = store.events(match_id)
                replay(events)  # every stored match replays
                for seq, event in enumerate(events, start=1):
                    want = acknowledged.get((match_id, seq))
                    assert want is None or want == event_to_json(event)
            stored = {m: len(store.events(m)) for m in ids}
        missing = [k for k in acknowledged if stored.get(k[0], 0) < k[1]]
        assert not missing, f"round {round_no}: acknowledged events lost: {missing[:5]}"
    assert len(acknowledged) > ROUNDS  # the writer really wrote between the kills
