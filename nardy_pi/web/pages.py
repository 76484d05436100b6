"""HTML pages: scoreboard, control panel, history (with .mat downloads)."""

from __future__ import annotations

import re

from flask import Blueprint, Response, abort, g, render_template

from nardy_pi.web.i18n import LANGUAGES, texts
from nardy_pi.web.payload import build_payload
from nardy_pi.web.services import services

pages = Blueprint("pages", __name__)

MATCH_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def _common() -> dict[str, object]:
    lang = g.lang
    return {"lang": lang, "t": texts(lang), "languages": LANGUAGES}


@pages.get("/")
def scoreboard() -> str:
    svc = services()
    _, state = svc.hub.latest()
    return render_template(
        "scoreboard.html",
        payload=build_payload(state),
        poll_ms=int(svc.config.poll_seconds * 1000),
        heartbeat_ms=int(svc.config.heartbeat_seconds * 1000),
        **_common(),
    )


@pages.get("/control")
def control() -> str:
    from nardy_pi.rules.variants import VARIANTS

    variants = [(v.name, v.title_ru if g.lang == "ru" else v.title_en) for v in VARIANTS.values()]
    return render_template("control.html", variants=variants, **_common())


@pages.get("/history")
def history() -> str:
    matches = services().history.finished_matches()
    return render_template("history.html", matches=matches, **_common())


@pages.get("/history/<match_id>.mat")
def history_mat(match_id: str) -> Response:
    if not MATCH_ID.match(match_id):
        abort(404)
    try:
        text = services().history.mat_text(match_id)
    except KeyError:
        abort(404)
    return Response(
        text,
        mimetype="text/plain",
        headers={"Content-Disposition": f'attachment; filename="nardy-{match_id}.mat"'},
    )


@pages.get("/healthz")
def healthz() -> Response:
    return Response("ok\n", mimetype="text/plain")
