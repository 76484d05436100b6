"""The JSON API and the event stream over real HTTP (waitress on loopback)."""

from __future__ import annotations

import json
import time

from nardy_pi.rules.movegen import legal_plays
from nardy_pi.rules.position import Position
from tests.web.helpers import EventStream, Site, running_site


def test_state_api_is_the_hub_state(site: Site) -> None:
    reply = site.get("/api/state")
    assert reply.status == 200
    assert reply.headers["content-type"].startswith("application/json")
    payload = reply.json()
    _, state = site.hub.latest()
    assert payload["state"] == json.loads(json.dumps(state.to_json()))
    start = Position.start("backgammon")
    assert payload["state"]["points"] == list(start.points)
    assert payload["state"]["white"]["pips"] == 167 and payload["state"]["black"]["pips"] == 167
    assert payload["board_svg"].startswith("<svg")


def test_state_polling_answers_304_until_something_changes(site: Site) -> None:
    first = site.get("/api/state")
    etag = first.headers["etag"]
    assert site.get("/api/state", {"If-None-Match": etag}).status == 304
    site.match.roll((3, 1))
    changed = site.get("/api/state", {"If-None-Match": etag})
    assert changed.status == 200
    assert changed.json()["state"]["dice"] == [3, 1]


def test_stream_sends_full_snapshot_on_connect_then_each_play(site: Site) -> None:
    site.match.roll((6, 5))
    stream = EventStream(site.port)
    try:
        assert stream.status == 200
        assert stream.headers["content-type"].startswith("text/event-stream")
        first = stream.next_named("state")
        snapshot = json.loads(first["data"])
        assert snapshot["state"]["dice"] == [6, 5]
        assert int(first["id"]) == snapshot["state"]["seq"]

        expected = legal_plays(site.match.position, (6, 5), site.match.variant)[0]
        site.match.play(0)
        update = json.loads(stream.next_named("state")["data"])["state"]
        assert update["last_move"]["text"] == expected.notation
        assert update["points"] == list(expected.result.points)
        assert update["turn"] == "black"
        assert update["seq"] > snapshot["state"]["seq"]
    finally:
        stream.close()


def test_stream_heartbeats_while_nothing_happens(site: Site) -> None:
    stream = EventStream(site.port)
    try:
        stream.next_named("state")
        started = time.monotonic()
        beat = stream.next_named("heartbeat")
        # Heartbeat is 0.5 s in the test configuration; allow generous scheduling slack.
        assert time.monotonic() - started < 3.0
        assert json.loads(beat["data"])["seq"] == site.hub.latest()[1].seq
    finally:
        stream.close()


def test_stream_cap_answers_503_with_retry_after_and_frees_slots() -> None:
    with running_site(max_streams=3) as site:
        streams = [EventStream(site.port) for _ in range(3)]
        for s in streams:
            s.next_named("state")
        refused = site.get("/api/events")
        assert refused.status == 503
        assert refused.headers["retry-after"] == "7"
        assert refused.json()["code"] == "streams_full"
        # The page's polling fallback still works while streams are capped.
        assert site.get("/api/state").status == 200
        for s in streams:
            s.close()
        deadline = time.monotonic() + 5
        while site.hub.open_streams and time.monotonic() < deadline:
            time.sleep(0.05)
        assert site.hub.open_streams == 0
        again = EventStream(site.port)
        assert again.status == 200
        again.close()


def test_stop_ends_open_streams_promptly() -> None:
    with running_site(heartbeat=30.0) as site:
        stream = EventStream(site.port, timeout=10)
        stream.next_named("state")
        started = time.monotonic()
        site.server.stop()
        assert stream.next_event() is None
        assert time.monotonic() - started < 6.0
        stream.close()


def test_pages_render_in_the_browser_language(site: Site) -> None:
    ru = site.get("/", {"Accept-Language": "ru-RU,ru;q=0.9,en;q=0.5"})
    assert ru.status == 200
    assert '<html lang="ru">' in ru.body.decode()
    assert "Табло" in ru.body.decode()
    en = site.get("/", {"Accept-Language": "en-GB,en;q=0.8"})
    assert '<html lang="en">' in en.body.decode()
    switched = site.get("/?lang=ru", {"Accept-Language": "en"})
    assert '<html lang="ru">' in switched.body.decode()
    assert switched.cookie("nardy_lang") == "ru"
    # The switch is remembered over the browser's pick, and caches are told the page varies.
    kept = site.get("/", {"Accept-Language": "en", "Cookie": "nardy_lang=ru"})
    assert '<html lang="ru">' in kept.body.decode() and kept.cookie("nardy_lang") is None
    assert "Accept-Language" in kept.headers["vary"] and "Cookie" in kept.headers["vary"]


def test_history_page_lists_matches_and_serves_mat(site: Site) -> None:
    from nardy_pi.web.history import MatchSummary

    summary = MatchSummary("m-1", "Anna", "Boris", 5, 3, 5, "backgammon", "2026-11-01T18:30:00Z")
    site.history.add(summary, " 5 point match\n\n Game 1\n")
    page = site.get("/history").body.decode()
    assert "Anna" in page and "Boris" in page and "/history/m-1.mat" in page
    mat = site.get("/history/m-1.mat")
    assert mat.status == 200
    assert mat.body.decode().startswith(" 5 point match")
    assert "attachment" in mat.headers["content-disposition"]
    assert site.get("/history/nope.mat").status == 404
    assert site.get("/history/..%2Fetc.mat").status == 404


def test_pages_send_security_headers(site: Site) -> None:
    reply = site.get("/control")
    assert reply.status == 200
    assert "frame-ancestors 'none'" in reply.headers["content-security-policy"]
    assert reply.headers["x-content-type-options"] == "nosniff"
