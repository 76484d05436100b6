"""Builds the running program from a `Config`: source, vision, referee, match, outputs.

Every part is optional except the referee: a missing camera, strip, GPIO header or web port
shows up as a device status, never as a crash.
"""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass, field, replace
from typing import Any

from nardy_pi.app.chouette import ChouetteMatch, ChouetteSession
from nardy_pi.app.loop import CommandRefused, RefereeLoop
from nardy_pi.app.outputs import CallbackOutput, Fanout, Output
from nardy_pi.app.sources import CameraFeed, FrameSource
from nardy_pi.config import Config
from nardy_pi.devices.strip.link import StripLink
from nardy_pi.devices.strip.output import StripOutput
from nardy_pi.referee import Referee
from nardy_pi.state import State

log = logging.getLogger(__name__)


@dataclass
class Running:
    """Everything `nardy-pi run` started, so it can all be stopped in order."""

    loop: RefereeLoop
    source: FrameSource
    closers: list[Any] = field(default_factory=list)  # callables, run in reverse order
    web_url: str | None = None
    pin: str | None = None
    demo: Any = None

    def close(self) -> None:
        """LEDs off and outputs closed first (the strip emulator still listens), then the
        web server and helpers, then the camera."""
        self.loop.fanout.close()
        for close in reversed(self.closers):
            try:
                close()
            except Exception as exc:
                log.warning("shutting down: %s", exc)
        self.source.close()


def _source_and_observer(config: Config) -> tuple[FrameSource, Any, Any]:
    from nardy_pi.vision.observe import Observer, default_dice_finder

    if config.camera.source == "demo":
        from nardy_pi.app.demo import DemoTable
        from nardy_pi.vision.calibrate import calibrate
        from nardy_pi.vision.start_positions import start_board

        demo = DemoTable.for_variant(config.game.variant, config.demo.seed,
                                     config.demo.frame_size)
        image, corners = demo.calibration_frame()
        calibration = calibrate(image, corners, start_board(config.game.variant))
        observer = Observer(calibration, default_dice_finder())
        return demo, observer, demo
    if not config.camera.calibration:
        raise ValueError(
            "[camera] calibration is not set: run `nardy-pi calibrate` on a photo of the "
            "start position and give the JSON file here"
        )
    from nardy_pi.vision.calibration import load_calibration

    calibration = load_calibration(config.camera.calibration)
    source: FrameSource = CameraFeed.open(config.camera.source, config.camera.device)
    return source, Observer(calibration, default_dice_finder()), None


def _strip(config: Config, running_closers: list[Any]) -> StripOutput | None:
    port = config.strip.port
    if config.strip.emulate:
        from nardy_pi.devices.strip.emulator import StripEmulator

        try:
            emulator = StripEmulator(config.strip.leds)
        except OSError as exc:  # the firmware source ships with the repository, not the wheel
            log.warning("strip emulator unavailable: %s", exc)
            return None
        emulator.start()
        running_closers.append(emulator.close)
        port = emulator.port
    if not port:
        return None
    link = StripLink(port, config.strip.baudrate)
    link.start()
    return StripOutput(link, config.strip.leds, config.strip.brightness)


def _club(config: Config) -> Output | None:
    """The MQTT publisher of the club's tournament page, when `[club] broker` is set."""
    if not config.club.broker:
        return None
    from nardy_pi.club.broker_url import parse_broker_url
    from nardy_pi.club.publisher import ClubPublisher

    publisher = ClubPublisher(parse_broker_url(config.club.broker), config.club.board)
    publisher.start()  # connects in the background: a broker that is down stops nothing
    return publisher


def _log_output() -> Output:
    last: dict[str, Any] = {}

    def show(state: State) -> None:
        key = (state.phase, state.turn, state.dice, len(state.moves), state.cube_value,
               tuple(a.code for a in state.alerts), tuple(sorted(state.devices.items())))
        if last.get("key") == key:
            return
        last["key"] = key
        alerts = "; ".join(a.message_en for a in state.alerts)
        move = f" last: {state.last_move.side} {state.last_move.text}" if state.last_move else ""
        log.info("state #%d game %d %s, %s to play %s%s, cube %d, score %d-%d%s | devices %s",
                 state.seq, state.game_number, state.phase, state.turn or "nobody",
                 "-".join(map(str, state.dice)), move, state.cube_value, state.white.score,
                 state.black.score, f" | ALERT {alerts}" if alerts else "", state.devices)

    return CallbackOutput("log", show)


def build(
    config: Config, web: bool = True, host: str | None = None, port: int | None = None
) -> Running:
    source, observer, demo = _source_and_observer(config)
    if config.store.path == "auto":
        # A camera game is logged beside the working directory; the demo table is not.
        path = "matches.sqlite" if demo is None else ""
        config = replace(config, store=replace(config.store, path=path))
    referee = Referee(config.game.variant, config.referee, config.rules)
    closers: list[Any] = []
    outputs: list[Output] = [_log_output()]
    strip = _strip(config, closers)
    if strip is not None:
        outputs.append(strip)
    club = _club(config)
    if club is not None:
        outputs.append(club)

    from nardy_pi.devices.gpio import GpioPanel

    loop_ref: dict[str, RefereeLoop] = {}

    def on_button(name: str) -> None:  # gpiozero's thread: only hand over
        try:
            loop_ref["loop"].submit(name)
        except (KeyError, CommandRefused):
            log.info("button %s pressed before the referee started", name)

    gpio = GpioPanel(config.gpio, on_button)
    if gpio.status == "ok":
        outputs.append(CallbackOutput("gpio", gpio.show, lambda: gpio.status, gpio.close))

    extra_status = {} if gpio.status == "ok" else {"gpio": gpio.status}
    if strip is None:
        extra_status["strip"] = "disabled"
    hub = None
    if web:
        from nardy_pi.web.hub import StateHub

        hub = StateHub()
        outputs.append(CallbackOutput("web", hub.publish, lambda: "ok", hub.close))
    else:
        extra_status["web"] = "disabled"
    from nardy_pi.app.match_port import NoMatch

    match = _match_engine(config, resume=demo is None) or NoMatch()
    chouette = _chouette_session(config)
    match = ChouetteMatch(match, chouette)
    resume_point = getattr(match, "resume_point", lambda: None)()
    if resume_point is not None:
        # Pick the interrupted game up where the log left it (the board is still set up).
        referee.correct(*resume_point)
    loop = RefereeLoop(referee, source, lambda frame: observer.observe(frame).observation,
                       Fanout(outputs), match, lambda: dict(extra_status),
                       max_fps=config.camera.fps if demo is None else 0.0)
    loop_ref["loop"] = loop
    running = Running(loop, source, closers, demo=demo)
    if demo is not None:
        loop.listeners.append(lambda events: demo.react(events, loop.referee))
        loop.listeners.append(lambda events: _drain_demo_commands(loop, demo))
    if strip is not None:
        loop.hint_sinks.append(strip.set_hints)
    if hub is not None:
        running.web_url, running.pin = _start_web(config, loop, hub, host, port, closers,
                                                  chouette)
    return running


def _match_engine(config: Config, resume: bool) -> Any:
    """The match engine, logging to `[store] path` and resuming an unfinished match there
    (not for the demo table, which always sets up a new game). A log file that is damaged or
    belongs to another program stops the start with a clear error and is left untouched."""
    from nardy_pi.app.match_adapter import EngineMatch
    from nardy_pi.game.errors import IllegalEventError

    try:
        return EngineMatch.start(config, resume=resume)
    except IllegalEventError as exc:
        raise ValueError(f"{config.store.path}: the stored match does not replay: {exc}") from None


def _drain_demo_commands(loop: RefereeLoop, demo: Any) -> None:
    while demo.commands:
        command = demo.commands.popleft()
        try:
            loop.handle_command(command)
        except CommandRefused as exc:
            log.info("demo: %r refused: %s", command, exc)


def _chouette_session(config: Config) -> ChouetteSession:
    """The chouette beside the match, logged beside the match log (none for the demo)."""
    if not config.store.path:
        return ChouetteSession()
    from nardy_pi.store.chouette_log import ChouetteStore, chouette_log_path

    return ChouetteSession(ChouetteStore(chouette_log_path(config.store.path)))


def _start_web(
    config: Config, loop: RefereeLoop, hub: Any, host: str | None, port: int | None,
    closers: list[Any], chouette: ChouetteSession | None = None,
) -> tuple[str, str]:
    from nardy_pi.app.controller import LoopController
    from nardy_pi.store.history import StoreHistory
    from nardy_pi.web.app import WebConfig, create_app
    from nardy_pi.web.demo import MemoryHistory
    from nardy_pi.web.server import WebServer

    pin = config.web.pin or f"{secrets.randbelow(10**6):06d}"
    history: Any = StoreHistory(config.store.path) if config.store.path else MemoryHistory()
    app = create_app(hub, LoopController(loop), history, WebConfig(pin=pin))
    if chouette is not None:
        from nardy_pi.web.chouette_api import install

        install(app, chouette)
    server = WebServer(app, hub, host or config.web.host,
                       config.web.port if port is None else port)
    server.start()
    closers.append(server.stop)
    shown_host = "localhost" if server.host in ("0.0.0.0", "::") else server.host
    return f"http://{shown_host}:{server.port}/", pin
