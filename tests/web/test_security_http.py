"""Control actions are refused without PIN session, from a foreign origin, or with bad
bodies; PIN guessing is throttled; a refused request changes nothing."""

from __future__ import annotations

from tests.web.helpers import PIN, Site, running_site

NEW_MATCH = {"variant": "long", "match_length": 3}


def _unchanged(site: Site, before: dict) -> None:
    after = site.state()
    assert after["seq"] == before["seq"]
    assert after["variant"] == before["variant"]


def test_control_without_session_is_refused(site: Site) -> None:
    before = site.state()
    reply = site.post_json("/api/control/new_match", NEW_MATCH)
    assert reply.status == 401
    assert reply.json()["code"] == "auth"
    bogus = site.post_json("/api/control/new_match", NEW_MATCH, session="forged-token")
    assert bogus.status == 401
    assert site.get("/api/export.mat").status == 401
    assert site.get("/api/calibration/frame.jpg").status == 401
    _unchanged(site, before)


def test_foreign_or_missing_origin_is_refused_even_when_logged_in(site: Site) -> None:
    token = site.login()
    before = site.state()
    for origin in ("http://evil.example", f"http://127.0.0.1:{site.port + 1}", "null"):
        reply = site.post_json("/api/control/new_match", NEW_MATCH, origin=origin, session=token)
        assert reply.status == 403, origin
        assert reply.json()["code"] == "origin"
    missing = site.post_json("/api/control/new_match", NEW_MATCH, origin=None, session=token)
    assert missing.status == 403
    # Login itself is origin-checked too (no cross-site PIN guessing through a victim).
    assert site.post_json("/api/login", {"pin": PIN}, origin="http://evil.example").status == 403
    _unchanged(site, before)


def test_bad_bodies_get_400_with_a_reason_and_change_nothing(site: Site) -> None:
    token = site.login()
    before = site.state()
    broken = site.post_json("/api/control/new_match", None, session=token, raw=b'{"variant": ')
    assert broken.status == 400
    assert "malformed JSON" in broken.json()["error"]
    cases = [
        ({"variant": "chess"}, "unknown variant"),
        ({"variant": "backgammon", "match_length": -1}, "match_length"),
        ({"variant": "backgammon", "match_length": True}, "match_length"),
        ({"variant": "backgammon", "colour": "red"}, "unknown field"),
        ({"settings": {"hit_and_hide_bear_off": "sometimes"}}, "hit_and_hide_bear_off"),
        (["not", "an", "object"], "JSON object"),
    ]
    for body, reason in cases:
        reply = site.post_json("/api/control/new_match", body, session=token)
        assert reply.status == 400, body
        assert reason in reply.json()["error"], (body, reply.json())
    bad_board = site.post_json(
        "/api/control/correct_position", {"board": "xyz", "turn": "white"}, session=token
    )
    assert bad_board.status == 400
    assert "26 characters" in bad_board.json()["error"]
    form = site.post_json(
        "/api/control/undo", None, session=token, raw=b"a=1", content_type="text/plain"
    )
    assert form.status == 415
    _unchanged(site, before)


def test_pin_guessing_is_throttled_even_for_the_right_pin(site: Site) -> None:
    guesser = "127.0.0.7"
    for guess in ("0000", "1111", "2222", "3333"):
        reply = site.post_json("/api/login", {"pin": guess}, source=guesser)
        assert reply.status == 401
        assert reply.cookie("nardy_session") is None
    locked = site.post_json("/api/login", {"pin": PIN}, source=guesser)
    assert locked.status == 429
    assert int(locked.headers["retry-after"]) > 0
    assert locked.cookie("nardy_session") is None
    # The owner on another phone is not locked out by the guesser.
    assert site.login()
    site.clock.now += int(locked.headers["retry-after"]) + 1
    assert site.post_json("/api/login", {"pin": PIN}, source=guesser).status == 200


def test_session_cookie_is_httponly_and_samesite_strict(site: Site) -> None:
    reply = site.post_json("/api/login", {"pin": PIN})
    cookie = reply.headers["set-cookie"]
    assert "HttpOnly" in cookie
    assert "SameSite=Strict" in cookie
    assert "Path=/" in cookie
    session = site.get("/api/session", {"Cookie": f"nardy_session={reply.cookie('nardy_session')}"})
    assert session.json() == {"enabled": True, "authenticated": True}


def test_logout_ends_the_session(site: Site) -> None:
    token = site.login()
    assert site.post_json("/api/logout", {}, session=token).status == 200
    assert site.post_json("/api/control/undo", {}, session=token).status == 401


def test_without_a_configured_pin_control_stays_locked() -> None:
    with running_site(pin=None) as site:
        assert site.post_json("/api/login", {"pin": "0000"}).json()["code"] == "no_pin"
        reply = site.post_json("/api/control/undo", {})
        assert reply.status == 403
        assert site.get("/api/session").json() == {"enabled": False, "authenticated": False}


def test_oversized_body_is_refused(site: Site) -> None:
    token = site.login()
    big = b'{"variant": "' + b"x" * 70_000 + b'"}'
    reply = site.post_json("/api/control/new_match", None, session=token, raw=big)
    assert reply.status == 413
