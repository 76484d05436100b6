"""The Flask app factory: pages, JSON API, event stream, all reading one `StateHub`."""

from __future__ import annotations

from dataclasses import dataclass, field

from flask import Flask, Response, g, request

from nardy_pi.web.auth import PinGate
from nardy_pi.web.controller import Controller
from nardy_pi.web.history import History
from nardy_pi.web.hub import StateHub
from nardy_pi.web.i18n import LANGUAGES, choose_language
from nardy_pi.web.payload import SnapshotEncoder
from nardy_pi.web.security import add_security_headers

LANG_COOKIE = "nardy_lang"
SESSION_COOKIE = "nardy_session"
EXTENSION_KEY = "nardy"


@dataclass(frozen=True, slots=True)
class WebConfig:
    pin: str | None = None  # None: control panel locked
    heartbeat_seconds: float = 15.0
    poll_seconds: float = 3.0  # polling fallback interval the page uses
    stream_retry_after: int = 10  # seconds, sent with 503 when streams are capped
    allowed_origins: tuple[str, ...] = ()  # extra origins besides the server's own
    session_seconds: float = 12 * 3600.0
    max_body_bytes: int = 64 * 1024


@dataclass
class WebServices:
    """What the views use; kept on `app.extensions` so blueprints need no globals."""

    hub: StateHub
    controller: Controller
    history: History
    config: WebConfig
    gate: PinGate
    encoder: SnapshotEncoder = field(default_factory=SnapshotEncoder)


def services() -> WebServices:
    from flask import current_app

    return current_app.extensions[EXTENSION_KEY]


def create_app(
    hub: StateHub,
    controller: Controller,
    history: History,
    config: WebConfig | None = None,
    gate: PinGate | None = None,
) -> Flask:
    from nardy_pi.web.api import api
    from nardy_pi.web.calibration_api import calibration_api
    from nardy_pi.web.pages import pages

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
    app.register_blueprint(calibration_api)

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
