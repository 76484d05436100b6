"""HTML pages: scoreboard, control panel, history (with .mat downloads)."""

from __future__ import annotations

import re
from dataclasses import replace

from flask import Blueprint, Response, abort, g, render_template, request

from nardy_pi.rules.notation.board_field import parse_board_field
from nardy_pi.web.board_svg import render_board
from nardy_pi.web.dice_fairness import LifetimeRolls, fairness, rolls_of_moves
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

    variants = [
        {"name": v.name, "title": v.title_ru if g.lang == "ru" else v.title_en,
         "checkers": v.checkers}
        for v in VARIANTS.values()
    ]
    return render_template("control.html", variants=variants, **_common())


@pages.get("/history")
def history() -> str | Response:
    try:
        matches = services().history.finished_matches()
    except OSError as exc:  # StoreError: the log was damaged or replaced while running
        return _unreadable(exc)
    return render_template("history.html", matches=matches, **_common())


def _unreadable(exc: OSError) -> Response:
    return Response(f"the match log cannot be read: {exc}\n", 503, mimetype="text/plain")


@pages.get("/history/<match_id>.mat")
def history_mat(match_id: str) -> Response:
    if not MATCH_ID.match(match_id):
        abort(404)
    try:
        text = services().history.mat_text(match_id)
    except KeyError:
        abort(404)
    except OSError as exc:
        return _unreadable(exc)
    return Response(
        text,
        mimetype="text/plain",
        headers={"Content-Disposition": f'attachment; filename="nardy-{match_id}.mat"'},
    )


def _lifetime() -> LifetimeRolls:
    """One reader per app, on the history's match log when it has one."""
    svc = services()
    reader = getattr(svc, "_lifetime_rolls", None)
    if reader is None:
        reader = LifetimeRolls(getattr(svc.history, "path", None))
        svc._lifetime_rolls = reader  # type: ignore[attr-defined]
    return reader


@pages.get("/dice")
def dice() -> str:
    _, state = services().hub.latest()
    reader = _lifetime()
    lifetime = reader.rolls()
    match = reader.newest_match()
    # Without a match log only the current game's moves are known.
    title = "fair_match" if match is not None else "fair_game"
    return render_template(
        "dice.html",
        match=fairness(match if match is not None else rolls_of_moves(state.moves)),
        match_title=title,
        lifetime=fairness(lifetime) if lifetime is not None else None,
        **_common(),
    )


def _count(name: str) -> int:
    value = request.args.get(name, "0")
    if not value.isdigit() or int(value) > 15:
        abort(400)
    return int(value)


@pages.get("/board.svg")
def board_preview() -> Response:
    """The board drawn for a position being corrected on the control panel (not the game's:
    nothing changes until the correction is sent)."""
    try:
        field = parse_board_field(request.args.get("board", ""))
    except ValueError:
        abort(400)
    _, state = services().hub.latest()
    white = replace(state.white, on_bar=field.bar_white, borne_off=_count("off_white"))
    black = replace(state.black, on_bar=field.bar_black, borne_off=_count("off_black"))
    preview = replace(state, points=field.points, white=white, black=black, dice=(),
                      last_move_points=())
    return Response(render_board(preview), mimetype="image/svg+xml")


@pages.get("/healthz")
def healthz() -> Response:
    return Response("ok\n", mimetype="text/plain")
