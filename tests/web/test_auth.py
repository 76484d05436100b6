"""PinGate: constant PIN check, per-client back-off, the global guard, session expiry."""

from __future__ import annotations

import pytest

from nardy_pi.web.auth import PinGate, client_key
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


def test_per_client_back_off_doubles_and_spares_other_clients() -> None:
    clock = FakeClock()
    gate = PinGate("4321", free_failures=3, base_delay=2, max_delay=60, clock=clock)
    for _ in range(3):
        assert gate.login("10.0.0.1", "0000").retry_after == 0  # the free tries
    assert gate.login("10.0.0.1", "0000").retry_after == 0  # 4th try: wrong, now waits
    throttled = gate.login("10.0.0.1", "4321")
    assert not throttled.ok and throttled.retry_after == pytest.approx(2)
    assert gate.login("10.0.0.2", "4321").ok  # another address is not blocked
    waits = []
    for _ in range(8):
        clock.now += gate.login("10.0.0.1", "4321").retry_after
        assert gate.login("10.0.0.1", "0000").retry_after == 0
        waits.append(gate.login("10.0.0.1", "4321").retry_after)
    assert waits[:4] == pytest.approx([4, 8, 16, 32])
    assert max(waits) == pytest.approx(60)  # capped
    clock.now += 60
    assert gate.login("10.0.0.1", "4321").ok


def test_rotating_addresses_get_one_guess_each_but_never_lock_out_a_fresh_client() -> None:
    clock = FakeClock()
    gate = PinGate("4321", free_failures=5, global_max_failures=20, clock=clock)
    for i in range(25):
        gate.login(f"10.0.1.{i}", "0000")
    # Under attack an address that failed once must wait before its next try ...
    assert gate.login("10.0.1.3", "4321").retry_after > 0
    assert gate.login("10.0.1.3", "0000").retry_after > 0
    # ... while the owner's phone, with no failures of its own, gets straight in.
    assert gate.login("10.0.0.200", "4321").ok


def test_forgotten_after_a_quiet_spell() -> None:
    clock = FakeClock()
    gate = PinGate("4321", free_failures=0, base_delay=100, forget_after=50, clock=clock)
    gate.login("a", "0000")
    assert gate.login("a", "4321").retry_after > 0
    clock.now += 51
    assert gate.login("a", "4321").ok


def test_ipv6_clients_are_throttled_per_64_prefix() -> None:
    assert client_key("2001:db8:1:2::5") == client_key("2001:db8:1:2:ffff::9")
    assert client_key("2001:db8:1:3::5") != client_key("2001:db8:1:2::5")
    assert client_key("::ffff:192.0.2.7") == "192.0.2.7"
    assert client_key("192.0.2.7") == "192.0.2.7"


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
