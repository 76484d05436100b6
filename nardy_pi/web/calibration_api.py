"""The calibration wizard's endpoints: find the corners, calibrate with them, and the overlay
of what was read. They use the controller's `recalibrator` (`nardy_pi.app.recalibrate`) when
it has one; without it the page says so and the user taps the corners of a saved frame.

Answers carry `key` and `params` (web/i18n.py) besides the English `error`.
"""

from __future__ import annotations

import threading
from typing import Any

from flask import Blueprint, Response, jsonify, request

from nardy_pi.commands import parse_calibrate
from nardy_pi.errors import CommandError
from nardy_pi.web.security import RequestRejected, check_origin, read_json
from nardy_pi.web.services import services

calibration_api = Blueprint("calibration_api", __name__, url_prefix="/api/calibration")

# One calibration at a time: each one reads a whole frame and fits a colour model.
_busy = threading.Lock()


def _refused(status: int, key: str, message: str, **params: Any) -> Response:
    response = jsonify({"ok": False, "code": key, "key": key, "params": params,
                        "error": message})
    response.status_code = status
    return response


@calibration_api.errorhandler(RequestRejected)
def _rejected(err: RequestRejected) -> Response:
    response = jsonify({"ok": False, "code": err.code, "error": err.message})
    response.status_code = err.status
    return response


def _guard() -> tuple[Any, Response | None]:
    """The recalibrator, or the refusal to send (origin, session, no support)."""
    from nardy_pi.web.api import _require_session

    svc = services()
    check_origin(request, svc.config.allowed_origins)
    _require_session(svc)
    recalibrator = getattr(svc.controller, "recalibrator", None)
    if recalibrator is None:
        return None, _refused(501, "calibration.unsupported",
                              "this device cannot calibrate from the page")
    return recalibrator, None


def _failed(err: Exception) -> Response:
    key = getattr(err, "key", "calibration.failed")
    params = dict(getattr(err, "params", {}))
    params.setdefault("reason", str(err))
    return _refused(422, key, str(err), **params)


@calibration_api.post("/find")
def find() -> Response:
    recalibrator, refusal = _guard()
    if refusal is not None:
        return refusal
    read_json(request)
    if not hasattr(recalibrator, "find_corners"):
        return _refused(501, "calibration.no_finder", "tap the four corners")
    with _busy:
        try:
            corners = recalibrator.find_corners()
        except RuntimeError as err:
            return _failed(err)
    return jsonify({"ok": True, "corners": [list(c) for c in corners]})


@calibration_api.post("/apply")
def apply() -> Response:
    recalibrator, refusal = _guard()
    if refusal is not None:
        return refusal
    try:
        command = parse_calibrate(read_json(request))
    except CommandError as err:
        return _refused(400, "calibration.bad_corners", str(err))
    if not _busy.acquire(timeout=30):
        return _refused(409, "refusal.busy", "a calibration is already running")
    try:
        recalibrator.apply(command.corners)
    except RuntimeError as err:
        return _failed(err)
    finally:
        _busy.release()
    return jsonify({"ok": True, "corners": [list(c) for c in command.corners]})


@calibration_api.get("/overlay.jpg")
def overlay() -> Response:
    from nardy_pi.web.api import _require_session

    svc = services()
    _require_session(svc)
    jpeg = getattr(getattr(svc.controller, "recalibrator", None), "overlay_jpeg", None)
    if jpeg is None:
        return _refused(404, "calibration.no_frame", "no calibration attempt yet")
    return Response(jpeg, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})
