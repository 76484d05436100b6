"""The Flask app factory: pages, JSON API, event stream, all reading one `StateHub`."""

from __future__ import annotations

from flask import Flask, Response, jsonify, request

from nardy_pi.web.api import api
from nardy_pi.web.auth import PinGate
from nardy_pi.web.calibration_api import calibration_api
from nardy_pi.web.controller import Controller
from nardy_pi.web.history import History
from nardy_pi.web.hub import StateHub
from nardy_pi.web.language import answer_in_chosen_language
from nardy_pi.web.pages import pages
from nardy_pi.web.security import (
    RequestRejected,
    add_security_headers,
    allowed_host_names,
    check_host,
)
from nardy_pi.web.services import (
    EXTENSION_KEY,
    SESSION_COOKIE,
    WebConfig,
    WebServices,
    services,
)

__all__ = ["SESSION_COOKIE", "WebConfig", "WebServices", "create_app", "services"]

def create_app(
    hub: StateHub,
    controller: Controller,
    history: History,
    config: WebConfig | None = None,
    gate: PinGate | None = None,
) -> Flask:
    config = config or WebConfig()
    app = Flask(__name__)
    app.config["MAX_CONTENT_LENGTH"] = config.max_body_bytes
    app.config["JSON_AS_ASCII"] = False
    app.extensions[EXTENSION_KEY] = WebServices(
        hub=hub,
        controller=controller,
        history=history,
        config=config,
        gate=gate or PinGate(config.pin, session_seconds=config.session_seconds),
    )
    app.register_blueprint(pages)
    app.register_blueprint(api)
    hosts = allowed_host_names(config.allowed_hosts)

    @app.errorhandler(RequestRejected)
    def rejected(err: RequestRejected) -> Response:
        response = jsonify({"ok": False, "code": err.code, "error": err.message})
        response.status_code = err.status
        return response

    @app.before_request
    def guard() -> None:
        check_host(request, hosts)
    app.register_blueprint(calibration_api)

    answer_in_chosen_language(app)

    @app.after_request
    def finish(response: Response) -> Response:
        return add_security_headers(response)

    return app
