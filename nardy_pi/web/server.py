"""Serve the app with waitress in a background thread, and stop it cleanly.

Every open event stream holds a waitress worker thread for its whole life, so the pool is
sized from the stream cap plus a reserve for ordinary requests; otherwise a room full of
phones would starve the control panel. Stopping closes the hub first (streams end at once),
then lets the workers finish, then closes the sockets from inside waitress's own loop.
"""

from __future__ import annotations

import logging
import threading

from flask import Flask
from waitress.server import create_server

from nardy_pi.web.hub import StateHub

DEFAULT_PORT = 8080
RESERVE_THREADS = 8  # workers kept free for pages, polling and control requests

log = logging.getLogger(__name__)


class WebServer:
    def __init__(
        self, app: Flask, hub: StateHub, host: str = "0.0.0.0", port: int = DEFAULT_PORT
    ) -> None:
        self._hub = hub
        threads = hub.max_streams + RESERVE_THREADS
        # Binding happens here, so a busy port fails in the caller, not in the thread.
        self._server = create_server(
            app,
            host=host,
            port=port,
            threads=threads,
            connection_limit=threads + 32,
            channel_timeout=60,
            # Keep channels readable during a response, so a phone that leaves an event
            # stream is noticed at once rather than at a failed write.
            channel_request_lookahead=1,
            ident="nardy-pi",
            clear_untrusted_proxy_headers=True,
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
