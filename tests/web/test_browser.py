"""Headless Chromium (driven by Playwright) against the real server: the page renders and
updates live, reads right on a phone and a desktop in both languages, shows no English on the
Russian page through a whole match, and the control panel's flows (confirm, cube, correct by
tapping, calibrate) work end to end.

The browser is `$CHROMIUM` if set, else `chromium` / `chromium-browser` on PATH (`bash
tests/run.sh` installs Debian's package when it may); without one the module skips saying so.
One browser for the module; pages are reused where a test allows it.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Page, sync_playwright

from nardy_pi.commands import CubeAction, NewMatch
from nardy_pi.game.settings import MatchSettings
from nardy_pi.rules.position import Position
from nardy_pi.web.move_text import physical_move
from tests.web.helpers import PIN, EventStream, Site, running_site


def find_chromium() -> str | None:
    """The Chromium binary to drive: $CHROMIUM, else one on PATH."""
    explicit = os.environ.get("CHROMIUM")
    if explicit:
        return explicit if os.access(explicit, os.X_OK) else None
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


CHROMIUM = find_chromium()
if CHROMIUM is None:
    pytest.skip(
        "no Chromium: set CHROMIUM=/path/to/chromium or install it (apt-get install chromium; "
        "bash tests/run.sh does this as root)",
        allow_module_level=True,
    )
SCREENSHOT_COPY = Path("/tmp/nardy-page.png")
SHOTS = Path("/tmp/nardy-shots")  # kept after the run, to look at
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
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
# Latin words allowed on the Russian page: the language switch, "PIN-код" and the match
# file's format name (.mat).
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
ALLOWED_LATIN = {"EN", "RU", "PIN", "mat"}


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


@pytest.fixture(scope="module")
def camera_site() -> Iterator[Site]:
    with running_site(camera=True) as site:
        yield site


def english_on(page: Page) -> list[str]:
    words = LATIN_WORD.findall(page.inner_text("body"))
    return sorted({w for w in words if w not in ALLOWED_LATIN})


def wait_seq(page: Page, site: Site) -> None:
    seq = site.hub.latest()[1].seq
    page.wait_for_function(f"() => Number(document.body.dataset.seq) >= {seq}", timeout=10_000)


def wait_state(site: Site, test, timeout: float = 10.0) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = site.state()
        if test(state):
            return state
        time.sleep(0.05)
    raise AssertionError(f"state never matched: {site.state()}")


def log_in(page: Page, site: Site, lang: str = "ru") -> None:
    page.goto(f"http://127.0.0.1:{site.port}/control?lang={lang}")
    page.wait_for_selector("#login:not([hidden]), #panel:not([hidden])")
    if page.locator("#login").is_visible():  # the browser may still hold a session
        page.fill("#pin", PIN)
        page.click("#login-form button")
        page.wait_for_selector("#panel:not([hidden])")
    page.wait_for_selector("#edit-board svg")


# --- the scoreboard ----------------------------------------------------------------------------
def test_page_updates_live_after_a_play(site: Site, page: Page, tmp_path: Path) -> None:
    page.goto(f"http://127.0.0.1:{site.port}/?lang=ru")
    page.wait_for_selector("#conn[data-conn='live']", timeout=10_000)
    assert page.locator("#board svg circle").count() >= 30

    site.match.roll((5, 6))  # the opening throw: black's six beats white's five
    page.wait_for_function("() => document.querySelector('#dice').dataset.values === '65'")
    assert page.inner_text("#turn").strip() == "Чёрные ходят"
    assert "шеш-беш" in page.inner_text("#dice-name")

    black = site.match.play(0)
    wait_seq(page, site)
    assert page.inner_text("#turn").strip() == "Белые ходят"
    assert page.locator("#board polygon.marked").count() >= 2
    # Black's move in the numbering drawn on the board: own point p is physical 25 - p.
    shown = physical_move(black.notation, "black", "backgammon")["ru"]
    assert shown != black.notation and shown in page.inner_text("#last-move")
    heads = page.locator("#moves thead th").all_inner_texts()
    assert heads == ["№", "Белые", "Чёрные"]

    site.match.roll((4, 2))
    # White moves a checker five points (physical 13 -> 8) with 4-2: the referee objects.
    board = site.match.position
    points = list(board.points)
    points[12] -= 1
    points[7] += 1
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


def test_one_cube_and_clocks_that_tick(site: Site, page: Page) -> None:
    timed = MatchSettings(move_seconds=42, timeout_loses=True)
    site.match.loop.call(NewMatch("backgammon", 5, timed, "Ашот", "Борис"))
    page.goto(f"http://127.0.0.1:{site.port}/?lang=ru")
    page.wait_for_selector("#conn[data-conn='live']", timeout=10_000)
    assert page.inner_text("#timer-rule") == "42 с на ход; когда время вышло — партия проиграна"
    # In the middle the cube shows 64 in the drawing and on the card alike, worth 1.
    assert page.get_attribute("#board rect.cube", "data-face") == "64"
    assert page.inner_text("#cube .cube-box") == "64"
    assert "ставка 1" in page.inner_text("#cube")
    site.match.roll((3, 1))  # Ашот (white) opens; then Борис may double before his roll
    site.match.play(0)
    site.match.loop.call(CubeAction("double"))
    site.match.loop.call(CubeAction("take"))
    wait_seq(page, site)
    assert page.get_attribute("#board rect.cube", "data-owner") == "white"
    assert page.get_attribute("#board rect.cube", "data-face") == "2"
    assert page.inner_text("#cube .cube-box") == "2"
    assert "Ашот (белые)" in page.inner_text("#cube")

    # Борис is to roll with the move timer running: his clock ticks on the page by itself.
    page.wait_for_selector("#player-black .clock")
    first = page.inner_text("#player-black .clock")
    assert first.startswith("0:4")
    page.wait_for_function(
        f"() => document.querySelector('#player-black .clock').textContent !== '{first}'",
        timeout=5_000,
    )
    # The win words as players say them.
    assert page.evaluate("NARDY.resultWords({type: 'gammon', points: 2})") == "Марс! +2"
    assert page.evaluate("NARDY.resultWords({type: 'koks', points: 6})") == "Кокс! +6"


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_screenshots_phone_and_desktop(site: Site, page: Page, lang: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    site.match.roll((3, 1))  # white opens
    site.match.play(0)
    site.match.roll((5, 5))
    for size, name in ((PHONE, "phone"), (DESKTOP, "desktop")):
        page.set_viewport_size(size)
        page.goto(f"http://127.0.0.1:{site.port}/?lang={lang}")
        page.wait_for_selector("#conn[data-conn='live']", timeout=10_000)
        board = page.locator("#board svg").bounding_box()
        turn = page.locator("#turn").bounding_box()
        dice = page.locator("#dice").bounding_box()
        assert board and turn and dice
        # Turn and dice above the board; the numbers on the points legible.
        assert turn["y"] < board["y"] and dice["y"] < board["y"]
        label = page.locator("#board svg text").first.bounding_box()
        assert label and label["height"] >= 12, label
        if name == "phone":
            assert board["width"] >= size["width"] - 2, board  # as wide as the screen
            assert board["y"] < size["height"] / 2
        else:
            side = page.locator("aside.side").bounding_box()
            assert side and side["x"] > board["x"] + board["width"] - 1  # beside the board
        expected = "Чёрные ходят" if lang == "ru" else "Black to move"
        assert page.inner_text("#turn").strip() == expected
        assert page.locator("#moves thead th").count() == 3
        shot = SHOTS / f"scoreboard-{name}-{lang}.png"
        page.screenshot(path=str(shot), full_page=True)
        assert shot.stat().st_size > 10_000
        if lang == "ru":
            assert english_on(page) == []


def test_no_english_on_the_russian_page_through_a_whole_match(site: Site, page: Page) -> None:
    site.match.loop.call(NewMatch("backgammon", 1))  # one game decides it
    page.goto(f"http://127.0.0.1:{site.port}/?lang=ru")
    page.wait_for_selector("#conn[data-conn='live']", timeout=10_000)
    rng = random.Random(7)
    site.match.set_device("strip", "reconnecting")
    site.match.roll((2, 1))
    site.match.play(0)
    site.match.loop.call(CubeAction("double"))
    site.match.loop.call(CubeAction("take"))
    found: set[str] = set()
    for turn in range(800):
        if site.state()["phase"] in ("game_over", "match_over"):
            break
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        if site.match.roll(dice):
            site.match.play(rng.randrange(1000))
        if turn % 25 == 0:
            wait_seq(page, site)
            found |= set(english_on(page))
    state = site.state()
    assert state["phase"] == "match_over", state["phase"]
    wait_seq(page, site)
    page.wait_for_selector("#result:not([hidden])")
    result = page.inner_text("#result")
    outcome = state["last_result"]
    assert "Победа:" in result and "Матч выигран:" in result
    assert f"+{outcome['points']}" in result  # the points won, e.g. "Марс! +2"
    words = {"single": "Обычная победа", "gammon": "Марс!", "backgammon": "Кокс!"}
    assert words[outcome["win_type"]] in result
    page.screenshot(path=str(SHOTS / "result-ru.png"))
    found |= set(english_on(page))
    for path in ("/dice", "/history", "/control"):
        page.goto(f"http://127.0.0.1:{site.port}{path}?lang=ru")
        page.wait_for_load_state("networkidle")
        found |= set(english_on(page))
    assert found == set()


# --- the control panel -------------------------------------------------------------------------
def test_login_refusal_is_a_notice_beside_the_form(site: Site, page: Page) -> None:
    page.goto(f"http://127.0.0.1:{site.port}/control?lang=ru")
    page.wait_for_selector("#login:not([hidden])")
    page.fill("#pin", "0000")
    page.click("#login-form button")
    page.wait_for_function("() => document.querySelector('#login-notice').textContent !== ''")
    assert "Неверный" in page.inner_text("#login-notice")
    notice = page.locator("#login-notice").bounding_box()
    form = page.locator("#login-form").bounding_box()
    assert notice and form and notice["y"] >= form["y"] + form["height"] - 1  # never covers it
    assert "nardy_session" not in page.evaluate("document.cookie")


def test_cube_buttons_name_who_acts_and_only_legal_ones_work(camera_site: Site,
                                                             page: Page) -> None:
    site = camera_site
    log_in(page, site)
    double = page.locator("[data-cube=double]")
    take = page.locator("[data-cube=take]")
    assert double.is_disabled()  # the opening throw: no cube yet
    assert page.inner_text("[data-why=double]") == "Удваивать можно только до броска"
    site.match.roll((3, 1))  # white opens and plays: black may double before his roll
    site.match.play(0)
    page.wait_for_function("() => !document.querySelector('[data-cube=double]').disabled")
    assert double.inner_text() == "Чёрные: удвоить до 2"
    assert take.is_disabled()
    assert page.inner_text("[data-why=take]") == "Удвоения не предлагали"
    double.click()
    page.wait_for_function("() => !document.querySelector('[data-cube=take]').disabled")
    assert wait_state(site, lambda s: s["cube_offered"])["cube_offered"]
    assert take.inner_text() == "Белые: принять, куб станет 2"
    assert double.is_disabled()
    take.click()
    state = wait_state(site, lambda s: s["cube_value"] == 2)
    assert state["cube_owner"] == "white"
    # Black is to roll but no longer may double: the button says why.
    page.wait_for_function("() => document.querySelector('[data-why=double]').textContent"
                           ".includes('Владелец')")
    assert "Владелец куба — Белые" in page.inner_text("[data-why=double]")
    # A refusal from the engine, in Russian: a second take with nothing offered.
    reply = page.evaluate("""async () => {
        const r = await fetch('/api/control/cube', {method: 'POST', credentials: 'same-origin',
            headers: {'Content-Type': 'application/json'}, body: '{"action": "take"}'});
        return r.json();
    }""")
    assert reply["key"].startswith("refusal.")
    assert page.evaluate(f"NARDY.t({reply['key']!r}, {reply['params']!r})") != reply["error"]
    page.screenshot(path=str(SHOTS / "control-phone-ru.png"), full_page=True)


def test_undo_and_new_match_ask_first_and_say_what_changes(camera_site: Site,
                                                           page: Page) -> None:
    site = camera_site
    site.match.roll((6, 1))  # black, to roll after the cube test
    played = site.match.play(0)
    log_in(page, site)
    page.wait_for_function("() => !document.querySelector('#undo').disabled")
    page.click("#undo")
    page.wait_for_selector("#confirm[open]")
    text = page.inner_text("#confirm-text")
    shown = physical_move(played.notation, "black", "backgammon")["ru"]
    assert "Чёрные" in text and shown in text and "61" in text
    seq = site.state()["seq"]
    page.click("#confirm-cancel")
    time.sleep(0.3)
    assert site.state()["seq"] == seq  # cancelled: nothing sent
    page.click("#undo")
    page.click("#confirm-ok")
    wait_state(site, lambda s: s["moves"][-1]["side"] != "black" or s["phase"] == "move")

    page.fill("#new-match input[name=white_name]", "Ашот")
    page.fill("#new-match input[name=match_length]", "7")
    page.click("#new-match button[type=submit]")
    page.wait_for_selector("#confirm[open]")
    text = page.inner_text("#confirm-text")
    assert "матч до 7" in text and "Ашот" in text
    page.click("#confirm-ok")
    state = wait_state(site, lambda s: s["white"]["name"] == "Ашот")
    assert state["match_length"] == 7
    page.wait_for_function(
        "() => document.querySelector('#now-settings').textContent.includes('Ашот')")
    assert "матч до 7" in page.inner_text("#now-settings")


def test_correcting_the_position_by_tapping_the_board(camera_site: Site, page: Page) -> None:
    site = camera_site
    log_in(page, site)
    before = site.state()
    assert before["points"][5] == 5  # white's 6-point in the start position
    page.check("input[name=tool][value=remove_white]")
    page.click("#edit-board .hit[data-point='6']")
    page.wait_for_function("() => document.querySelector('#counts [data-side=white]')"
                           ".dataset.count === '14'")
    assert page.locator("#apply-correct").is_disabled()  # 14 white: not sent
    assert "ровно 15" in page.inner_text("#correct-notice")
    page.check("input[name=tool][value=add_black]")
    page.click("#edit-board .hit[data-point='6']")  # holds white: refused on the page
    assert "пункте 6" in page.inner_text("#correct-notice")
    page.check("input[name=tool][value=add_white]")
    page.click("#edit-board .hit[data-point='bar-white']")
    page.wait_for_function("() => !document.querySelector('#apply-correct').disabled")
    assert site.state()["seq"] == before["seq"]  # nothing sent yet
    page.click("#apply-correct")
    state = wait_state(site, lambda s: s["white"]["on_bar"] == 1)
    assert state["points"][5] == 4


def test_calibration_wizard_switches_and_keeps_the_old_one_on_failure(
    camera_site: Site, page: Page
) -> None:
    site = camera_site
    camera = site.camera
    log_in(page, site)
    page.wait_for_function("() => document.querySelector('#frame').naturalWidth > 0")
    width, height = camera.frame.shape[1], camera.frame.shape[0]

    def tap_corners(corners: list[list[float]]) -> None:
        page.check("input[name=corner][value='0']")
        page.locator("#frame-overlay").scroll_into_view_if_needed()
        box = page.locator("#frame-overlay").bounding_box()
        assert box
        for x, y in corners:
            page.mouse.click(box["x"] + x / width * box["width"],
                             box["y"] + y / height * box["height"])

    page.click("#find-corners")  # this rendered frame has no outline it can find
    page.wait_for_function("() => document.querySelector('#cal-notice').classList.contains"
                           "('error')", timeout=20_000)
    assert "укажите четыре угла" in page.inner_text("#cal-notice").lower()
    tap_corners(camera.corners_list())
    assert page.inner_text("#cal-corner-hint") == "Все четыре угла заданы"
    page.click("#run-calibration")
    page.wait_for_function("() => document.querySelector('#cal-notice').textContent"
                           ".startsWith('Готово')", timeout=30_000)
    assert len(camera.installed) == 1  # the referee reads with it now
    page.wait_for_function("() => document.querySelector('#cal-overlay').naturalWidth > 0")

    tap_corners([[20, 20], [300, 30], [310, 300], [30, 290]])
    page.click("#run-calibration")
    page.wait_for_function("() => document.querySelector('#cal-notice').classList.contains"
                           "('error')", timeout=30_000)
    text = page.inner_text("#cal-notice")
    assert "Калибровка не удалась" in text and "Прежняя калибровка сохранена" in text
    assert len(camera.installed) == 1  # the old calibration stays
    assert english_on(page) == []


def test_page_falls_back_to_polling_when_streams_are_capped(page: Page) -> None:
    with running_site(max_streams=1, heartbeat=0.5) as site:
        hog = EventStream(site.port)
        try:
            page.goto(f"http://127.0.0.1:{site.port}/?lang=ru")
            page.wait_for_selector("#conn[data-conn='polling']", timeout=10_000)
            site.match.roll((4, 3))  # an opening throw: white's 4 starts
            page.wait_for_function(
                "() => document.querySelector('#dice').dataset.values === '43'", timeout=10_000
            )
        finally:
            hog.close()
