"""Builds the running program from a `Config`: source, vision, referee, match, outputs.

Every part is optional except the referee: a missing camera, strip, GPIO header or web port
shows up as a device status, never as a crash.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from nardy_pi.app.chouette import ChouetteBooking, ChouetteSession
from nardy_pi.app.loop import RefereeLoop
from nardy_pi.app.outputs import CallbackOutput, Fanout, Output
from nardy_pi.app.session import MatchSession
from nardy_pi.app.sources import CameraFeed, FrameSource
from nardy_pi.app.vision_feed import ObserverFeed
from nardy_pi.commands import BUTTON_COMMANDS
from nardy_pi.config import Config
from nardy_pi.devices.strip.link import StripLink
from nardy_pi.devices.strip.output import StripOutput
from nardy_pi.errors import CommandRefused, IllegalEventError, NardyError
from nardy_pi.evaluation import find_evaluator
from nardy_pi.referee import Referee

log = logging.getLogger(__name__)


@dataclass
class Running:
    """Everything `nardy-pi run` started, so it can all be stopped in order."""

    loop: RefereeLoop
    source: FrameSource
    closers: list[Any] = field(default_factory=list)  # callables, run in reverse order
    web_url: str | None = None
    web_urls: list[str] = field(default_factory=list)  # every address phones may use
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
        # Any variant's start calibrates the board: the surface and points are the same.
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


def _chouette(config: Config, loop: RefereeLoop) -> ChouetteSession:
    """The chouette beside the match, logged beside the match log (memory only for the
    demo); the games the engine finishes are booked and the snapshot shows the standings."""
    store = None
    if config.store.path:
        from nardy_pi.store.chouette_log import ChouetteStore, chouette_log_path

        store = ChouetteStore(chouette_log_path(config.store.path))
    session = ChouetteSession(store)
    booking = ChouetteBooking(session, lambda: loop.session.state.results)
    loop.state_extras.append(booking.fields)
    loop.chouette = session  # the web page's chouette panel reads it
    return session


def _log_output() -> Output:
    from nardy_pi.app.console import console_output

    return console_output()


#: starts the web page for a loop (`nardy_pi.web.serve.start_web`), handed in by the CLI
WebStarter = Callable[[Config, RefereeLoop, "str | None", "int | None"], Any]


def build(
    config: Config, web: WebStarter | None = None, host: str | None = None,
    port: int | None = None,
) -> Running:
    source, observer, demo = _source_and_observer(config)
    if config.store.path == "auto":
        # A camera game is logged beside the working directory; the demo table is not.
        path = "matches.sqlite" if demo is None else ""
        config = replace(config, store=replace(config.store, path=path))
    session = _match_session(config, resume=demo is None)
    rules = session.settings.rules
    referee = Referee(session.state.variant, config.referee, rules)
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
            loop_ref["loop"].submit(BUTTON_COMMANDS[name])
        except (KeyError, CommandRefused):
            log.info("button %s pressed before the referee started", name)

    gpio = GpioPanel(config.gpio, on_button)
    if gpio.status == "ok":
        outputs.append(CallbackOutput("gpio", gpio.show, lambda: gpio.status, gpio.close))

    extra_status = {} if gpio.status == "ok" else {"gpio": gpio.status}
    if strip is None:
        extra_status["strip"] = "disabled"
    if web is None:
        extra_status["web"] = "disabled"
    resume_point = session.resume_point()
    if resume_point is not None:
        # Pick the interrupted game up where the log left it (the board is still set up).
        referee.correct(*resume_point)
    loop = RefereeLoop(referee, source, ObserverFeed(observer, config.camera.learn),
                       Fanout(outputs), session, lambda: dict(extra_status),
                       max_fps=config.camera.fps if demo is None else 0.0)
    loop.evaluator = find_evaluator(config.engine.use, config.engine.gnubg)
    log.info("evaluation engine: %s", loop.engine_name)
    loop_ref["loop"] = loop
    _chouette(config, loop)
    running = Running(loop, source, closers, demo=demo)
    if demo is not None:
        loop.listeners.append(lambda events: demo.react(events, loop.referee))
        loop.listeners.append(lambda events: _drain_demo_commands(loop, demo))
    if strip is not None:
        loop.hint_sinks.append(strip.set_hints)
    if web is not None:
        try:
            handle = web(config, loop, host, port)
        except OSError as exc:
            from nardy_pi.app.console import busy_port_message

            message = busy_port_message(exc, config.web.port if port is None else port)
            running.close()
            if message is None:
                raise
            raise ValueError(message) from None
        loop.fanout.add(handle.output)
        closers.append(handle.close)
        running.web_url, running.pin = handle.url, handle.pin
        running.web_urls = list(getattr(handle, "urls", None) or [handle.url])
    return running


def _match_session(config: Config, resume: bool) -> MatchSession:
    """The match engine, logging to `[store] path` and resuming an unfinished match there
    (not for the demo table, which always sets up a new game). A log file that is damaged or
    belongs to another program stops the start with a clear error and is left untouched."""
    try:
        return MatchSession.start(config, resume=resume)
    except (IllegalEventError, ValueError) as exc:  # ValueError: a setting of a stored start
        raise ValueError(f"{config.store.path}: the stored match does not replay: {exc}") from None


def _drain_demo_commands(loop: RefereeLoop, demo: Any) -> None:
    while demo.commands:
        command = demo.commands.popleft()
        try:
            loop.handle_command(command)
        except NardyError as exc:
            log.info("demo: %r refused: %s", command, exc)
