"""The chouette panel: `/chouette` (set-up, cube actions, results, standings) and its JSON API
`/api/chouette` (read, open to viewers) and `/api/chouette/<action>` (changes: the same
guards as the control panel: same origin, PIN session, JSON body).

A blueprint of its own, registered by `chouette_pages` next to the board's pages, so the
scoreboard and control panel stay as they are.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, Flask, Response, current_app, g, jsonify, render_template, request

from nardy_pi.game import chouette as ch
from nardy_pi.game.errors import IllegalEventError
from nardy_pi.web.app import SESSION_COOKIE, services
from nardy_pi.web.i18n import LANGUAGES, texts
from nardy_pi.web.security import RequestRejected, check_origin, read_json

EXTENSION_KEY = "nardy_chouette"
chouette = Blueprint("chouette", __name__)



def chouette_texts(language: str) -> dict[str, str]:
    return texts(language)  # the chouette panel's words live in web/i18n.py with the rest


def install(app: Flask, session: Any) -> None:
    """Serve the chouette panel of `session` (an `app.chouette.ChouetteSession`)."""
    app.extensions[EXTENSION_KEY] = session
    app.register_blueprint(chouette)


def _session() -> Any:
    return current_app.extensions[EXTENSION_KEY]


def _error(status: int, code: str, message: str) -> Response:
    response = jsonify({"ok": False, "code": code, "error": message})
    response.status_code = status
    return response


@chouette.errorhandler(RequestRejected)
def _rejected(err: RequestRejected) -> Response:
    return _error(err.status, err.code, err.message)


@chouette.get("/chouette")
def page() -> str:
    lang = g.lang
    return render_template("chouette.html", lang=lang, t=chouette_texts(lang),
                           languages=LANGUAGES)


@chouette.get("/api/chouette")
def read() -> Response:
    response = jsonify({"chouette": _session().summary()})
    response.headers["Cache-Control"] = "no-store"
    return response


def _text(data: dict[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str):
        raise ValueError(f'send "{key}" as a text')
    return value


def _start(data: dict[str, Any]) -> ch.ChouetteEvent:
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise ValueError('send "players" as a list of names')
    return ch.ChouetteStarted(tuple(p.strip() for p in players if p.strip()),
                              str(data.get("cube_mode", "single")))


def _double(data: dict[str, Any]) -> ch.ChouetteEvent:
    to = data.get("to", [])
    if not isinstance(to, list) or not all(isinstance(p, str) for p in to):
        raise ValueError('"to" is a list of names')
    return ch.ChouetteDouble(_text(data, "player"), tuple(to))


def _answer(data: dict[str, Any]) -> ch.ChouetteEvent:
    if not isinstance(data.get("take"), bool):
        raise ValueError('send "take": true or false')
    return ch.ChouetteAnswer(_text(data, "player"), data["take"])


def _game_over(data: dict[str, Any]) -> ch.ChouetteEvent:
    multiplier = data.get("multiplier", 1)
    if type(multiplier) is not int:
        raise ValueError('"multiplier" is 1, 2 or 3')
    return ch.ChouetteGameOver(_text(data, "winner"), multiplier)


PARSERS: dict[str, Callable[[dict[str, Any]], ch.ChouetteEvent]] = {
    "start": _start,
    "double": _double,
    "answer": _answer,
    "game_over": _game_over,
    "join": lambda d: ch.ChouetteJoin(_text(d, "player").strip()),
    "leave": lambda d: ch.ChouetteLeave(_text(d, "player")),
}


@chouette.post("/api/chouette/<action>")
def change(action: str) -> Response:
    svc = services()
    check_origin(request, svc.config.allowed_origins)
    if not svc.gate.enabled:
        raise RequestRejected(403, "no_pin", "control is locked: no PIN is configured")
    if not svc.gate.valid(request.cookies.get(SESSION_COOKIE)):
        raise RequestRejected(401, "auth", "log in with the PIN first")
    parser = PARSERS.get(action)
    if parser is None:
        return _error(404, "unknown_action", f"unknown chouette action {action!r}")
    data = read_json(request)
    if not isinstance(data, dict):
        return _error(400, "bad_request", "send a JSON object")
    try:
        event = parser(data)
    except ValueError as exc:
        return _error(400, "bad_request", str(exc))
    session = _session()
    try:
        if isinstance(event, ch.ChouetteStarted):
            session.begin(event)
        else:
            session.act(event)
    except IllegalEventError as exc:
        return _error(409, "refused", str(exc))
    return jsonify({"ok": True, "chouette": session.summary()})
