"""PIN login for the control panel: sessions for cookies, and per-client back-off on guessing.

A 4-6 digit PIN is weak on its own; what keeps it useful is the back-off. Each client (an
IPv4 address, or an IPv6 /64 since one host may hold a whole prefix) gets `free_failures`
wrong tries, then must wait `base_delay` seconds, doubling with each further failure up to
`max_delay`. While a client waits, even the right PIN is refused from it, otherwise the wait
would still confirm guesses.

Rotating addresses is answered without ever locking out the owner: when many failures come
from everywhere at once (`global_max_failures` within `global_window`), the free tries drop
to none, so each address gets one guess before it has to wait. A client with no failures
of its own is never refused, so the right PIN from another phone always gets in.
"""

from __future__ import annotations

import hmac
import ipaddress
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

Clock = Callable[[], float]
MAX_TRACKED_CLIENTS = 4096  # bounded memory against address-rotating floods


@dataclass(frozen=True, slots=True)
class LoginResult:
    token: str | None  # session token on success
    retry_after: float = 0.0  # > 0 when throttled: seconds until the next try is accepted

    @property
    def ok(self) -> bool:
        return self.token is not None


@dataclass(slots=True)
class _Failures:
    count: int
    last: float


def client_key(address: str) -> str:
    """The throttling unit for a remote address: the address, or its /64 for IPv6."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


class PinGate:
    def __init__(
        self,
        pin: str | None,
        *,
        free_failures: int = 3,
        base_delay: float = 2.0,
        max_delay: float = 300.0,
        forget_after: float = 900.0,
        global_max_failures: int = 20,
        global_window: float = 300.0,
        session_seconds: float = 12 * 3600.0,
        max_sessions: int = 32,
        clock: Clock = time.monotonic,
    ) -> None:
        if pin is not None and (not pin.isdigit() or not 4 <= len(pin) <= 12):
            raise ValueError("the control PIN must be 4 to 12 digits")
        self._pin = pin
        self._free = free_failures
        self._base = base_delay
        self._max_delay = max_delay
        self._forget = forget_after
        self._global_max = global_max_failures
        self._global_window = global_window
        self._session_seconds = session_seconds
        self._max_sessions = max_sessions
        self._clock = clock
        self._lock = threading.Lock()
        self._failures: dict[str, _Failures] = {}
        # the latest failures from anywhere; only whether `global_max` fit in the window matters
        self._all_failures: deque[float] = deque(maxlen=max(1, global_max_failures))
        self._sessions: dict[str, float] = {}  # token -> expiry

    @property
    def enabled(self) -> bool:
        """No PIN configured means the control panel stays locked (secure default)."""
        return self._pin is not None

    def login(self, client: str, pin: str) -> LoginResult:
        key = client_key(client)
        with self._lock:
            now = self._clock()
            wait = self._wait(key, now)
            if wait > 0:
                return LoginResult(None, wait)
            if self._pin is None or not hmac.compare_digest(
                pin.encode("utf-8"), self._pin.encode("utf-8")
            ):
                self._record_failure(key, now)
                return LoginResult(None, 0.0)
            self._failures.pop(key, None)
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
    def _under_attack(self, now: float) -> bool:
        stamps = self._all_failures
        while stamps and stamps[0] <= now - self._global_window:
            stamps.popleft()
        return len(stamps) >= self._global_max

    def _wait(self, key: str, now: float) -> float:
        record = self._failures.get(key)
        if record is None:
            return 0.0
        if now - record.last >= self._forget:
            del self._failures[key]
            return 0.0
        free = 0 if self._under_attack(now) else self._free
        over = record.count - free
        if over <= 0:
            return 0.0
        delay = min(self._max_delay, self._base * 2 ** min(over - 1, 30))
        return max(0.0, record.last + delay - now)

    def _record_failure(self, key: str, now: float) -> None:
        self._all_failures.append(now)
        record = self._failures.get(key)
        if record is None:
            if len(self._failures) >= MAX_TRACKED_CLIENTS:
                oldest = min(self._failures, key=lambda k: self._failures[k].last)
                del self._failures[oldest]
            self._failures[key] = _Failures(1, now)
        else:
            record.count += 1
            record.last = now

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
