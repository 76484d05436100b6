"""WebServer: binds in the caller (a busy port fails at once), stops cleanly and idempotently."""

from __future__ import annotations

import socket

import pytest

from nardy_pi.web.app import create_app
from nardy_pi.web.hub import StateHub
from nardy_pi.web.serve import LoopController
from nardy_pi.web.server import RESERVE_THREADS, WebServer
from tests.web.helpers import HOST, running_site
from tests.web.table import EngineTable, ListHistory


def test_busy_port_fails_in_the_caller() -> None:
    with socket.socket() as taken:
        taken.bind((HOST, 0))
        taken.listen()
        port = taken.getsockname()[1]
        hub = StateHub()
        table = EngineTable(hub)
        try:
            app = create_app(hub, LoopController(table.loop), ListHistory())
            with pytest.raises(OSError):
                WebServer(app, hub, HOST, port)
        finally:
            table.close()


def test_stop_is_idempotent_and_frees_the_port() -> None:
    with running_site() as site:
        port = site.port
        assert site.get("/healthz").body == b"ok\n"
        site.server.stop()
        site.server.stop()
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind((HOST, port))  # nothing listens there any more


def test_worker_pool_covers_the_stream_cap() -> None:
    hub = StateHub(max_streams=5)
    table = EngineTable(hub)
    app = create_app(hub, LoopController(table.loop), ListHistory())
    server = WebServer(app, hub, HOST, 0)
    try:
        assert server._server.adj.threads == 5 + RESERVE_THREADS  # type: ignore[union-attr]
    finally:
        server.start()
        server.stop()
        table.close()
