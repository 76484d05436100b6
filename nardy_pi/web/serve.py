"""The web page of `nardy-pi run`: the `Controller` over the referee loop, the hub as one
of the loop's outputs, and the server. `nardy_pi.cli.run` hands `start_web` to the app's
wiring, so nothing in `app/` imports the web layer."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any

from nardy_pi.app.console import page_urls
from nardy_pi.app.loop import RefereeLoop
from nardy_pi.app.outputs import CallbackOutput, Output
from nardy_pi.app.recalibrate import Recalibrator, observer_for
from nardy_pi.app.vision_feed import ObserverFeed
from nardy_pi.commands import Calibrate, Command
from nardy_pi.errors import CommandRefused
from nardy_pi.store.history import NoHistory, StoreHistory
from nardy_pi.web.app import WebConfig, create_app
from nardy_pi.web.controller import CalibrationView
from nardy_pi.web.hub import StateHub
from nardy_pi.web.server import WebServer


class LoopController:
    """The panel's commands run on the loop thread, as the buttons' do."""

    def __init__(self, loop: RefereeLoop, calibration_path: str | None = None) -> None:
        self.loop = loop

        def install(calibration: Any) -> None:  # the frames worker reads it on its next frame
            # The new board starts learning afresh, as the old one did ([camera] learn).
            learns = not isinstance(loop.observe, ObserverFeed) or loop.observe.learns
            loop.observe = observer_for(calibration, learns)

        #: the page's calibration wizard (web/calibration_api.py); saves to the configured file
        self.recalibrator = Recalibrator(lambda: loop.referee.variant.name,
                                         lambda: loop.last_frame, install, calibration_path)

    def execute(self, command: Command) -> None:
        if isinstance(command, Calibrate):
            raise CommandRefused("refusal.not_handled", command="Calibrate")
        self.loop.call(command)

    def export_mat(self) -> str:
        return self.loop.query(lambda: self.loop.session.mat_text())

    def calibration_view(self) -> CalibrationView:
        """The newest camera frame; the overlay and corners are not drawn yet."""
        frame = self.loop.last_frame
        if frame is None:
            return CalibrationView(jpeg=None, width=0, height=0, corners=())
        import cv2

        ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 80])
        height, width = frame.shape[:2]
        return CalibrationView(bytes(buf) if ok else None, int(width), int(height),
                               self.recalibrator.corners)


@dataclass
class WebHandle:
    output: Output  # the hub, as one of the loop's outputs
    url: str
    pin: str
    close: Any
    urls: list[str] = field(default_factory=list)  # every address phones may use


def start_web(config: Any, loop: RefereeLoop, host: str | None, port: int | None) -> WebHandle:
    """Serve the page for `loop` (a `nardy_pi.config.Config` gives host, port and PIN)."""
    hub = StateHub()
    pin = config.web.pin or f"{secrets.randbelow(10**6):06d}"
    history: Any = StoreHistory(config.store.path) if config.store.path else NoHistory()
    controller = LoopController(loop, config.camera.calibration or None)
    web_config = WebConfig(pin=pin, allowed_hosts=config.web.hosts)
    app = create_app(hub, controller, history, web_config)
    if getattr(loop, "chouette", None) is not None:
        from nardy_pi.web.chouette_api import install

        install(app, loop.chouette)
    server = WebServer(app, hub, host or config.web.host,
                       config.web.port if port is None else port)
    server.start()

    shown_host = "localhost" if server.host in ("0.0.0.0", "::") else server.host
    output = CallbackOutput("web", hub.publish, lambda: "ok", hub.close)
    return WebHandle(output, f"http://{shown_host}:{server.port}/", pin, server.stop,
                     page_urls(server.host, server.port))
