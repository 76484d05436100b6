"""PinGate: constant PIN check, per-client and global throttles, session expiry."""

from __future__ import annotations

import pytest

from nardy_pi.web.auth import PinGate
from tests.web.helpers import FakeClock


def test_rejects_malformed_pins() -> None:
    for pin in ("12", "abcd", "12 34", "1234567890123"):
        with pytest.raises(ValueError):
            PinGate(pin)


def test_right_pin_gives_a_session_that_expires() -> None:
    clock = FakeClock()
    gate = PinGate("4321", session_seconds=60, clock=clock)
    result = gate.login("a", "4321")
    assert result.ok and gate.valid(result.token)
    clock.now += 61
    assert not gate.valid(result.token)
    assert not gate.valid(None) and not gate.valid("")


def test_per_client_throttle_window() -> None:
    clock = FakeClock()
    gate = PinGate("4321", max_failures=3, window=100, clock=clock)
    for _ in range(3):
        assert gate.login("a", "0000").token is None
    throttled = gate.login("a", "4321")
    assert not throttled.ok and throttled.retry_after == pytest.approx(100)
    # Another client is not blocked by a's failures.
    assert gate.login("b", "4321").ok
    clock.now += 40
    assert gate.login("a", "4321").retry_after == pytest.approx(60)
    clock.now += 61
    assert gate.login("a", "4321").ok


def test_global_throttle_stops_rotating_addresses() -> None:
    clock = FakeClock()
    gate = PinGate("4321", max_failures=5, global_max_failures=6, window=100, clock=clock)
    for i in range(6):
        assert gate.login(f"10.0.0.{i}", "0000").retry_after == 0
    assert gate.login("10.0.0.99", "4321").retry_after > 0


def test_session_count_is_bounded_oldest_first() -> None:
    clock = FakeClock()
    gate = PinGate("4321", max_sessions=2, clock=clock)
    first = gate.login("a", "4321").token
    clock.now += 1
    second = gate.login("a", "4321").token
    clock.now += 1
    third = gate.login("a", "4321").token
    assert not gate.valid(first)
    assert gate.valid(second) and gate.valid(third)


def test_no_pin_means_nobody_logs_in() -> None:
    gate = PinGate(None)
    assert not gate.enabled
    assert not gate.login("a", "").ok
