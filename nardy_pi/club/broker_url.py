"""The broker address: `mqtt://[user:password@]host[:port]`, `mqtts://` for TLS.

A TLS broker with a private certificate authority names it with `?ca=/path/ca.pem`; without
it the system's trusted certificates are used. Pure parsing, so the configuration can check
an address without importing the MQTT client.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import parse_qs, unquote, urlsplit

DEFAULT_PORTS = {"mqtt": 1883, "mqtts": 8883}


@dataclass(frozen=True, slots=True)
class BrokerUrl:
    host: str
    port: int
    tls: bool = False
    username: str | None = None
    password: str | None = None
    ca_file: str | None = None

    def __str__(self) -> str:
        """The address without the password (for logs and the console)."""
        user = f"{self.username}@" if self.username else ""
        return f"{'mqtts' if self.tls else 'mqtt'}://{user}{self.host}:{self.port}"


def parse_broker_url(text: str) -> BrokerUrl:
    """`mqtt://[user:password@]host[:port][?ca=FILE]`; ValueError with a one-line reason."""
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError as exc:
        raise ValueError(f"broker URL {text!r}: {exc}") from None
    if parts.scheme not in DEFAULT_PORTS:
        raise ValueError(f"broker URL {text!r} must start with mqtt:// or mqtts://")
    if not parts.hostname:
        raise ValueError(f"broker URL {text!r} names no host")
    if parts.path not in ("", "/"):
        raise ValueError(f"broker URL {text!r} has a path; give only host and port")
    query = parse_qs(parts.query)
    unknown = sorted(set(query) - {"ca"})
    if unknown:
        raise ValueError(f"broker URL {text!r}: unknown option(s) {', '.join(unknown)}")
    ca = query.get("ca", [None])[-1]
    if ca and parts.scheme != "mqtts":
        raise ValueError(f"broker URL {text!r}: ?ca= needs mqtts://")
    return BrokerUrl(
        host=parts.hostname,
        port=port or DEFAULT_PORTS[parts.scheme],
        tls=parts.scheme == "mqtts",
        username=unquote(parts.username) if parts.username else None,
        password=unquote(parts.password) if parts.password is not None else None,
        ca_file=ca,
    )
