"""Loopback HTTP and SSE clients for the web tests (stdlib only), and a server harness."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from nardy_pi.devices.strip.output import StripOutput
from nardy_pi.web.app import WebConfig, create_app
from nardy_pi.web.auth import PinGate
from nardy_pi.web.hub import StateHub
from nardy_pi.web.serve import LoopController
from nardy_pi.web.server import ServerLimits, WebServer
from tests.web.table import EngineTable, ListHistory

PIN = "2468"
HOST = "127.0.0.1"


class FakeClock:
    """Time the tests move by hand (for PIN throttling and session expiry)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)

    def cookie(self, name: str) -> str | None:
        raw = self.headers.get("set-cookie", "")
        for part in raw.split(";"):
            key, _, value = part.strip().partition("=")
            if key == name:
                return value
        return None


@dataclass
class Site:
    """A running server with its hub, the table (real referee and engine) and history."""

    server: WebServer
    hub: StateHub
    match: EngineTable
    history: ListHistory
    clock: FakeClock
    cookies: dict[str, str] = field(default_factory=dict)
    camera: Any = None  # tests.web.camera.TableCamera when the site has one

    @property
    def port(self) -> int:
        return self.server.port

    @property
    def origin(self) -> str:
        return f"http://{HOST}:{self.port}"

    def request(
        self,
        method: str,
        path: str,
        body: bytes | None = None,
        headers: dict[str, str] | None = None,
        timeout: float = 10.0,
        source: str = HOST,
    ) -> Reply:
        conn = http.client.HTTPConnection(
            HOST, self.port, timeout=timeout, source_address=(source, 0)
        )
        try:
            conn.request(method, path, body=body, headers=headers or {})
            resp = conn.getresponse()
            data = resp.read()
            return Reply(resp.status, {k.lower(): v for k, v in resp.getheaders()}, data)
        finally:
            conn.close()

    def get(self, path: str, headers: dict[str, str] | None = None) -> Reply:
        return self.request("GET", path, headers=headers)

    def post_json(
        self,
        path: str,
        data: Any,
        *,
        origin: str | None = "",
        session: str | None = None,
        raw: bytes | None = None,
        content_type: str = "application/json",
        source: str = HOST,
    ) -> Reply:
        headers = {"Content-Type": content_type}
        if origin is not None:
            headers["Origin"] = origin or self.origin
        if session:
            headers["Cookie"] = f"nardy_session={session}"
        body = raw if raw is not None else json.dumps(data).encode()
        return self.request("POST", path, body=body, headers=headers, source=source)

    def login(self, pin: str = PIN) -> str:
        reply = self.post_json("/api/login", {"pin": pin})
        assert reply.status == 200, reply.body
        token = reply.cookie("nardy_session")
        assert token
        return token

    def state(self) -> dict[str, Any]:
        return self.get("/api/state").json()["state"]


@contextmanager
def running_site(
    *,
    pin: str | None = PIN,
    max_streams: int = 8,
    heartbeat: float = 0.5,
    camera: bool = False,
    strip: StripOutput | None = None,
    limits: ServerLimits | None = None,
    allowed_hosts: tuple[str, ...] = (),
    history: Any = None,
) -> Iterator[Site]:
    hub = StateHub(max_streams=max_streams)
    match = EngineTable(hub, strip=strip)
    controller: Any = LoopController(match.loop)
    if camera:
        from tests.web.camera import TableCamera

        controller = TableCamera(controller)
    listed = ListHistory()
    clock = FakeClock()
    gate = PinGate(pin, clock=clock)
    config = WebConfig(
        pin=pin, heartbeat_seconds=heartbeat, stream_retry_after=7, allowed_hosts=allowed_hosts
    )
    app = create_app(hub, controller, history or listed, config, gate=gate)
    server = WebServer(app, hub, HOST, 0, limits)
    server.start()
    try:
        yield Site(server, hub, match, listed, clock,
                   camera=controller if camera else None)
    finally:
        server.stop()
        match.close()


class EventStream:
    """Reads server-sent events from /api/events over a real socket."""

    def __init__(self, port: int, timeout: float = 5.0, source: str = HOST) -> None:
        # `source`: another loopback address (127.0.0.x) plays another phone on the network.
        self.conn = http.client.HTTPConnection(
            HOST, port, timeout=timeout, source_address=(source, 0)
        )
        self.conn.request("GET", "/api/events", headers={"Accept": "text/event-stream"})
        self.response = self.conn.getresponse()
        self.status = self.response.status
        self.headers = {k.lower(): v for k, v in self.response.getheaders()}

    def next_event(self) -> dict[str, str] | None:
        """The next event as {"event", "id", "data"}; None at end of stream."""
        event: dict[str, str] = {}
        while True:
            line = self.response.readline()
            if not line:
                return None
            text = line.decode("utf-8").rstrip("\r\n")
            if not text:
                if "event" in event or "data" in event:
                    return event
                continue
            key, _, value = text.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if key == "data":
                event["data"] = event.get("data", "") + value
            elif key:
                event[key] = value

    def next_named(self, name: str, limit: int = 50) -> dict[str, str]:
        for _ in range(limit):
            event = self.next_event()
            assert event is not None, "stream ended"
            if event.get("event") == name:
                return event
        raise AssertionError(f"no {name} event in {limit} events")

    def close(self) -> None:
        # The response holds its own reference to the socket; close both or it stays open.
        self.response.close()
        self.conn.close()
