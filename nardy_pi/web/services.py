"""What the views share: the web configuration and the services kept on the Flask app.

Its own module so the blueprints (api, pages) and the app factory import it without
importing each other."""

from __future__ import annotations

from dataclasses import dataclass, field

from nardy_pi.web.auth import PinGate
from nardy_pi.web.controller import Controller
from nardy_pi.web.history import History
from nardy_pi.web.hub import StateHub
from nardy_pi.web.payload import SnapshotEncoder

SESSION_COOKIE = "nardy_session"
EXTENSION_KEY = "nardy"


@dataclass(frozen=True, slots=True)
class WebConfig:
    pin: str | None = None  # None: control panel locked
    heartbeat_seconds: float = 15.0
    poll_seconds: float = 3.0  # polling fallback interval the page uses
    stream_retry_after: int = 10  # seconds, sent with 503 when streams are capped
    allowed_origins: tuple[str, ...] = ()  # extra origins besides the server's own
    session_seconds: float = 12 * 3600.0
    max_body_bytes: int = 64 * 1024
    #: host names besides nardy.local, localhost, this machine's name and IP literals
    allowed_hosts: tuple[str, ...] = ()


@dataclass
class WebServices:
    """What the views use; kept on `app.extensions` so blueprints need no globals."""

    hub: StateHub
    controller: Controller
    history: History
    config: WebConfig
    gate: PinGate
    encoder: SnapshotEncoder = field(default_factory=SnapshotEncoder)


def services() -> WebServices:
    from flask import current_app

    return current_app.extensions[EXTENSION_KEY]
