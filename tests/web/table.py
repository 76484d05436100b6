"""The web tests' table: the real referee loop, referee and match engine, running on their
own thread, with a test hand that puts dice and checkers "on the board" by feeding the
referee the observations a camera would give. Nothing of the game is faked: every roll and
play goes through the referee's judgement and the engine's.
"""

from __future__ import annotations

import asyncio
import threading
from dataclasses import dataclass, field
from typing import Any

from nardy_pi.app.loop import RefereeLoop
from nardy_pi.app.outputs import CallbackOutput, Fanout
from nardy_pi.app.session import MatchSession
from nardy_pi.commands import Confirm
from nardy_pi.config import Config
from nardy_pi.devices.strip.output import StripOutput
from nardy_pi.game.state import Phase
from nardy_pi.referee import Referee, RefereeSettings
from nardy_pi.rules.play import Play
from nardy_pi.rules.position import Position
from nardy_pi.rules.sides import Side
from nardy_pi.rules.variants import Variant, get_variant
from nardy_pi.state import DeviceStatus
from nardy_pi.store.history import MatchSummary
from nardy_pi.vision.types import DieOnBoard, Observation
from nardy_pi.web.hub import StateHub


class NoFrames:
    """A camera that never delivers a frame: the test hand feeds the referee instead."""

    name = "camera"

    def read(self) -> None:
        threading.Event().wait(0.05)

    def status(self) -> DeviceStatus:
        return "ok"

    def close(self) -> None:
        pass


def die(value: int, half: str, x: float) -> DieOnBoard:
    return DieOnBoard(value, (x, 300.0), True, True, half, False)  # type: ignore[arg-type]


def observation(p: Position, dice: tuple[DieOnBoard, ...] = ()) -> Observation:
    return Observation(p.points, p.bar[0], p.bar[1], p.off[0], p.off[1], dice)


@dataclass
class ListHistory:
    """History of finished matches held in a list (the tests add to it)."""

    items: list[tuple[MatchSummary, str]] = field(default_factory=list)

    def add(self, summary: MatchSummary, mat_text: str) -> None:
        self.items.insert(0, (summary, mat_text))

    def finished_matches(self) -> list[MatchSummary]:
        return [summary for summary, _ in self.items]

    def mat_text(self, match_id: str) -> str:
        for summary, text in self.items:
            if summary.match_id == match_id:
                return text
        raise KeyError(match_id)


class EngineTable:
    """A running loop over the real engine; `roll` and `play` act like hands at a board."""

    def __init__(self, hub: StateHub, config: Config | None = None,
                 strip: StripOutput | None = None) -> None:
        self.hub = hub
        self.devices: dict[str, DeviceStatus] = {"strip": "ok"}
        config = config or Config()
        session = MatchSession.start(config)
        referee = Referee(session.state.variant, RefereeSettings(move_settle_seconds=0),
                          session.settings.rules)
        self.loop = RefereeLoop(referee, NoFrames(), lambda frame: frame,  # type: ignore[arg-type]
                                Fanout([CallbackOutput("web", hub.publish)]), session,
                                lambda: dict(self.devices))
        if strip is not None:  # the point LEDs, as `nardy-pi run` wires them
            self.loop.fanout.add(strip)
            self.loop.hint_sinks.append(strip.set_hints)
        self._thread = threading.Thread(target=lambda: asyncio.run(self.loop.run()), daemon=True)
        self._thread.start()
        while self.loop._loop is None or self.loop.state is None:  # until it publishes
            threading.Event().wait(0.01)

    def close(self) -> None:
        self.loop.stop()
        self._thread.join(timeout=10)

    # --- on the loop thread ---------------------------------------------------------------------
    def _on_loop(self, act: Any) -> Any:
        return self.loop.query(act, timeout=30)

    def _see(self, board: Position, dice: tuple[DieOnBoard, ...] = ()) -> None:
        for _ in range(2):  # the referee takes a reading after two equal frames
            self.loop.handle_events(self.loop.referee.observe(observation(board, dice),
                                                              self.loop.clock()))

    # --- what the hands do ----------------------------------------------------------------------
    @property
    def variant(self) -> Variant:
        return get_variant(self.loop.session.state.variant)

    @property
    def position(self) -> Position:
        return self._on_loop(lambda: self.loop.session.state.game.position)  # type: ignore[no-any-return]

    def roll(self, dice: tuple[int, int]) -> list[Play]:
        """Throw `dice` (in the opening: white's die, black's die); returns the legal plays."""

        def throw() -> list[Play]:
            game = self.loop.session.state.game
            board = game.position
            self._see(board)  # the board settles first, no dice
            if game.phase is Phase.OPENING:
                thrown = (die(dice[0], "right", 600.0), die(dice[1], "left", 200.0))
            else:
                half, x = ("right", 560.0) if game.turn is Side.WHITE else ("left", 160.0)
                thrown = (die(dice[0], half, x), die(dice[1], half, x + 60))
            self._see(board, thrown)
            return list(self.loop.session.state.game.plays)

        return self._on_loop(throw)  # type: ignore[no-any-return]

    def play(self, choice: int = 0) -> Play:
        """Make the `choice`-th legal play, then pick the dice up (the move is finished)."""

        def move() -> Play:
            game = self.loop.session.state.game
            if game.phase is not Phase.MOVE or not game.plays:
                raise AssertionError(f"no play to make in phase {game.phase}")
            chosen = game.plays[choice % len(game.plays)]
            if game.movements:  # a gulbar opponent's left-overs: no dice, the confirm button
                self._see(chosen.result)
                self.loop.handle_command(Confirm())
                return chosen
            self._see(chosen.result, self._dice_lying())
            self._see(chosen.result)
            return chosen

        return self._on_loop(move)  # type: ignore[no-any-return]

    def misplay(self, board: Position) -> None:
        """Leave `board` after the roll and pick the dice up: the referee judges it."""

        def move() -> None:
            self._see(board, self._dice_lying())
            self._see(board)

        self._on_loop(move)

    def _dice_lying(self) -> tuple[DieOnBoard, ...]:
        game = self.loop.session.state.game
        assert game.dice is not None
        half, x = ("right", 560.0) if game.turn is Side.WHITE else ("left", 160.0)
        return die(game.dice[0], half, x), die(game.dice[1], half, x + 60)

    def set_device(self, name: str, status: DeviceStatus) -> None:
        def change() -> None:
            self.devices[name] = status
            self.loop.publish()

        self._on_loop(change)
