"""Request guards for control actions: same-origin check, JSON-only bodies, headers.

Control requests need all three of: a session cookie (HttpOnly, SameSite=Strict), an
`Origin` equal to this server's own origin (or a configured one), and a JSON body. A form
post from another site cannot satisfy them, and a cross-site `fetch` with JSON would need
a CORS preflight that we never grant.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Request, Response

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
        return json.loads(raw)
    except UnicodeDecodeError:
        raise RequestRejected(400, "bad_json", "the body is not UTF-8 text") from None
    except json.JSONDecodeError as err:
        message = f"malformed JSON: {err}"[:JSON_ERROR_LIMIT]
        raise RequestRejected(400, "bad_json", message) from None


def add_security_headers(response: Response) -> Response:
    response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    response.headers.setdefault("X-Frame-Options", "DENY")
    return response
