"""The one event loop of `nardy-pi run`: frame source -> vision -> referee -> match engine ->
State snapshot -> outputs, with buttons and the web panel feeding typed commands
(`nardy_pi.commands`) into the same loop.

Reading and observing frames runs in one worker thread (OpenCV releases the GIL); everything
that changes the game runs on the loop thread, so the referee and the match never need locks.
Commands from other threads (gpiozero callbacks, waitress workers) arrive through `submit`.

The match engine owns the match: the referee proposes what it saw, the engine decides, and
the referee follows the engine's record (`_sync`) before the next frame is judged.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol, TypeVar, runtime_checkable

import numpy as np

from nardy_pi import commands as cmd
from nardy_pi.app.notices import Notices
from nardy_pi.app.outputs import Fanout
from nardy_pi.app.session import MatchSession, match_started
from nardy_pi.app.snapshot import build_state
from nardy_pi.app.sources import FrameSource
from nardy_pi.errors import CommandRefused, NardyError
from nardy_pi.game.match import Match
from nardy_pi.game.state import Phase
from nardy_pi.game.timers import MoveTimer
from nardy_pi.referee import Referee
from nardy_pi.referee import events as ev
from nardy_pi.rules.position import Position
from nardy_pi.state import DeviceStatus, State, TimerState
from nardy_pi.vision.types import Observation

log = logging.getLogger(__name__)

Observe = Callable[[np.ndarray], Observation]
T = TypeVar("T")


@runtime_checkable
class LearningObserve(Protocol):
    """An observe function that can be told what its last frame showed (app/vision_feed.py):
    the position of a play the engine accepted, for a learned reader to learn from."""

    def __call__(self, frame: np.ndarray) -> Observation: ...

    def confirm(self, points: Sequence[int], bar: tuple[int, int]) -> bool: ...


@dataclass
class LoopStats:
    frames: int = 0
    observe_errors: int = 0
    events: int = 0
    started: float = field(default_factory=time.monotonic)
    #: seconds from a frame's capture to the referee's verdict on it (last verdicts)
    verdict_latency: list[float] = field(default_factory=list)
    #: confirmed positions the reader learned from (vision/board/confirmed.py)
    learned_frames: int = 0


class RefereeLoop:
    def __init__(
        self,
        referee: Referee,
        source: FrameSource,
        observe: Observe,
        fanout: Fanout,
        session: MatchSession | None = None,
        device_status: Callable[[], dict[str, DeviceStatus]] = dict,
        clock: Callable[[], float] = time.monotonic,
        max_fps: float = 0.0,
    ) -> None:
        self.referee = referee
        self.source = source
        self.observe = observe
        self.fanout = fanout
        if session is None:  # an in-memory match of the referee's variant and rules
            from nardy_pi.game.settings import MatchSettings

            settings = MatchSettings(rules=referee.rules)
            session = MatchSession(Match(match_started(referee.variant.name, 0, "White",
                                                       "Black", settings)))
        self.session = session
        #: the evaluation engine (best play, settling a game); None = none installed
        self.evaluator: object | None = None
        self.notices = Notices()
        self.timer: MoveTimer | None = None
        self._timer_for: object = None
        self.device_status = device_status
        self.clock = clock
        self.min_interval = 1.0 / max_fps if max_fps > 0 else 0.0
        self.hint_points: tuple[int, ...] = ()
        self.hint_sources: tuple[int, ...] = ()
        self.stats = LoopStats()
        self.state: State | None = None
        self.last_frame: np.ndarray | None = None  # for the calibration page
        self.listeners: list[Callable[[list[ev.RefereeEvent]], None]] = []
        #: outputs that show hints (sources, destinations), told before each publish
        self.hint_sinks: list[Callable[[tuple[int, ...], tuple[int, ...]], None]] = []
        #: snapshot fields kept beside the match (the chouette), asked at every publish
        self.state_extras: list[Callable[[], dict[str, Any]]] = []
        self.chouette: Any = None  # the chouette session, for the web panel
        self._seq = 0
        self._published: object = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._commands: asyncio.Queue[tuple[cmd.Command, None]] | None = None
        self._stop: asyncio.Event | None = None
        self._camera: DeviceStatus = "absent"
        self._pool = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="frames")
        self._learning: set[asyncio.Task[None]] = set()  # held: the loop keeps weak refs

    # --- from any thread ----------------------------------------------------------------------
    def submit(self, command: cmd.Command) -> None:
        """Queue a typed command (a button's, the panel's) from any thread; fire and forget."""
        if self._loop is None or self._commands is None:
            raise CommandRefused("refusal.loop_not_running")
        self._loop.call_soon_threadsafe(self._commands.put_nowait, (command, None))

    def call(self, command: cmd.Command, timeout: float = 5.0) -> None:
        """Run a command from another thread and wait: raises the refusal (a NardyError)."""
        self.query(lambda: self.handle_command(command), timeout)

    def query(self, read: Callable[[], T], timeout: float = 5.0) -> T:
        """Run `read` on the loop thread and return its result (e.g. the .mat export)."""
        if self._loop is None or self._commands is None:
            raise CommandRefused("refusal.loop_not_running")

        async def run() -> T:
            return read()

        done = asyncio.run_coroutine_threadsafe(run(), self._loop)
        try:
            return done.result(timeout)
        except concurrent.futures.TimeoutError:
            done.cancel()
            raise CommandRefused("refusal.busy") from None

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
            tasks += self._learning  # a lesson still queued is dropped with the frames
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
            except NardyError as exc:
                log.info("command %r refused: %s", command, exc)
            except Exception:
                log.exception("command %r failed", command)

    async def _ticker(self) -> None:
        while True:
            await asyncio.sleep(0.5)
            self.check_timer()
            self.handle_events(self.referee.tick(self.clock()))
            if self.state is not None:
                self.fanout.retry(self.state, self.clock())

    # --- game logic on the loop thread ----------------------------------------------------------
    def handle_events(self, events: list[ev.RefereeEvent], propose: bool = True) -> None:
        """The referee's events: each is proposed to the engine, then the referee follows the
        engine's decision (a gulbar extra throw, a pass, a refusal)."""
        for event in events:
            self.stats.events += 1
            log.debug("referee: %s", event)  # the console shows one short line (app/console.py)
            self.notices.heard(event)
            if isinstance(event, ev.MoveProgress):
                self.hint_sources = () if event.lifted_from is None else (event.lifted_from,)
                self.hint_points = event.destinations
            elif isinstance(event, ev.RollAccepted | ev.OpeningRolled | ev.MovePlayed):
                self.hint_points = self.hint_sources = ()
            if not propose:
                continue
            if isinstance(event, ev.Undone):  # the referee took a timer-finished play back
                self._undo_engine()
                continue
            if isinstance(event, ev.RollAccepted):
                event = self._roller(event)
            moves = len(self.session.moves)
            self.session.propose(event)
            self._sync()
            passed = self.session.moves[moves:]
            if passed and passed[-1].text == "(no play)":
                self.notices.passed(passed[-1].side, passed[-1].dice)
        for listener in self.listeners:
            listener(events)
        self.publish()
        self._learn_from(events)

    def _learn_from(self, events: list[ev.RefereeEvent]) -> None:
        """A play the engine accepted (seen, confirmed by button or by the timer) names the
        position on the board: the observer learns from its last frame. Queued on the frames
        thread, the only one that touches the observer, so it follows the frame in hand."""
        board = self._confirmed_board(events)
        if board is None or not isinstance(self.observe, LearningObserve):
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # events handled outside run() (tests, a replay): no frames
            return
        task = loop.create_task(self._learn(self.observe, board))
        self._learning.add(task)
        task.add_done_callback(self._learning.discard)

    async def _learn(self, observe: LearningObserve,
                     board: tuple[tuple[int, ...], tuple[int, int]]) -> None:
        """Learning is a bonus: its failure stops nothing."""
        try:
            done = await asyncio.get_running_loop().run_in_executor(
                self._pool, observe.confirm, *board)
        except Exception:
            log.exception("learning from a confirmed position failed")
            return
        self.stats.learned_frames += bool(done)

    def _confirmed_board(self, events: list[ev.RefereeEvent]
                         ) -> tuple[tuple[int, ...], tuple[int, int]] | None:
        """Points and bar of the play this frame finished, when the engine accepted it (its
        position is the play's): what the frame showed, vouched for by the rules."""
        played = [e for e in events if isinstance(e, ev.MovePlayed) and e.play is not None]
        if not played:
            return None
        after, now = played[-1].after, self.session.table().position
        if (after.points, after.bar) != (now.points, now.bar):
            return None
        return tuple(now.points), (now.bar[0], now.bar[1])

    def _roller(self, event: ev.RollAccepted) -> ev.RollAccepted:
        """A throw lands while the engine expects the *same* side to throw again (gulbar's
        extra throw): it is that side's throw."""
        game = self.session.state.game
        if game.phase is Phase.ROLL and game.turn is not None and game.turn is not event.side:
            return ev.RollAccepted(game.turn, event.dice)
        return event

    def _sync(self, left_board: Position | None = None) -> None:
        """The referee follows the engine's record."""
        t = self.session.table()
        self.referee.follow(t.game, t.phase, t.position, t.dice, t.plays, t.movements,
                            left_board)

    def handle_command(self, command: cmd.Command) -> None:
        """A typed command from a button, the web panel or the club page."""
        log.debug("command: %s", command)
        ref = self.referee
        if isinstance(command, cmd.Confirm):
            self.handle_events(ref.confirm(self.clock()))
        elif isinstance(command, cmd.Undo):
            self._undo_engine()
            self.publish()
        elif isinstance(command, cmd.CubeAction):
            self.session.cube(command.action)
            self._sync()
            self.publish()
        elif isinstance(command, cmd.Hint):
            self._show_hint()
        elif isinstance(command, cmd.CorrectPosition):
            position = _position_of(command)
            self.session.correct(position, command.dice)  # the engine first: it may refuse
            self.handle_events(ref.correct(position, command.dice), propose=False)
            self._sync()
        elif isinstance(command, cmd.NewMatch):
            self.session.new_match(command)
            self.referee = Referee(command.variant, ref.settings, command.rules)
            self.notices.clear()
            self.hint_points = self.hint_sources = ()
            self._sync()
            for listener in self.listeners:
                listener([])
            self.publish()
        elif isinstance(command, cmd.SettleGame):
            self._settle()
        else:
            raise CommandRefused("refusal.not_handled", command=type(command).__name__)

    def _undo_engine(self) -> None:
        undone = self.session.undo()
        self._sync(undone.left_board)
        self.notices.undone(undone.kind, undone.side)
        self.hint_points = self.hint_sources = ()

    def _settle(self) -> None:
        from nardy_pi.evaluation import settle_game

        winner, level = settle_game(self.evaluator, self.session.state)  # type: ignore[arg-type]
        self.session.settle(winner, level)
        self._sync()
        self.publish()

    def _show_hint(self) -> None:
        """Light the best play (engine, backgammon family) or every legal destination."""
        from nardy_pi.devices.hints import hint

        ref = self.referee
        if ref.dice is None:
            raise CommandRefused("refusal.hint_needs_roll")
        dice = (ref.dice[0], ref.dice[1])
        h = hint(ref.position, dice, ref.variant, ref.rules, evaluator=self.evaluator)
        self.hint_sources, self.hint_points = h.sources, h.destinations
        self.publish()

    # --- the move timer -------------------------------------------------------------------------
    def _timer_state(self) -> TimerState | None:
        settings = self.session.settings
        if settings.move_seconds is None:
            self.timer = None
            return None
        if self.timer is None or self.timer.limit != settings.move_seconds:
            self.timer = MoveTimer(settings.move_seconds, self.clock)
            self._timer_for = None
        from nardy_pi.game.engine import side_to_act

        game = self.session.state.game
        side = side_to_act(game)
        key = (game.number, self.session.state.events, side) if side is not None else None
        # A new decision (another event, another side) restarts the clock.
        if key != self._timer_for:
            self._timer_for = key
            if side is None:
                self.timer.stop()
            else:
                self.timer.start(side)
        reading = self.timer.reading()
        return TimerState(reading.limit, round(reading.remaining, 1),
                          reading.side.label if reading.side is not None else None,  # type: ignore[arg-type]
                          not reading.paused, time.time(), settings.timeout_loses)

    def check_timer(self) -> None:
        """Run out of time: the side to act loses when the match says so (the ticker asks)."""
        if self.timer is None or not self.timer.expired():
            return
        settings = self.session.settings
        side = self.timer.reading().side
        if settings.timeout_loses and side is not None:
            from nardy_pi.game.events import Timeout

            self.session.record(Timeout(side))
            self._sync()
        self.publish()

    def devices(self) -> dict[str, DeviceStatus]:
        return {"camera": self._camera, **self.fanout.statuses(), **self.device_status()}

    @property
    def engine_name(self) -> str:
        return str(getattr(self.evaluator, "name", "none"))

    def publish(self) -> None:
        state = build_state(self.session, self.referee, self.notices.alerts(), self.devices(),
                            self._seq, self.engine_name, self._timer_state())
        for extra in self.state_extras:
            state = replace(state, **extra())
        sources, points = self.hint_sources, self.hint_points
        if state.forced_play and not points:  # the only legal play: light it
            from nardy_pi.devices.hints import play_points

            game = self.session.state.game
            sources, points = play_points(game.plays[0], self.referee.variant, game.position.turn)
        # Hints are not part of `State` (only the strip shows them) but must reach it too.
        key = (replace(state, seq=0, timer=None), points, sources)
        if key == self._published:
            return
        self._published = key
        self._seq += 1
        self.state = replace(state, seq=self._seq)
        for sink in self.hint_sinks:
            sink(sources, points)
        self.fanout.publish(self.state, self.clock())


def _position_of(command: cmd.CorrectPosition) -> Position:
    from nardy_pi.rules.notation.board_field import parse_board_field
    from nardy_pi.rules.sides import Side

    board = parse_board_field(command.board)
    return Position(
        tuple(board.points), (board.bar_white, board.bar_black),
        (command.off_white, command.off_black), Side.parse(command.turn),
    )
