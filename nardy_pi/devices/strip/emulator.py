"""The strip firmware on a pty: the host opens a real serial device and talks to the real
firmware logic (hardware/firmware/stripcore.py, loaded from the source tree).

For tests and the demo on a laptop. Faults are switches: `silent` stops all answers, `reset()`
reboots (state lost, READY banner sent), `corrupt_next(n)` flips a bit in the next n packets
received, `inject(bytes)` writes raw garbage towards the host.
"""

from __future__ import annotations

import importlib.util
import os
import select
import threading
import time
import tty
from pathlib import Path
from types import ModuleType

FIRMWARE_CORE = Path(__file__).resolve().parents[3] / "hardware" / "firmware" / "stripcore.py"


def load_firmware_core(path: Path = FIRMWARE_CORE) -> ModuleType:
    if not path.is_file():
        raise FileNotFoundError(f"strip firmware core not found at {path} (source tree only)")
    spec = importlib.util.spec_from_file_location("nardy_stripcore", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _now_ms() -> int:
    return int(time.monotonic() * 1000)


class StripEmulator:
    def __init__(self, leds: int = 28, banner_at_start: bool = True) -> None:
        self._fw = load_firmware_core()
        self.leds = leds
        self.core = self._fw.StripCore(leds, _now_ms())
        self.silent = False
        self.boots = 0
        self._corrupt = 0
        self._hit_this_packet = False
        self._lock = threading.Lock()
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)  # no echo, no newline translation: a clean binary channel
        self.port = os.ttyname(self._slave)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="strip-emulator", daemon=True)
        self._pending_banner = banner_at_start

    def __enter__(self) -> StripEmulator:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start(self) -> None:
        self._thread.start()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2.0)
        os.close(self._master)
        os.close(self._slave)

    # --- fault switches ------------------------------------------------------------------------
    def reset(self) -> None:
        """A reboot: the frame is lost and the banner goes out again."""
        with self._lock:
            self.core = self._fw.StripCore(self.leds, _now_ms())
            self._pending_banner = True

    def corrupt_next(self, packets: int) -> None:
        with self._lock:
            self._corrupt = packets

    def inject(self, data: bytes) -> None:
        os.write(self._master, data)

    # --- what the LEDs show --------------------------------------------------------------------
    def pixels(self) -> list[tuple[int, int, int]]:
        with self._lock:
            return [tuple(p) for p in self.core.pixels(_now_ms())]

    def host_lost(self) -> bool:
        with self._lock:
            return bool(self.core.host_lost(_now_ms()))

    # --- worker --------------------------------------------------------------------------------
    def _run(self) -> None:
        while not self._stop.is_set():
            with self._lock:
                if self._pending_banner:
                    self._pending_banner = False
                    self.boots += 1
                    os.write(self._master, self.core.banner())
            ready, _, _ = select.select([self._master], [], [], 0.02)
            if not ready:
                continue
            try:
                data = os.read(self._master, 4096)
            except OSError:
                return
            with self._lock:
                data = self._maybe_corrupt(data)
                reply = self.core.feed(data, _now_ms())
                if reply and not self.silent:
                    os.write(self._master, reply)

    def _maybe_corrupt(self, data: bytes) -> bytes:
        """Flip one bit in each of the next `_corrupt` packets (never creating a delimiter)."""
        if not self._corrupt:
            return data
        out = bytearray(data)
        for i, byte in enumerate(out):
            if byte == 0:
                self._hit_this_packet = False
            elif self._corrupt and not self._hit_this_packet and byte ^ 0x10:
                out[i] = byte ^ 0x10
                self._hit_this_packet = True
                self._corrupt -= 1
        return bytes(out)
