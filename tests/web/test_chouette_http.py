"""The chouette panel over real loopback HTTP (waitress): reads are open, changes need the
same origin, a PIN session and JSON; a refused action says why and changes nothing. Then
the panel and the scoreboard's standings card in headless Chromium."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import sync_playwright

from nardy_pi.app.chouette import ChouetteSession
from nardy_pi.web.app import WebConfig, create_app
from nardy_pi.web.auth import PinGate
from nardy_pi.web.chouette_api import install
from nardy_pi.web.hub import StateHub, waiting_state
from nardy_pi.web.server import WebServer
from tests.web.helpers import PIN, Site
from tests.web.test_browser import ARGS, CHROMIUM

SCREENSHOT = Path("/tmp/nardy-chouette-panel.png")


class NoControl:
    """The board's own control actions are not under test here."""

    def execute(self, command: Any) -> None:
        raise AssertionError("no board control in this test")


class NoHistory:
    def finished_matches(self) -> list:
        return []

    def mat_text(self, match_id: str) -> str:
        raise KeyError(match_id)


@pytest.fixture
def chouette_site() -> Iterator[tuple[Site, ChouetteSession]]:
    hub = StateHub()
    app = create_app(hub, NoControl(), NoHistory(), WebConfig(pin=PIN),  # type: ignore[arg-type]
                     gate=PinGate(PIN))
    session = ChouetteSession()
    install(app, session)
    server = WebServer(app, hub, "127.0.0.1", 0)
    server.start()
    try:
        yield Site(server, hub, None, None, None), session  # type: ignore[arg-type]
    finally:
        server.stop()


def test_chouette_api_guards_and_actions(chouette_site: tuple[Site, ChouetteSession]) -> None:
    site, session = chouette_site
    assert site.get("/api/chouette").json() == {"chouette": None}
    start = {"players": ["Ann", "Ben", " Cat ", ""], "cube_mode": "single"}
    assert site.post_json("/api/chouette/start", start).status == 401
    token = site.login()
    assert site.post_json("/api/chouette/start", start, origin=None, session=token).status == 403
    assert site.post_json("/api/chouette/start", start, session=token,
                          content_type="text/plain").status == 415
    bad = site.post_json("/api/chouette/start", {"players": "Ann"}, session=token)
    assert bad.status == 400 and "players" in bad.json()["error"]
    assert site.post_json("/api/chouette/fly", {}, session=token).status == 404
    assert session.summary() is None  # nothing refused changed anything

    reply = site.post_json("/api/chouette/start", start, session=token)
    assert reply.status == 200, reply.body
    assert reply.json()["chouette"]["line"] == ["Ben", "Cat"]
    refused = site.post_json("/api/chouette/double", {"player": "Cat"}, session=token)
    assert refused.status == 409 and "only the captain" in refused.json()["error"]
    for action, body in [("double", {"player": "Ann"}), ("answer", {"player": "Ben",
                         "take": True}), ("answer", {"player": "Cat", "take": False}),
                         ("game_over", {"winner": "team", "multiplier": 2})]:
        reply = site.post_json(f"/api/chouette/{action}", body, session=token)
        assert reply.status == 200, (action, reply.body)
    shown = site.get("/api/chouette").json()["chouette"]
    assert {s["player"]: s["score"] for s in shown["scores"]} == {"Ann": -3, "Ben": 4,
                                                                   "Cat": -1}
    assert shown["box"] == "Ben" and shown["game_number"] == 2
    page = site.get("/chouette?lang=ru")
    assert page.status == 200 and "Шуэт" in page.body.decode()


def test_panel_and_scoreboard_card_in_chromium(
    chouette_site: tuple[Site, ChouetteSession], tmp_path: Any
) -> None:
    site, session = chouette_site
    with sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=CHROMIUM, headless=True, args=ARGS,
            locale="en-US", viewport={"width": 412, "height": 915})
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda err: errors.append(str(err)))
        page.goto(f"{site.origin}/chouette")
        page.fill("#ch-pin", PIN)
        page.click("#ch-login-form button")
        page.wait_for_selector("#ch-setup:not([hidden])")
        page.fill("#ch-players", "Ann\nBen\nCat\nDan")
        page.select_option("#ch-mode", "per_member")
        page.click("#ch-start button")
        page.wait_for_selector("#ch-stakes tr[data-member='Dan']")
        # Dan doubles the box on his own cube; the box takes; the box wins a gammon.
        page.click("#ch-stakes tr[data-member='Dan'] button:text('Double')")
        page.click("#ch-box-actions button:text('Take')")
        page.wait_for_selector("#ch-results button")
        page.click("#ch-results button:text('Box wins: gammon (×2)')")
        page.wait_for_function("() => document.querySelector('#ch-head').textContent"
                               ".includes('Game 2')")
        assert {s["player"]: s["score"] for s in session.summary()["scores"]} == {
            "Ann": 8, "Ben": -2, "Cat": -2, "Dan": -4}
        assert "+8" in page.inner_text("#ch-scores")
        page.screenshot(path=str(SCREENSHOT), full_page=True)  # for a person to look at

        # The scoreboard shows the standings card once a snapshot arrives.
        board = context.new_page()
        board.on("pageerror", lambda err: errors.append(str(err)))
        board.goto(f"{site.origin}/")
        site.hub.publish(replace(waiting_state(), seq=5))
        board.wait_for_selector("#chouette-card:not([hidden])", timeout=10_000)
        card = board.inner_text("#chouette-card")
        board.screenshot(path="/tmp/nardy-chouette-board.png")
        assert "Chouette" in card and "Box: Ann" in card and "+8" in card
        context.close()
    assert not errors, errors
