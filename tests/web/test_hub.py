"""StateHub: newest-wins hand-over between threads, and the stream cap."""

from __future__ import annotations

import threading
import time
from dataclasses import replace

import pytest

from nardy_pi.web.hub import StateHub, StreamsFull, waiting_state


def test_wait_newer_wakes_on_publish_from_another_thread() -> None:
    hub = StateHub()
    version, state = hub.latest()
    newer = replace(state, seq=5, phase="rolling")
    threading.Timer(0.05, hub.publish, args=(newer,)).start()
    got = hub.wait_newer(version, timeout=5)
    assert got is not None
    assert got[1] is newer


def test_wait_newer_times_out_without_news() -> None:
    hub = StateHub()
    version, _ = hub.latest()
    started = time.monotonic()
    assert hub.wait_newer(version, timeout=0.1) is None
    assert time.monotonic() - started >= 0.09


def test_a_slow_reader_sees_only_the_newest_state() -> None:
    hub = StateHub()
    version, state = hub.latest()
    for seq in range(1, 6):
        hub.publish(replace(state, seq=seq))
    got = hub.wait_newer(version, timeout=0)
    assert got is not None and got[1].seq == 5


def test_republishing_the_same_seq_still_wakes_readers() -> None:
    hub = StateHub()
    version, state = hub.latest()
    hub.publish(state)
    assert hub.wait_newer(version, timeout=0) is not None


def test_close_wakes_waiters_and_they_get_nothing() -> None:
    hub = StateHub()
    version, _ = hub.latest()
    threading.Timer(0.05, hub.close).start()
    started = time.monotonic()
    assert hub.wait_newer(version, timeout=5) is None
    assert time.monotonic() - started < 2
    assert hub.closed


def test_stream_cap_and_idempotent_release() -> None:
    hub = StateHub(max_streams=2)
    a = hub.open_stream()
    b = hub.open_stream()
    with pytest.raises(StreamsFull):
        hub.open_stream()
    a.release()
    a.release()  # second release must not free someone else's slot
    assert hub.open_streams == 1
    c = hub.open_stream()
    with pytest.raises(StreamsFull):
        hub.open_stream()
    b.release()
    c.release()
    assert hub.open_streams == 0


def test_waiting_state_is_an_empty_board() -> None:
    state = waiting_state()
    assert state.points == (0,) * 24
    assert state.turn is None
    assert len(state.board) == 26
