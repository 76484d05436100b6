"""The one event loop of `nardy-pi run`: frame source -> vision -> referee -> match -> State
snapshot -> outputs, with buttons and the web panel feeding commands into the same loop.

Reading and observing frames runs in one worker thread (OpenCV releases the GIL); everything
that changes the game runs on the loop thread, so the referee and the match never need locks.
Commands from other threads (gpiozero callbacks, waitress workers) arrive through `submit`.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from nardy_pi.app.match_port import MatchPort, NoMatch
from nardy_pi.app.outputs import Fanout
from nardy_pi.app.record import GameRecord, build_state
from nardy_pi.app.sources import FrameSource
from nardy_pi.referee import Referee
from nardy_pi.referee import events as ev
from nardy_pi.rules.position import Position
from nardy_pi.state import DeviceStatus, State
from nardy_pi.vision.types import Observation

log = logging.getLogger(__name__)

Observe = Callable[[np.ndarray], Observation]


class CommandRefused(RuntimeError):
    """A command that cannot be carried out now; the message says why."""


@dataclass
class LoopStats:
    frames: int = 0
    observe_errors: int = 0
    events: int = 0
    started: float = field(default_factory=time.monotonic)
    #: seconds from a frame's capture to the referee's verdict on it (last verdicts)
    verdict_latency: list[float] = field(default_factory=list)


class RefereeLoop:
    def __init__(
        self,
        referee: Referee,
        source: FrameSource,
        observe: Observe,
        fanout: Fanout,
        match: MatchPort | None = None,
        device_status: Callable[[], dict[str, DeviceStatus]] = dict,
        clock: Callable[[], float] = time.monotonic,
        max_fps: float = 0.0,
    ) -> None:
        self.referee = referee
        self.source = source
        self.observe = observe
        self.fanout = fanout
        self.match = match or NoMatch()
        self.device_status = device_status
        self.clock = clock
        self.min_interval = 1.0 / max_fps if max_fps > 0 else 0.0
        self.record = GameRecord()
        self.stats = LoopStats()
        self.state: State | None = None
        self.last_frame: np.ndarray | None = None  # for the calibration page
        self.listeners: list[Callable[[list[ev.RefereeEvent]], None]] = []
        #: outputs that show hints (sources, destinations), told before each publish
        self.hint_sinks: list[Callable[[tuple[int, ...], tuple[int, ...]], None]] = []
        self._seq = 0
        self._published: object = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._commands: asyncio.Queue[tuple[object, asyncio.Future[None] | None]] | None = None
        self._stop: asyncio.Event | None = None
        self._camera: DeviceStatus = "absent"
        self._pool = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="frames")

    # --- from any thread ----------------------------------------------------------------------
    def submit(self, command: object) -> None:
        """Queue a command (button name, web command) from any thread; fire and forget."""
        if self._loop is None or self._commands is None:
            raise CommandRefused("the referee loop is not running")
        self._loop.call_soon_threadsafe(self._commands.put_nowait, (command, None))

    def call(self, command: object, timeout: float = 5.0) -> None:
        """Run a command from another thread and wait: raises CommandRefused with the reason."""
        if self._loop is None or self._commands is None:
            raise CommandRefused("the referee loop is not running")
        done: concurrent.futures.Future[None] = asyncio.run_coroutine_threadsafe(
            self._call(command), self._loop
        )
        done.result(timeout)

    async def _call(self, command: object) -> None:
        self.handle_command(command)

    def stop(self) -> None:
        if self._loop is not None and self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)

    # --- the loop -------------------------------------------------------------------------------
    async def run(self, duration: float | None = None) -> LoopStats:
        self._loop = asyncio.get_running_loop()
        self._commands = asyncio.Queue()
        self._stop = asyncio.Event()
        self.publish()
        tasks = [
            asyncio.create_task(self._frames(), name="frames"),
            asyncio.create_task(self._command_task(), name="commands"),
            asyncio.create_task(self._ticker(), name="ticker"),
        ]
        try:
            if duration is None:
                await self._stop.wait()
            else:
                await asyncio.wait_for(self._stop.wait(), duration)
        except TimeoutError:
            pass
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            self._pool.shutdown(wait=True, cancel_futures=True)
        return self.stats

    async def _frames(self) -> None:
        while True:
            try:
                await self._one_frame()
            except asyncio.CancelledError:
                raise
            except Exception:  # a bug or a broken frame must not stop refereeing
                self.stats.observe_errors += 1
                self._camera = "error"
                log.exception("frame processing failed")
                await asyncio.sleep(0.5)

    async def _one_frame(self) -> None:
        loop = asyncio.get_running_loop()
        captured = self.clock()
        frame = await loop.run_in_executor(self._pool, self.source.read)
        if frame is None:
            self._camera = self.source.status()
            await asyncio.sleep(0.05)
            return
        obs = await loop.run_in_executor(self._pool, self.observe, frame)
        self.last_frame = frame
        self._camera = self.source.status()
        self.stats.frames += 1
        events = self.referee.observe(obs, self.clock())
        if events:
            self.stats.verdict_latency.append(self.clock() - captured)
            del self.stats.verdict_latency[:-200]
        self.handle_events(events)
        wait = self.min_interval - (self.clock() - captured)
        if wait > 0:  # a camera faster than needed: spare the CPU (a Pi Zero has little)
            await asyncio.sleep(wait)

    async def _command_task(self) -> None:
        assert self._commands is not None
        while True:
            command, _ = await self._commands.get()
            try:
                self.handle_command(command)
            except CommandRefused as exc:
                log.info("command %r refused: %s", command, exc)
            except Exception:
                log.exception("command %r failed", command)

    async def _ticker(self) -> None:
        while True:
            await asyncio.sleep(0.5)
            self.handle_events(self.referee.tick(self.clock()))
            if self.state is not None:
                self.fanout.retry(self.state, self.clock())

    # --- game logic on the loop thread ----------------------------------------------------------
    def handle_events(self, events: list[ev.RefereeEvent]) -> None:
        for event in events:
            self.stats.events += 1
            log.debug("referee: %s", event)  # the console shows one short line (app/console.py)
            self.record.apply(event, self.referee)
            self.match.apply(event)
        for listener in self.listeners:
            listener(events)
        self.publish()

    def handle_command(self, command: object) -> None:
        """Buttons ("confirm", "undo", "double", "take", "pass", "hint") and panel commands."""
        from nardy_pi.web import commands as web

        log.debug("command: %s", command)
        ref = self.referee
        if command == "confirm":
            self.handle_events(ref.confirm(self.clock()))
        elif command == "undo" or isinstance(command, web.Undo):
            undone = ref.undo()
            if not undone:
                raise CommandRefused("there is no play to undo in this game")
            self.handle_events(undone)
        elif command in ("double", "take", "pass") or isinstance(command, web.CubeAction):
            action = command.action if isinstance(command, web.CubeAction) else str(command)
            self.match.cube(action, ref)
            if action == "pass":
                ref.end_game()
            self.publish()
        elif command == "hint":
            self._show_hint()
        elif isinstance(command, web.CorrectPosition):
            self.handle_events(ref.correct(_position_of(command)))
        elif isinstance(command, tuple) and command and command[0] == "correct":
            self.handle_events(ref.correct(command[1]))
        elif isinstance(command, web.NewMatch):
            self.match.new_match(command)
            self.referee = Referee(command.variant, ref.settings, command.settings)
            self.record = GameRecord()
            self.publish()
        else:
            raise CommandRefused(f"{type(command).__name__} is not handled while refereeing")

    def _show_hint(self) -> None:
        """Light the best play (engine, backgammon family) or every legal destination."""
        from nardy_pi.devices.hints import hint

        ref = self.referee
        if ref.dice is None:
            raise CommandRefused("a hint needs a roll to play")
        h = hint(ref.position, ref.dice, ref.variant, ref.rules)
        self.record.hint_sources, self.record.hint_points = h.sources, h.destinations
        self.publish()

    def devices(self) -> dict[str, DeviceStatus]:
        return {"camera": self._camera, **self.fanout.statuses(), **self.device_status()}

    def publish(self) -> None:
        state = build_state(self.referee, self.record, self.devices(), self._seq,
                            self.match.fields)
        # Hints are not part of `State` (only the strip shows them) but must reach it too.
        key = (replace(state, seq=0), self.record.hint_points, self.record.hint_sources)
        if key == self._published:
            return
        self._published = key
        self._seq += 1
        self.state = replace(state, seq=self._seq)
        for sink in self.hint_sinks:
            sink(self.record.hint_sources, self.record.hint_points)
        self.fanout.publish(self.state, self.clock())


def _position_of(command: Any) -> Position:
    from nardy_pi.rules.notation.board_field import parse_board_field
    from nardy_pi.rules.sides import Side

    board = parse_board_field(command.board)
    return Position(
        tuple(board.points), (board.bar_white, board.bar_black),
        (command.off_white, command.off_black), Side.parse(command.turn),
    )
