"""The Flask app factory: pages, JSON API, event stream, all reading one `StateHub`."""

from __future__ import annotations

from flask import Flask, Response, g, request

from nardy_pi.web.api import api
from nardy_pi.web.auth import PinGate
from nardy_pi.web.controller import Controller
from nardy_pi.web.history import History
from nardy_pi.web.hub import StateHub
from nardy_pi.web.i18n import LANGUAGES, choose_language
from nardy_pi.web.pages import pages
from nardy_pi.web.security import add_security_headers
from nardy_pi.web.services import (
    EXTENSION_KEY,
    LANG_COOKIE,
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

    @app.before_request
    def pick_language() -> None:
        explicit = request.args.get("lang")
        browser = request.accept_languages.best_match(LANGUAGES)
        g.lang = choose_language(explicit, request.cookies.get(LANG_COOKIE), browser)
        g.remember_lang = explicit in LANGUAGES

    @app.after_request
    def finish(response: Response) -> Response:
        if getattr(g, "remember_lang", False):
            response.set_cookie(
                LANG_COOKIE, g.lang, max_age=365 * 86400, samesite="Lax", httponly=True
            )
        response.headers.setdefault("Vary", "Accept-Language, Cookie")
        return add_security_headers(response)

    return app
