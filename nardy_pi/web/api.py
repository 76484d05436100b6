"""The JSON API: state (polling), event stream, PIN login, control actions, exports.

Reads are open to every viewer. Anything that changes the game goes through
`_control_request`: origin check, session cookie, JSON body, strict parsing, and only then
the controller, so a refused request never changes anything.
"""

from __future__ import annotations

import math
import threading
from typing import Any

from flask import Blueprint, Response, jsonify, request

from nardy_pi.commands import PARSERS
from nardy_pi.errors import CommandError, NardyError
from nardy_pi.web.hub import StreamsFull
from nardy_pi.web.security import RequestRejected, check_origin, read_json
from nardy_pi.web.services import SESSION_COOKIE, WebServices, services
from nardy_pi.web.sse import state_stream

api = Blueprint("api", __name__, url_prefix="/api")

# Control actions run one at a time: the controller need not be re-entrant.
_control_lock = threading.Lock()


def _error(status: int, code: str, message: str, **headers: str) -> Response:
    response = jsonify({"ok": False, "code": code, "error": message})
    response.status_code = status
    response.headers.update(headers)
    return response


def _refusal(status: int, code: str, err: NardyError) -> Response:
    """A refusal with its message key and parameters, for the page to say in its language:
    `{"ok": false, "code": ..., "error": "<english>", "key": "...", "params": {...}}`."""
    response = jsonify({"ok": False, "code": code, **err.to_json()})
    response.status_code = status
    return response


@api.errorhandler(RequestRejected)
def _rejected(err: RequestRejected) -> Response:
    return _error(err.status, err.code, err.message)


@api.errorhandler(413)
def _too_large(_err: Exception) -> Response:
    return _error(413, "too_large", "the request body is too large")


@api.errorhandler(404)
def _not_found(_err: Exception) -> Response:
    return _error(404, "not_found", "no such API endpoint")


@api.errorhandler(405)
def _bad_method(_err: Exception) -> Response:
    return _error(405, "method", "method not allowed here")


@api.after_request
def _no_store(response: Response) -> Response:
    response.headers.setdefault("Cache-Control", "no-store")
    return response


# --- viewers ----------------------------------------------------------------------------
@api.get("/state")
def state() -> Response:
    svc = services()
    version, snapshot = svc.hub.latest()
    etag = f'"{version}-{snapshot.seq}"'
    if request.headers.get("If-None-Match") == etag:
        return Response(status=304, headers={"ETag": etag})
    body = svc.encoder.encode(snapshot)
    return Response(body, mimetype="application/json", headers={"ETag": etag})


@api.get("/events")
def events() -> Response:
    svc = services()
    try:
        ticket = svc.hub.open_stream()
    except StreamsFull as err:
        retry = str(svc.config.stream_retry_after)
        return _error(503, "streams_full", str(err), **{"Retry-After": retry})
    stream = state_stream(svc.hub, svc.encoder, ticket, svc.config.heartbeat_seconds)
    response = Response(stream, mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    # WSGI close() always runs, even for a generator that never started.
    response.call_on_close(ticket.release)
    return response


# --- session ----------------------------------------------------------------------------
def _authenticated(svc: WebServices) -> bool:
    return svc.gate.valid(request.cookies.get(SESSION_COOKIE))


@api.get("/session")
def session() -> Response:
    svc = services()
    return jsonify({"enabled": svc.gate.enabled, "authenticated": _authenticated(svc)})


@api.post("/login")
def login() -> Response:
    svc = services()
    check_origin(request, svc.config.allowed_origins)
    data = read_json(request)
    pin = data.get("pin") if isinstance(data, dict) else None
    if not isinstance(pin, str):
        return _error(400, "bad_request", 'send {"pin": "digits"}')
    if not svc.gate.enabled:
        return _error(403, "no_pin", "control is locked: no PIN is configured")
    result = svc.gate.login(request.remote_addr or "?", pin)
    if result.retry_after > 0:
        wait = str(math.ceil(result.retry_after))
        return _error(429, "throttled", f"too many tries: wait {wait} s", **{"Retry-After": wait})
    if result.token is None:
        return _error(401, "bad_pin", "wrong PIN")
    response = jsonify({"ok": True})
    response.set_cookie(
        SESSION_COOKIE,
        result.token,
        max_age=int(svc.config.session_seconds),
        httponly=True,
        samesite="Strict",
        path="/",
    )
    return response


@api.post("/logout")
def logout() -> Response:
    svc = services()
    check_origin(request, svc.config.allowed_origins)
    svc.gate.logout(request.cookies.get(SESSION_COOKIE))
    response = jsonify({"ok": True})
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="Strict")
    return response


def _require_session(svc: WebServices) -> None:
    if not svc.gate.enabled:
        raise RequestRejected(403, "no_pin", "control is locked: no PIN is configured")
    if not _authenticated(svc):
        raise RequestRejected(401, "auth", "log in with the PIN first")


# --- control ----------------------------------------------------------------------------
@api.post("/control/<action>")
def control(action: str) -> Response:
    svc = services()
    check_origin(request, svc.config.allowed_origins)
    _require_session(svc)
    parser = PARSERS.get(action)
    if parser is None:
        return _refusal(404, "unknown_action", CommandError("command.unknown_action",
                                                            action=action))
    data: Any = read_json(request)
    try:
        command = parser(data)
    except CommandError as err:
        return _refusal(400, "bad_request", err)
    with _control_lock:
        try:
            svc.controller.execute(command)
        except NardyError as err:
            return _refusal(409, "refused", err)
    _, snapshot = svc.hub.latest()
    return jsonify({"ok": True, "seq": snapshot.seq})


@api.get("/export.mat")
def export_mat() -> Response:
    svc = services()
    _require_session(svc)
    with _control_lock:
        try:
            text = svc.controller.export_mat()
        except NardyError as err:
            return _refusal(409, "refused", err)
    return Response(
        text,
        mimetype="text/plain",
        headers={"Content-Disposition": 'attachment; filename="nardy-match.mat"'},
    )


@api.get("/calibration")
def calibration() -> Response:
    svc = services()
    _require_session(svc)
    view = svc.controller.calibration_view()
    return jsonify(
        {
            "has_frame": view.jpeg is not None,
            "width": view.width,
            "height": view.height,
            "corners": [list(c) for c in view.corners],
        }
    )


@api.get("/calibration/frame.jpg")
def calibration_frame() -> Response:
    svc = services()
    _require_session(svc)
    view = svc.controller.calibration_view()
    if view.jpeg is None:
        return _error(404, "no_frame", "no camera frame is available")
    return Response(view.jpeg, mimetype="image/jpeg")
