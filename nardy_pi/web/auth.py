"""PIN login for the control panel: sessions for cookies, and throttled guessing.

A 4-6 digit PIN is weak on its own; what keeps it useful is the throttle: a client gets
`max_failures` wrong tries per `window` seconds, and every client together gets
`global_max_failures`, so rotating addresses does not help. While throttled, even the right
PIN is refused, otherwise a throttle would still confirm guesses.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

Clock = Callable[[], float]


@dataclass(frozen=True, slots=True)
class LoginResult:
    token: str | None  # session token on success
    retry_after: float = 0.0  # > 0 when throttled: seconds until the next try is accepted

    @property
    def ok(self) -> bool:
        return self.token is not None


class PinGate:
    def __init__(
        self,
        pin: str | None,
        *,
        max_failures: int = 5,
        global_max_failures: int = 20,
        window: float = 300.0,
        session_seconds: float = 12 * 3600.0,
        max_sessions: int = 32,
        clock: Clock = time.monotonic,
    ) -> None:
        if pin is not None and (not pin.isdigit() or not 4 <= len(pin) <= 12):
            raise ValueError("the control PIN must be 4 to 12 digits")
        self._pin = pin
        self._max_failures = max_failures
        self._global_max = global_max_failures
        self._window = window
        self._session_seconds = session_seconds
        self._max_sessions = max_sessions
        self._clock = clock
        self._lock = threading.Lock()
        self._failures: dict[str, deque[float]] = {}
        self._all_failures: deque[float] = deque()
        self._sessions: dict[str, float] = {}  # token -> expiry

    @property
    def enabled(self) -> bool:
        """No PIN configured means the control panel stays locked (secure default)."""
        return self._pin is not None

    def login(self, client: str, pin: str) -> LoginResult:
        with self._lock:
            now = self._clock()
            wait = self._throttle_wait(client, now)
            if wait > 0:
                return LoginResult(None, wait)
            if self._pin is None or not hmac.compare_digest(
                pin.encode("utf-8"), self._pin.encode("utf-8")
            ):
                self._failures.setdefault(client, deque()).append(now)
                self._all_failures.append(now)
                return LoginResult(None, 0.0)
            self._failures.pop(client, None)
            return LoginResult(self._new_session(now))

    def valid(self, token: str | None) -> bool:
        if not token:
            return False
        with self._lock:
            expiry = self._sessions.get(token)
            if expiry is None:
                return False
            if expiry <= self._clock():
                del self._sessions[token]
                return False
            return True

    def logout(self, token: str | None) -> None:
        with self._lock:
            self._sessions.pop(token or "", None)

    # --- internals (lock held) -----------------------------------------------------------
    def _prune(self, stamps: deque[float], now: float) -> None:
        while stamps and stamps[0] <= now - self._window:
            stamps.popleft()

    def _throttle_wait(self, client: str, now: float) -> float:
        self._prune(self._all_failures, now)
        mine = self._failures.get(client)
        if mine is not None:
            self._prune(mine, now)
            if not mine:
                del self._failures[client]
        waits = [0.0]
        if mine and len(mine) >= self._max_failures:
            waits.append(mine[-self._max_failures] + self._window - now)
        if len(self._all_failures) >= self._global_max:
            waits.append(self._all_failures[-self._global_max] + self._window - now)
        return max(waits)

    def _new_session(self, now: float) -> str:
        for token, expiry in list(self._sessions.items()):
            if expiry <= now:
                del self._sessions[token]
        while len(self._sessions) >= self._max_sessions:
            oldest = min(self._sessions, key=self._sessions.__getitem__)
            del self._sessions[oldest]
        token = secrets.token_urlsafe(32)
        self._sessions[token] = now + self._session_seconds
        return token
