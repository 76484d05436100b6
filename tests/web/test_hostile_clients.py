"""A prankster on the café network, on loopback: idle and slow connections, many of them from
one address, huge bodies, foreign Host names. The page must stay up for everyone else.

Other loopback addresses (127.0.0.x) play the other machines. Loops are bounded; times are
printed, and only generous hang guards are asserted (the figures live in bench/).
"""

from __future__ import annotations

import socket
import time

from nardy_pi.web.server import ServerLimits
from tests.web.helpers import HOST, Site, running_site

PRANKSTER = "127.0.0.66"


def _connect(port: int, source: str = PRANKSTER) -> socket.socket:
    sock = socket.create_connection((HOST, port), timeout=5, source_address=(source, 0))
    return sock


def _closed_by_server(sock: socket.socket, within: float) -> bool:
    """Does the server close `sock` within `within` seconds?"""
    sock.settimeout(0.2)
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            if sock.recv(4096) == b"":
                return True
        except TimeoutError:
            continue
        except OSError:
            return True
    return False


def test_a_viewer_gets_the_page_while_one_client_holds_150_idle_connections() -> None:
    with running_site() as site:
        held = []
        try:
            for _ in range(150):
                try:
                    held.append(_connect(site.port))
                except OSError:
                    break  # refused or reset: the cap at work
            time.sleep(0.3)
            started = time.monotonic()
            page = site.request("GET", "/", timeout=5)
            state = site.request("GET", "/api/state", timeout=5)
            took = time.monotonic() - started
            alive = sum(1 for s in held if not _closed_by_server(s, 0.01))
        finally:
            for s in held:
                s.close()
        print(f"\n150 idle connections tried, {alive} kept open; page and state in {took:.3f} s")
        assert page.status == 200 and state.status == 200
        assert alive <= ServerLimits().per_client


def test_idle_and_slow_connections_are_dropped_early() -> None:
    limits = ServerLimits(idle_seconds=1, request_seconds=1, cleanup_seconds=1)
    with running_site(limits=limits) as site:
        idle = _connect(site.port)
        assert _closed_by_server(idle, 5), "an idle connection must be closed"
        drip = _connect(site.port)
        drip.sendall(b"GET / HTTP/1.1\r\n")
        started = time.monotonic()
        closed = False
        while time.monotonic() - started < 6:
            try:
                drip.sendall(b"X-Slow: 1\r\n")
            except OSError:
                closed = True
                break
            if _closed_by_server(drip, 0.3):
                closed = True
                break
        drip.close()
        idle.close()
        assert closed, "a request dripping in must be dropped after request_seconds"
        assert site.get("/healthz").status == 200


def test_a_20_mb_body_is_refused_without_being_read(site: Site) -> None:
    sock = _connect(site.port, HOST)
    try:
        sock.sendall(
            b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 20000000\r\n\r\n"
            + b"x" * 1000
        )
        sock.settimeout(5)
        answer = sock.recv(4096)
    finally:
        sock.close()
    assert answer.startswith(b"HTTP/1.1 413"), answer[:80]


def test_foreign_host_names_are_refused_and_our_own_accepted() -> None:
    with running_site(allowed_hosts=("board.example.org",)) as site:
        for host in ("evil.example", "nardy.local.evil.example", ""):
            reply = site.get("/api/state", {"Host": host})
            assert reply.status == 400, host
            assert reply.json()["code"] == "host"
        logged = site.post_json(
            "/api/login", {"pin": "2468"}, origin="http://evil.example:80"
        )
        assert logged.status in (400, 403)
        for host in ("nardy.local", f"nardy.local:{site.port}", "localhost:8080",
                     "board.example.org", "[::1]:8080", "192.168.1.20", "NARDY.LOCAL."):
            assert site.get("/api/state", {"Host": host}).status == 200, host


def test_right_pin_from_another_address_survives_a_rotating_guesser(site: Site) -> None:
    for i in range(25):
        site.post_json("/api/login", {"pin": "0000"}, source=f"127.0.1.{i}")
    assert site.post_json("/api/login", {"pin": "0000"}, source="127.0.1.3").status == 429
    assert site.login()  # the owner's phone, no failures of its own


def test_the_server_lives_on_past_descriptor_1023() -> None:
    """select() ends waitress's loop once a socket's number passes 1023 (FD_SETSIZE); the
    server polls instead. The descriptors are pushed up here by holding files open in this
    process, as a busy referee process (camera, log, streams) might."""
    import resource

    import pytest

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = 1400
    if hard != resource.RLIM_INFINITY and hard < want:
        pytest.skip(f"the descriptor limit ({hard}) is too low to pass 1023")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, want), hard))
    held = []
    try:
        with running_site() as site:
            while not held or held[-1].fileno() < 1100:
                held.append(open("/dev/null", "rb"))  # noqa: SIM115  # held on purpose
            replies = [site.request("GET", "/", timeout=10).status for _ in range(3)]
            assert replies == [200, 200, 200]
    finally:
        for f in held:
            f.close()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_a_match_log_damaged_while_running_gives_the_history_page_one_line(tmp_path) -> None:
    import sqlite3

    from nardy_pi.game.events import MatchStarted
    from nardy_pi.store.eventlog import EventStore
    from nardy_pi.store.history import StoreHistory

    path = tmp_path / "matches.sqlite"
    with EventStore(path) as store:
        store.create_match(MatchStarted("backgammon", 1))
    with running_site(history=StoreHistory(path)) as site:
        assert site.get("/history").status == 200
        with sqlite3.connect(path) as db:
            db.execute("DROP TABLE events")  # another program's doing, mid-run
        page = site.get("/history")
        mat = site.get("/history/1.mat")
    assert page.status == 503 and mat.status == 503
    assert page.body.decode().count("\n") == 1 and b"'events' is missing" in page.body
