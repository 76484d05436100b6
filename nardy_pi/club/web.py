"""The tournament page: `/` (every table at a glance), `/api/boards` (spec/club.md) and
`/api/boards/events` (server-sent events: all tables on connect, then each change).

Each table's picture is rendered once per change and shared by every open page, like the
board's own `SnapshotEncoder`.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask import Flask, Response, g, jsonify, render_template, request, send_from_directory

from nardy_pi.club.boards import BoardEntry, BoardTable
from nardy_pi.club.i18n import club_texts
from nardy_pi.club.snapshot import board_svg
from nardy_pi.web.hub import StreamsFull
from nardy_pi.web.i18n import LANGUAGES
from nardy_pi.web.language import answer_in_chosen_language
from nardy_pi.web.payload import variant_titles
from nardy_pi.web.security import add_security_headers
from nardy_pi.web.sse import RECONNECT_MS, format_event

BOARD_STATIC = Path(__file__).resolve().parent.parent / "web" / "static"


@dataclass(frozen=True, slots=True)
class ClubPageConfig:
    heartbeat_seconds: float = 15.0
    poll_seconds: float = 3.0


class TablePayloads:
    """The page's view of each table (entry + board SVG + variant titles), cached per
    version so fifty phones cost one render per change."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._cache: dict[str, tuple[int, dict[str, Any]]] = {}

    def of(self, entry: BoardEntry) -> dict[str, Any]:
        with self._lock:
            cached = self._cache.get(entry.board)
            if cached is not None and cached[0] == entry.version:
                return cached[1]
        state = entry.state
        variant = state.get("variant") if state else None
        payload = {
            **entry.to_json(),
            "board_svg": board_svg(state),
            "variant_title": variant_titles(variant) if isinstance(variant, str) else None,
        }
        with self._lock:
            self._cache[entry.board] = (entry.version, payload)
        return payload


def _encode(data: object) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def boards_stream(table: BoardTable, payloads: TablePayloads, link: Callable[[], str],
                  heartbeat_seconds: float) -> Iterator[bytes]:
    """`tables` events: every table first, then only the ones that changed."""
    version, entries = table.snapshot()
    shown_link = link()
    first = {"tables": [payloads.of(e) for e in entries], "link": shown_link, "full": True}
    yield f"retry: {RECONNECT_MS}\n\n".encode() + format_event("tables", _encode(first))
    while not table.closed:
        changed = table.wait_changes(version, heartbeat_seconds)
        now_link = link()
        if changed is None:
            if table.closed:
                return
            if now_link != shown_link:
                shown_link = now_link
                yield format_event("tables", _encode({"tables": [], "link": now_link}))
            else:
                yield format_event("heartbeat", _encode({"link": now_link}))
            continue
        version, entries = changed
        shown_link = now_link
        data = {"tables": [payloads.of(e) for e in entries], "link": now_link}
        yield format_event("tables", _encode(data))


def create_club_app(table: BoardTable, link: Callable[[], str],
                    config: ClubPageConfig | None = None) -> Flask:
    """`link()` is the page's own broker connection: "ok", "reconnecting" or "error"."""
    config = config or ClubPageConfig()
    app = Flask(__name__)
    app.config["JSON_AS_ASCII"] = False
    app.json.sort_keys = False  # type: ignore[attr-defined]
    payloads = TablePayloads()

    answer_in_chosen_language(app)

    @app.after_request
    def finish(response: Response) -> Response:
        if request.path.startswith("/api/"):
            response.headers.setdefault("Cache-Control", "no-store")
        return add_security_headers(response)

    @app.get("/")
    def page() -> str:
        _, entries = table.snapshot()
        return render_template(
            "club.html", lang=g.lang, t=club_texts(g.lang), languages=LANGUAGES,
            initial={"tables": [payloads.of(e) for e in entries], "link": link(), "full": True},
            poll_ms=int(config.poll_seconds * 1000),
            heartbeat_ms=int(config.heartbeat_seconds * 1000),
        )

    @app.get("/board-static/<path:name>")
    def board_static(name: str) -> Response:
        """The board page's stylesheet and icon, so both pages look alike."""
        return send_from_directory(BOARD_STATIC, name)

    @app.get("/api/boards")
    def boards() -> Response:
        _, entries = table.snapshot()
        return jsonify({"boards": [e.to_json() for e in entries]})

    @app.get("/api/boards/events")
    def events() -> Response:
        try:
            ticket = table.open_stream()
        except StreamsFull as err:
            response = jsonify({"ok": False, "code": "streams_full", "error": str(err)})
            response.status_code = 503
            response.headers["Retry-After"] = "10"
            return response

        def stream() -> Iterator[bytes]:
            try:
                yield from boards_stream(table, payloads, link, config.heartbeat_seconds)
            finally:
                ticket.release()

        response = Response(stream(), mimetype="text/event-stream")
        response.headers["Cache-Control"] = "no-cache"
        response.headers["X-Accel-Buffering"] = "no"
        response.call_on_close(ticket.release)
        return response

    @app.get("/healthz")
    def healthz() -> Response:
        return Response("ok\n", mimetype="text/plain")

    return app
