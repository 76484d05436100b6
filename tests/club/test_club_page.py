"""The tournament page in headless Chromium (Debian's, through Playwright) against the real
server: every table as a card with its small board, live over server-sent events, in Russian
and English, a table going offline shown at once. The tables are fed straight into the
page's table (the broker side is tested with Mosquitto elsewhere)."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, sync_playwright

from nardy_pi.club.boards import BoardTable
from nardy_pi.club.web import create_club_app
from nardy_pi.game import chouette as ch
from nardy_pi.state import MoveRecord, PlayerState, State
from nardy_pi.web.server import WebServer
from tests.web.test_browser import ARGS, CHROMIUM

SCREENSHOT = Path("/tmp/nardy-club-page.png")


def table_state(white: str, black: str, seq: int, **over: object) -> bytes:
    state = State(
        variant="long_nardy" if "long" in white else "backgammon", board="-" * 26,
        points=(2,) + (0,) * 4 + (-5,) + (0,) * 17 + (3,), turn="black", phase="moving",
        dice=(6, 4), cube_value=2, cube_owner="white", match_length=7, game_number=3,
        white=PlayerState(white, 4, 120, 0, 0), black=PlayerState(black, 2, 131, 0, 0),
        last_move=MoveRecord(5, "white", (5, 3), "8/3 6/3"), last_move_points=(8, 6, 3),
        seq=seq,
    )
    return json.dumps(replace(state, **over).to_json()).encode()  # type: ignore[arg-type]


@pytest.fixture
def site() -> Iterator[tuple[BoardTable, int, dict]]:
    table = BoardTable()
    link = {"now": "ok"}
    server = WebServer(create_club_app(table, lambda: link["now"]), table,  # type: ignore[arg-type]
                       "127.0.0.1", 0)
    server.start()
    yield table, server.port, link
    server.stop()


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[BrowserContext]:
    with sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=CHROMIUM, headless=True, args=ARGS,
            locale="ru-RU", viewport={"width": 412, "height": 915},
        )
        yield context
        context.close()


def test_tables_live_in_both_languages(site: tuple[BoardTable, int, dict],
                                       browser: BrowserContext) -> None:
    table, port, link = site
    table.receive("nardy/boards/cafe-1/status", b"online")
    table.receive("nardy/boards/cafe-1/state", table_state("Аня", "Борис", 1))
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(f"http://127.0.0.1:{port}/")
    page.wait_for_selector("#conn[data-conn='live']", timeout=10_000)
    card = page.locator("article[data-board='cafe-1']")
    text = card.inner_text()
    assert "Аня" in text and "Борис" in text and "на связи" in text
    assert "Матч до 7" in text and "Партия 3" in text and "Куб 2" in text
    assert "ходит Борис" in text and "8/3 6/3" in text
    assert card.locator(".table-board svg circle").count() >= 10
    assert page.inner_text("#link").strip() == "Брокер: в порядке"

    # A new table appears and the first goes offline: both at once, without reloading.
    link["now"] = "reconnecting"  # the page's own broker link, told with the next change
    session = ch.apply(ch.start(ch.ChouetteStarted(("Вера", "Глеб", "Дина"))),
                       ch.ChouetteGameOver("box"))
    table.receive("nardy/boards/long-2/state", table_state("long Вера", "Глеб", 5,
                                                           chouette=ch.summary(session)))
    table.receive("nardy/boards/cafe-1/status", b"offline")
    page.wait_for_selector("article[data-board='cafe-1'][data-status='offline']", timeout=5000)
    page.wait_for_selector("article[data-board='long-2']", timeout=5000)
    assert "не в сети" in page.locator("article[data-board='cafe-1']").inner_text()
    chouette = page.inner_text("article[data-board='long-2'] .table-chouette")
    assert chouette == "Шуэт, партия 2: бокс Вера, капитан Дина · Вера +2, Глеб -1, Дина -1"
    assert page.locator("article.table-card").count() == 2
    assert page.inner_text("#link").strip() == "Брокер: переподключение"
    # A bad name never reaches the page.
    table.receive("nardy/boards/<img src=x>/state", table_state("X", "Y", 1))
    table.receive("nardy/boards/cafe-1/state", table_state("Аня", "Борис", 2, winner="white",
                                                           turn=None))
    page.wait_for_function("() => document.querySelector(\"article[data-board='cafe-1']\")"
                           ".innerText.includes('Победа')", timeout=5000)
    assert page.locator("article.table-card").count() == 2
    page.screenshot(path=str(SCREENSHOT), full_page=True)

    en = browser.new_page()
    en.goto(f"http://127.0.0.1:{port}/?lang=en")
    en.wait_for_selector("#conn[data-conn='live']", timeout=10_000)
    english = en.locator("article[data-board='cafe-1']").inner_text()
    assert "offline" in english and "Match to 7" in english and "White wins" in english
    assert en.inner_text("h1, .brand").strip() == "Club tables"
    assert not errors, errors


def test_boards_api_is_exactly_the_spec(site: tuple[BoardTable, int, dict]) -> None:
    table, port, _ = site
    table.receive("nardy/boards/t1/status", b"offline")
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/boards", timeout=5) as r:
        assert r.headers["Content-Type"].startswith("application/json")
        data = json.loads(r.read())
    assert data == {"boards": [{"board": "t1", "status": "offline", "state": None,
                                "updated": data["boards"][0]["updated"]}]}


def test_the_language_switch_is_remembered_and_the_api_is_not_cached(
        site: tuple[BoardTable, int, dict]) -> None:
    """The club page chooses its language as the scoreboard does (web/language.py) and keeps
    its own headers: a switch leaves a cookie, the cookie wins over the browser, and the
    tables' API is never cached."""
    _, port, _ = site

    def get(path: str, headers: dict[str, str]):
        request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers=headers)
        with urllib.request.urlopen(request, timeout=5) as r:
            return r.headers, r.read().decode()

    headers, html = get("/?lang=ru", {"Accept-Language": "en"})
    assert 'lang="ru"' in html and "nardy_lang=ru" in headers["Set-Cookie"]
    headers, html = get("/", {"Accept-Language": "en", "Cookie": "nardy_lang=ru"})
    assert 'lang="ru"' in html and "Set-Cookie" not in headers
    assert "Accept-Language" in headers["Vary"]
    headers, _ = get("/api/boards", {})
    assert headers["Cache-Control"] == "no-store" and "Accept-Language" in headers["Vary"]
