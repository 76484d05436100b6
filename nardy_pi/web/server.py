"""Serve the app with waitress in a background thread, and stop it cleanly.

Every open event stream holds a waitress worker thread for its whole life, so the pool is
sized from the stream cap plus a reserve for ordinary requests; otherwise a room full of
phones would starve the control panel. Stopping closes the hub first (streams end at once),
then lets the workers finish, then closes the sockets from inside waitress's own loop.

One client must not be able to take the page away from everyone else (`ServerLimits`):
connections are counted per client (an IPv4 address, an IPv6 /64) and the ones above the
cap are closed as soon as they are accepted; a connection with no request in flight is
dropped after `idle_seconds`, and one still sending its request after `request_seconds` (a
slow drip) too. Bodies above the app's limit are refused by waitress from their
Content-Length, before being read.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass

from flask import Flask
from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel
from waitress.server import TcpWSGIServer
from waitress.task import ThreadedTaskDispatcher

from nardy_pi.web.auth import client_key
from nardy_pi.web.hub import StateHub

DEFAULT_PORT = 8080
RESERVE_THREADS = 8  # workers kept free for pages, polling and control requests
DEFAULT_BODY_LIMIT = 64 * 1024

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class ServerLimits:
    per_client: int = 12  # open connections per remote address (a phone needs 2-6)
    idle_seconds: float = 20.0  # a connection with no request in flight is closed after this
    request_seconds: float = 10.0  # to send a whole request (headers and body)
    cleanup_seconds: float = 1.0  # how often the limits above are checked
    header_bytes: int = 16 * 1024
    spare_connections: int = 64  # connections above the worker count, for all clients together


class _GuardedChannel(HTTPChannel):
    """An HTTP channel that remembers when its current request started arriving."""

    request_started: float | None = None
    client: str = ""  # auth.client_key of the remote address

    def received(self, data: bytes) -> bool:
        if self.request is None and data:
            self.request_started = time.time()
        done = super().received(data)
        if self.request is None:
            self.request_started = None
        return done


class _GuardedServer(TcpWSGIServer):
    """waitress's TCP server with a per-address connection cap and slow-request deadlines."""

    channel_class = _GuardedChannel
    limits = ServerLimits()

    def handle_accept(self) -> None:
        try:
            accepted = self.accept()
        except OSError:
            return
        if accepted is None:
            return
        conn, addr = accepted
        # One client = one IPv4 address or one IPv6 /64 (a host may hold a whole prefix),
        # as for the PIN back-off.
        client = client_key(str(addr[0] if isinstance(addr, tuple) else addr))
        mine = sum(
            1 for ch in list(self._map.values())
            if isinstance(ch, _GuardedChannel) and ch.client == client
        )  # fmt: skip
        if mine >= self.limits.per_client:
            conn.close()  # refused at once: never queued behind the others
            return
        try:
            self.set_socket_options(conn)
        except OSError:
            conn.close()
            return
        channel = self.channel_class(self, conn, self.fix_addr(addr), self.adj, map=self._map)
        channel.client = client

    def maintenance(self, now: float) -> None:
        super().maintenance(now)  # idle channels (adj.channel_timeout)
        cutoff = now - self.limits.request_seconds
        for channel in list(self.active_channels.values()):
            started = getattr(channel, "request_started", None)
            if started is not None and started < cutoff and not channel.requests:
                channel.will_close = True


class WebServer:
    def __init__(
        self,
        app: Flask,
        hub: StateHub,
        host: str = "0.0.0.0",
        port: int = DEFAULT_PORT,
        limits: ServerLimits | None = None,
    ) -> None:
        self._hub = hub
        limits = limits or ServerLimits()
        threads = hub.max_streams + RESERVE_THREADS
        body_limit = int(app.config.get("MAX_CONTENT_LENGTH") or DEFAULT_BODY_LIMIT)
        server_class = type("NardyServer", (_GuardedServer,), {"limits": limits})
        adj = Adjustments(
            host=host,
            port=port,
            threads=threads,
            connection_limit=threads + limits.spare_connections,
            channel_timeout=int(max(1, limits.idle_seconds)),
            cleanup_interval=int(max(1, limits.cleanup_seconds)),
            max_request_body_size=body_limit,
            max_request_header_size=limits.header_bytes,
            # Keep channels readable during a response, so a phone that leaves an event
            # stream is noticed at once rather than at a failed write.
            channel_request_lookahead=1,
            ident="nardy-pi",
            # poll(), not select(): select() ends the server thread once a socket's number
            # passes 1023 (FD_SETSIZE), which a crowd of connections can bring about.
            asyncore_use_poll=True,
            clear_untrusted_proxy_headers=True,
        )
        dispatcher = ThreadedTaskDispatcher()
        dispatcher.set_thread_count(threads)
        # waitress.create_server with our server class; one listening socket (the first
        # address `host` resolves to). Binding happens here, so a busy port fails in the
        # caller, not in the thread.
        self._server = server_class(
            app, {}, True, None, dispatcher=dispatcher, adj=adj, sockinfo=adj.listen[0]
        )
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        return int(self._server.effective_port)  # type: ignore[union-attr]

    @property
    def host(self) -> str:
        return str(self._server.effective_host)  # type: ignore[union-attr]

    def start(self) -> None:
        if self._thread is not None:
            raise RuntimeError("the web server is already running")
        self._thread = threading.Thread(target=self._server.run, name="nardy-web", daemon=True)
        self._thread.start()
        log.info("web page on http://%s:%d/", self.host, self.port)

    def stop(self, timeout: float = 5.0) -> None:
        """End the streams, finish the requests in flight, close the sockets; idempotent."""
        thread = self._thread
        if thread is None:
            return
        self._hub.close()
        self._server.task_dispatcher.shutdown(timeout=timeout)
        server = self._server

        def close_all() -> None:
            from waitress import wasyncore

            wasyncore.close_all(server._map)  # type: ignore[union-attr]

        try:
            server.trigger.pull_trigger(close_all)  # type: ignore[union-attr]
        except OSError:
            # The loop already closed its trigger (it is ending): close what is left here.
            close_all()
        thread.join(timeout)
        self._thread = None
        if thread.is_alive():
            log.warning("the web server thread did not stop within %.1f s", timeout)
