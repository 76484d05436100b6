"""The host link against the firmware logic on a pty: delivery, faults and recovery."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import pytest

from nardy_pi.devices.strip.emulator import StripEmulator, load_firmware_core
from nardy_pi.devices.strip.link import StripLink
from nardy_pi.devices.strip.protocol import Packet, PacketType, frame_payload, pack
from nardy_pi.devices.strip.session import SessionTiming

FAST = SessionTiming(ack_timeout=0.05, heartbeat=0.2, silent_after=0.5)
RED, GREEN, BLUE = (255, 0, 0), (0, 255, 0), (0, 0, 255)


def wait_for(condition: Callable[[], bool], timeout: float = 3.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return condition()


def frame(first: tuple[int, int, int], leds: int = 28) -> list[tuple[int, int, int]]:
    return [first] + [(0, 0, 0)] * (leds - 1)


@pytest.fixture
def rig() -> Iterator[tuple[StripEmulator, StripLink]]:
    emulator = StripEmulator(leds=28)
    emulator.start()
    link = StripLink(emulator.port, timing=FAST, reopen_delay=0.1)
    link.start()
    yield emulator, link
    link.close()
    emulator.close()


def test_frame_reaches_the_leds_and_link_reports_ok(rig: tuple[StripEmulator, StripLink]) -> None:
    emulator, link = rig
    link.show(frame(RED))
    assert wait_for(lambda: emulator.pixels()[0] == RED)
    assert wait_for(lambda: link.status() == "ok")
    assert link.session.device_leds == 28


def test_newest_frame_wins(rig: tuple[StripEmulator, StripLink]) -> None:
    emulator, link = rig
    for color in (RED, GREEN, BLUE, (9, 9, 9), GREEN):
        link.show(frame(color))
    assert wait_for(lambda: link.session.frame_acked)
    assert emulator.pixels()[0] == GREEN


def test_garbled_packets_are_resent(rig: tuple[StripEmulator, StripLink]) -> None:
    emulator, link = rig
    link.show(frame(RED))
    assert wait_for(lambda: link.session.frame_acked)
    emulator.corrupt_next(3)
    link.show(frame(BLUE))
    assert wait_for(lambda: emulator.pixels()[0] == BLUE)
    assert wait_for(lambda: link.session.frame_acked)
    assert emulator.core.bad_packets >= 3
    assert link.session.resends >= 3


def test_garbage_towards_the_host_is_skipped(rig: tuple[StripEmulator, StripLink]) -> None:
    emulator, link = rig
    link.show(frame(RED))
    assert wait_for(lambda: link.session.frame_acked)
    emulator.inject(b"\x07junk\xff\xfe\x00\x02\x81\x00" + b"\x55" * 40 + b"\x00")
    link.show(frame(GREEN))
    assert wait_for(lambda: emulator.pixels()[0] == GREEN)
    assert wait_for(lambda: link.session.garbled >= 2)
    assert link.status() == "ok"


def test_device_reset_mid_game_gets_the_frame_again(rig: tuple[StripEmulator, StripLink]) -> None:
    emulator, link = rig
    link.show(frame(GREEN))
    assert wait_for(lambda: emulator.pixels()[0] == GREEN)
    banners = link.session.banners_seen
    emulator.reset()
    assert wait_for(lambda: link.session.banners_seen == banners + 1)
    assert wait_for(lambda: emulator.core.frames_applied == 1)  # the rebooted core's first
    assert emulator.pixels()[0] == GREEN
    assert emulator.boots == 2


def test_silent_device_is_reported_then_recovers(rig: tuple[StripEmulator, StripLink]) -> None:
    emulator, link = rig
    link.show(frame(RED))
    assert wait_for(lambda: link.status() == "ok")
    emulator.silent = True
    assert wait_for(lambda: link.status() == "reconnecting", timeout=3.0)
    link.show(frame(BLUE))  # the game goes on: show() neither blocks nor raises
    emulator.silent = False
    assert wait_for(lambda: link.status() == "ok")
    assert wait_for(lambda: emulator.pixels()[0] == BLUE)


def test_missing_port_is_absent_and_does_not_raise() -> None:
    link = StripLink("/dev/nardy-strip-that-does-not-exist", timing=FAST, reopen_delay=0.05)
    link.start()
    link.show(frame(RED))
    time.sleep(0.3)  # several failed opens
    assert link.status() == "absent"
    link.close()


def test_firmware_shows_host_lost_after_three_silent_seconds() -> None:
    fw = load_firmware_core()
    core = fw.StripCore(28, now_ms=0)
    assert not core.host_lost(10_000)  # never heard a host: nothing to have lost
    reply = core.feed(pack(Packet(PacketType.FRAME, 1, frame_payload(frame(RED)))), 100)
    assert reply == pack(Packet(PacketType.ACK, 1))
    assert core.pixels(200)[0] == RED
    assert not core.host_lost(3000)
    core.feed(pack(Packet(PacketType.PING, 2)), 2900)
    assert not core.host_lost(5800)
    assert core.host_lost(6000)
    lost = core.pixels(6000)
    assert lost != core.pixels(200) and any(any(c) for c in lost)
    core.feed(pack(Packet(PacketType.PING, 3)), 6100)
    assert core.pixels(6200)[0] == RED


def test_firmware_rejects_malformed_frame_payload() -> None:
    core = load_firmware_core().StripCore(4)
    assert core.feed(pack(Packet(PacketType.FRAME, 1, b"\xff\x01\x02")), 0) == b""
    assert core.feed(pack(Packet(0x33, 2)), 0) == b""
    assert core.bad_packets == 2
