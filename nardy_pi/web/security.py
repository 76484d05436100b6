"""Request guards: Host allow-list, same-origin check, JSON-only bodies, headers.

Every request must name an allowed Host (DNS rebinding: a page on evil.example whose name
is re-pointed at the board still sends `Host: evil.example`). Allowed are the configured
names, `nardy.local`, `localhost`, this machine's own name, and any IP literal: a browser
sends an address as Host only when it connected to that very address, so an address cannot
be a rebinding name.

Control requests need all three of: a session cookie (HttpOnly, SameSite=Strict), an
`Origin` equal to this server's own origin (or a configured one), and a JSON body. A form
post from another site cannot satisfy them, and a cross-site `fetch` with JSON would need
a CORS preflight that we never grant. With the Host checked first, "own origin" is ours.
"""

from __future__ import annotations

import ipaddress
import json
import socket
from typing import Any

from flask import Request, Response

from nardy_pi.validation import parse_json

JSON_ERROR_LIMIT = 120  # characters of a JSON syntax error echoed back

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)


class RequestRejected(Exception):
    """A request refused before it reaches the controller; carries the HTTP answer."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


DEFAULT_HOST_NAMES = ("nardy.local", "localhost")


def allowed_host_names(configured: tuple[str, ...] = ()) -> frozenset[str]:
    """Host names (no port, lower case) this server answers to, besides IP literals."""
    own = socket.gethostname().lower().rstrip(".")
    names = {*DEFAULT_HOST_NAMES, own, f"{own}.local", *(c.lower().rstrip(".") for c in configured)}
    return frozenset(n for n in names if n)


def _host_name(host: str) -> str:
    """The name part of a Host header: `[::1]:8080` -> `::1`, `Nardy.Local.:80` -> `nardy.local`."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    name, _, port = host.rpartition(":")
    if name and port.isdigit():
        host = name
    return host.rstrip(".")


def _is_ip_literal(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def check_host(request: Request, allowed: frozenset[str]) -> None:
    """Refuse a request whose Host is not one of ours (400): DNS rebinding."""
    raw = request.headers.get("Host", "")
    name = _host_name(raw)
    if not name or not (name in allowed or _is_ip_literal(name)):
        shown = raw[:60].encode("ascii", "replace").decode("ascii")
        raise RequestRejected(
            400, "host", f"unknown host {shown!r}: open the page by the board's name or address"
        )


def own_origin(request: Request) -> str:
    return f"{request.scheme}://{request.host}".lower()


def check_origin(request: Request, extra_allowed: tuple[str, ...] = ()) -> None:
    """Refuse a state-changing request whose Origin is missing or foreign (403)."""
    origin = request.headers.get("Origin")
    if not origin:
        raise RequestRejected(403, "origin", "control requests must carry an Origin header")
    allowed = {own_origin(request), *(o.lower().rstrip("/") for o in extra_allowed)}
    if origin.lower().rstrip("/") not in allowed:
        raise RequestRejected(403, "origin", f"origin {origin} is not allowed")


def read_json(request: Request) -> Any:
    """The request's JSON body; 415 for another content type, 400 for malformed JSON."""
    if request.mimetype != "application/json":
        raise RequestRejected(
            415, "content_type", "send the request as JSON (Content-Type: application/json)"
        )
    raw = request.get_data(cache=False)
    if not raw.strip():
        return {}
    try:
        return parse_json(raw)
    except json.JSONDecodeError as err:
        message = f"malformed JSON: {err}"[:JSON_ERROR_LIMIT]
        raise RequestRejected(400, "bad_json", message) from None
    except ValueError as err:  # InvalidField: too deep, too long, not UTF-8
        raise RequestRejected(400, "bad_json", str(err)[:JSON_ERROR_LIMIT]) from None


def add_security_headers(response: Response) -> Response:
    response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    response.headers.setdefault("X-Frame-Options", "DENY")
    return response
