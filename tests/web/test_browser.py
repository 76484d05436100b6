"""Headless Chromium (Debian's /usr/bin/chromium, driven by Playwright) against the real
server: the page renders, updates live after a play, and the control panel logs in."""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Page, sync_playwright

from nardy_pi.rules.position import Position
from tests.web.helpers import PIN, EventStream, Site, running_site

CHROMIUM = "/usr/bin/chromium"
SCREENSHOT_COPY = Path("/tmp/nardy-page.png")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="module")
def chromium(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrowserContext]:
    profile = tmp_path_factory.mktemp("chromium-profile")  # empty --user-data-dir
    with sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            str(profile),
            executable_path=CHROMIUM,
            headless=True,
            args=ARGS,
            locale="ru-RU",
            viewport={"width": 412, "height": 915},
        )
        yield context
        context.close()


@pytest.fixture
def page(chromium: BrowserContext) -> Iterator[Page]:
    page = chromium.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    yield page
    page.close()
    assert not errors, errors


def test_page_updates_live_after_a_play(site: Site, page: Page, tmp_path: Path) -> None:
    page.goto(f"http://127.0.0.1:{site.port}/")
    page.wait_for_selector("#conn[data-conn='live']", timeout=10_000)
    assert page.locator("#board svg circle").count() >= 30

    site.match.roll((6, 5))  # the opening throw: white's six beats black's five
    page.wait_for_function("() => document.querySelector('#dice').dataset.values === '65'")
    assert page.inner_text("#turn").strip() == "Белые ходят"  # ru from the browser locale
    assert "шеш-беш" in page.inner_text("#dice-name")

    played = site.match.play(0)
    expected_seq = site.hub.latest()[1].seq
    page.wait_for_function(
        f"() => Number(document.body.dataset.seq) >= {expected_seq}", timeout=10_000
    )
    assert played.notation in page.inner_text("#last-move")
    assert page.inner_text("#turn").strip() == "Чёрные ходят"
    assert page.locator("#board polygon.marked").count() >= 2

    site.match.roll((4, 2))
    # Black moves a checker five points (physical 12 -> 17) with 4-2: the referee objects.
    board = site.match.position
    points = list(board.points)
    points[11] += 1
    points[16] -= 1
    site.match.misplay(Position(tuple(points), board.bar, board.off, board.turn))
    alert = next(a for a in site.state()["alerts"] if a["kind"] == "illegal_move")
    page.wait_for_selector(".alert.illegal_move")
    assert alert["message_ru"] in page.inner_text("#alerts")
    assert page.inner_text("#alerts").startswith("Неправильный ход")
    assert page.get_attribute("#dice", "data-values") == "42"

    shot = tmp_path / "scoreboard.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
    shutil.copyfile(shot, SCREENSHOT_COPY)


def test_control_panel_login_and_cube(site: Site, page: Page) -> None:
    page.goto(f"http://127.0.0.1:{site.port}/control")
    page.wait_for_selector("#login:not([hidden])")
    page.fill("#pin", "0000")
    page.click("#login-form button")
    page.wait_for_selector(".toast.error")
    assert "Неверный" in page.inner_text("#toast")
    page.fill("#pin", PIN)
    page.click("#login-form button")
    page.wait_for_selector("#panel:not([hidden])")
    assert page.input_value("#correct input[name=board]") == site.state()["board"]
    site.match.roll((3, 1))  # white opens and plays: black may double
    site.match.play(0)
    page.click("[data-cube=double]")
    page.wait_for_function("() => document.querySelector('#toast').textContent === 'Готово'")
    assert site.state()["cube_offered"] is True
    page.select_option("#new-match select[name=variant]", "long")
    page.fill("#new-match input[name=match_length]", "0")
    page.fill("#new-match input[name=white_name]", "Ашот")
    seq = site.state()["seq"]
    page.click("#new-match button[type=submit]")
    deadline = time.monotonic() + 10
    while site.state()["seq"] == seq and time.monotonic() < deadline:
        time.sleep(0.05)
    state = site.state()
    assert state["seq"] > seq
    assert (state["variant"], state["match_length"], state["white"]["name"]) == ("long", 0, "Ашот")
    # The session cookie is invisible to scripts.
    assert "nardy_session" not in page.evaluate("document.cookie")


def test_page_falls_back_to_polling_when_streams_are_capped(page: Page) -> None:
    with running_site(max_streams=1, heartbeat=0.5) as site:
        hog = EventStream(site.port)
        try:
            page.goto(f"http://127.0.0.1:{site.port}/")
            page.wait_for_selector("#conn[data-conn='polling']", timeout=10_000)
            site.match.roll((4, 3))  # an opening throw: white's 4 starts
            page.wait_for_function(
                "() => document.querySelector('#dice').dataset.values === '43'", timeout=10_000
            )
        finally:
            hog.close()
