"""The strip over a serial port: a worker thread pumps `StripSession` through pyserial.

The port is opened lazily and reopened after errors (USB unplugged, device rebooting), so the
strip can come and go without touching the game. `show()` never blocks and never raises.
"""

from __future__ import annotations

import logging
import threading
import time

from nardy_pi.devices.strip.protocol import Color
from nardy_pi.devices.strip.session import SessionTiming, StripSession
from nardy_pi.state import DeviceStatus

log = logging.getLogger(__name__)


class StripLink:
    def __init__(
        self,
        port: str,
        baudrate: int = 115200,
        timing: SessionTiming | None = None,
        reopen_delay: float = 1.0,
    ) -> None:
        self.port = port
        self.baudrate = baudrate
        self.reopen_delay = reopen_delay
        self.session = StripSession(timing)
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._open_error: str | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="strip-link", daemon=True)
        self._thread.start()

    def show(self, colors: list[Color] | tuple[Color, ...], brightness: int = 255) -> None:
        with self._lock:
            self.session.set_frame(colors, brightness)

    def status(self) -> DeviceStatus:
        """ok; absent (no such port, never seen); reconnecting (port or device gone quiet)."""
        with self._lock:
            state = self.session.status(time.monotonic())
            heard = self.session.device_leds is not None
        if self._open_error is not None:
            return "reconnecting" if heard else "absent"
        return "reconnecting" if state == "absent" else state

    def close(self, blank_leds: int | None = None) -> None:
        """Stop the worker; first turn the LEDs off when `blank_leds` is given (best effort)."""
        if blank_leds is not None and self._thread is not None:
            self.show([(0, 0, 0)] * blank_leds)
            deadline = time.monotonic() + 0.5
            while time.monotonic() < deadline and not self.session.frame_acked:
                time.sleep(0.02)
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2.0)

    # --- worker -------------------------------------------------------------------------------
    def _run(self) -> None:
        import serial  # imported here so the rest of the app runs without pyserial

        while not self._stop.is_set():
            try:
                port = serial.serial_for_url(self.port, baudrate=self.baudrate, timeout=0.02)
            except (OSError, serial.SerialException) as exc:
                if self._open_error != str(exc):
                    log.warning("strip: cannot open %s: %s", self.port, exc)
                self._open_error = str(exc)
                self._stop.wait(self.reopen_delay)
                continue
            self._open_error = None
            with self._lock:
                self.session.port_opened()
            log.info("strip: opened %s", self.port)
            try:
                self._pump(port)
            except (OSError, serial.SerialException) as exc:
                self._open_error = str(exc)
                log.warning("strip: link to %s lost: %s", self.port, exc)
                self._stop.wait(self.reopen_delay)
            finally:
                port.close()

    def _pump(self, port: object) -> None:
        while not self._stop.is_set():
            data = port.read(port.in_waiting or 1)  # type: ignore[attr-defined]
            now = time.monotonic()
            with self._lock:
                if data:
                    self.session.on_bytes(data, now)
                out = self.session.poll(now)
            if out:
                port.write(out)  # type: ignore[attr-defined]
