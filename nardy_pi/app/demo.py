"""The demo table: a synthetic board that plays whole games by itself, seen through the real
pipeline (rendered frames -> vision -> referee -> outputs), so a newcomer sees it all work on a
laptop with no camera.

Two simulated players sit at it. They throw dice, move checkers one step at a time with a hand
over the board, pick the dice up, and react to what the referee says like people would: throw
again when told, fix a move flagged illegal, and correct the record through the control panel
when the camera misread something. The first game stages the moments worth seeing: a tied
opening throw, a void throw, an illegal move that is then corrected, and a double that is taken.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from nardy_pi.commands import Command, CorrectPosition, CubeAction
from nardy_pi.referee import Phase, Referee
from nardy_pi.referee import events as ev
from nardy_pi.rules.movegen import some_full_play
from nardy_pi.rules.notation.board_field import format_board_field
from nardy_pi.rules.play import Play, Step
from nardy_pi.rules.position import BAR, OFF, Position
from nardy_pi.rules.sides import Side
from nardy_pi.rules.variants import Variant, get_variant
from nardy_pi.state import DeviceStatus

log = logging.getLogger(__name__)

STYLE = "tournament"  # has bear-off trays, so borne-off checkers are counted, not guessed
MIDDLE_Y = (5.0, 6.0)  # the free band between the point rows, board units
RIGHT_X, LEFT_X = (8.0, 12.2), (0.8, 5.0)
PATIENCE = 8  # frames to wait for the referee before acting on our own


@dataclass(frozen=True, slots=True)
class RefereeView:
    """What the players can read off the LEDs and the page (copied on the loop thread)."""

    phase: Phase
    position: Position
    dice: tuple[int, ...] | None  # the roll, or a gulbar opponent's left-over movements
    alarm: bool
    desync: bool
    plays: tuple[Play, ...] = ()  # the legal plays the record allows now


@dataclass
class _Step:
    hand: bool  # a hand over the board in this frame
    act: Callable[[], None] | None = None


@dataclass
class Staging:
    """The special moments still to show in this demo run."""

    opening_tie: bool = True
    void_throw: bool = True
    illegal_move: bool = True
    double_and_take: bool = True


@dataclass
class DemoTable:
    """A `FrameSource` that is a whole table: board, dice, two players."""

    variant: Variant
    seed: int = 1
    width: int = 640
    name: str = "camera"
    staging: Staging = field(default_factory=Staging)
    commands: deque[Command] = field(default_factory=deque)  # for the app: buttons, panel

    def __post_init__(self) -> None:
        from nardy_pi.vision.render import Camera
        from nardy_pi.vision.render.styles import style_named

        self._style = style_named(STYLE)
        self._camera = Camera(width=self.width, height=self.width * 3 // 4, seed=self.seed)
        self._rng = np.random.default_rng(self.seed)
        self._lock = threading.Lock()
        self.board = Position.start(self.variant)
        self.dice: tuple[tuple[int, float, float, bool], ...] = ()  # value, x, y, flat
        self.cube = 1
        self._steps: deque[_Step] = deque()
        self._view: RefereeView | None = None
        self._idle = 0  # frames with nothing to do while the referee has not reacted
        self._frame_no = 0
        self._turns = 0

    @classmethod
    def for_variant(cls, variant: str, seed: int = 1, width: int = 640) -> DemoTable:
        return cls(get_variant(variant), seed, width)

    # --- FrameSource --------------------------------------------------------------------------
    def read(self) -> np.ndarray:
        with self._lock:
            if not self._steps:
                self._plan()
            step = self._steps.popleft() if self._steps else _Step(False)
            if step.act is not None:
                step.act()
            scene = self._scene(step.hand)
        from nardy_pi.vision.render import render_scene

        return render_scene(self._style, self._camera, scene).image  # type: ignore[return-value]

    def status(self) -> DeviceStatus:
        return "ok"

    def close(self) -> None:
        pass

    def calibration_frame(self) -> tuple[np.ndarray, np.ndarray]:
        """A frame of the start position with no dice, and the surface corners in it."""
        from nardy_pi.vision.render import Scene, render_scene

        start = Position.start(self.variant)
        rendered = render_scene(self._style, self._camera, Scene(points=start.points, seed=0))
        return rendered.image, np.array(rendered.corners)  # type: ignore[return-value]

    # --- what the players see -------------------------------------------------------------------
    def react(self, events: list[ev.RefereeEvent], referee: Referee) -> None:
        """Called on the loop thread after each observation with what the referee said."""
        view = RefereeView(referee.phase, referee.position, referee.dice,
                           referee.alarm is not None, referee.desync is not None,
                           tuple(referee.plays))
        with self._lock:
            if referee.variant.name != self.variant.name:  # a New match: set up its board
                self._set_up(referee.variant)
            self._view = view
            for event in events:
                self._heard(event)

    def _set_up(self, variant: Variant) -> None:
        self.variant = variant
        self.board = Position.start(variant)
        self.dice = ()
        self.cube = 1
        self._steps.clear()
        self._idle = 0
        self._turns = 0
        self.staging = Staging(False, False, False, False)

    def _heard(self, event: ev.RefereeEvent) -> None:
        if isinstance(event, ev.RerollRequired | ev.OpeningTie):
            self._steps.clear()
            self._pick_up_dice()
        elif isinstance(event, ev.RollAccepted | ev.OpeningRolled):
            self._idle = 0
        elif isinstance(event, ev.MovePlayed):
            self._idle = 0
            self._turns += 1

    # --- planning -----------------------------------------------------------------------------
    def _plan(self) -> None:
        view = self._view
        if view is None:
            self._still(2)
            return
        if view.alarm or view.desync:
            self._idle += 1
            if self._idle > PATIENCE:  # the camera misread something: fix the record
                self._correct_record(view)
            return
        phase = view.phase
        if phase is Phase.OPENING:
            self._plan_opening(view)
        elif phase is Phase.ROLL:
            self._plan_roll(view)
        elif phase is Phase.MOVE:
            self._plan_move(view)
        else:
            self._plan_new_game()

    def _still(self, frames: int) -> None:
        self._steps.extend(_Step(False) for _ in range(frames))

    def _do(self, act: Callable[[], None], hand_frames: int = 1, settle: int = 2) -> None:
        self._steps.extend(_Step(True) for _ in range(hand_frames))
        self._steps.append(_Step(True, act))
        self._still(settle)

    def _waiting(self) -> None:
        """Dice lie there and the referee has said nothing yet: give it time, then rethrow."""
        self._idle += 1
        if self._idle <= PATIENCE:
            self._still(1)
            return
        self._idle = 0
        self._pick_up_dice()

    def _plan_opening(self, view: RefereeView) -> None:
        if not _same_board(self.board, Position.start(self.variant)):
            self._plan_new_game()
            return
        if self.dice:
            self._waiting()
            return
        if self.staging.opening_tie:
            self.staging.opening_tie = False
            white = black = int(self._rng.integers(1, 7))
        else:
            white, black = (int(v) for v in self._rng.choice(np.arange(1, 7), 2, replace=False))
        self._throw(((white, RIGHT_X), (black, LEFT_X)))

    def _plan_roll(self, view: RefereeView) -> None:
        if self._on_board_differs(view):
            return
        if self.dice:
            self._waiting()
            return
        mover = view.position.turn
        if self.staging.double_and_take and self._turns >= 3:
            self.staging.double_and_take = False
            # the buttons a person would press
            self.commands.extend([CubeAction("double"), CubeAction("take")])
            self.cube *= 2
            self._still(3)
            return
        values = (int(self._rng.integers(1, 7)), int(self._rng.integers(1, 7)))
        half = RIGHT_X if mover is Side.WHITE else LEFT_X
        if self.staging.void_throw and self._turns >= 1:
            self.staging.void_throw = False
            self._throw(((values[0], RIGHT_X), (values[1], LEFT_X)))  # across the bar
            return
        self._throw(((values[0], half), (values[1], half)))

    def _plan_move(self, view: RefereeView) -> None:
        assert view.dice is not None
        if self._on_board_differs(view):
            return
        plays = list(view.plays)
        mover = view.position.turn
        if not plays and len(view.dice) == 2:  # a ladder too big to list, or a pass
            found = some_full_play(view.position, view.dice, self.variant)
            plays = [found] if found is not None else []
        if not plays:
            self._still(2)
            self._do(self._pick_up_dice_now)
            return
        play = self._choose(plays)
        steps = list(play.steps)
        staged_illegal = self.staging.illegal_move and len(steps) == 2 and len(
            {s.src for s in steps}) == 2 and view.dice[0] != view.dice[1]
        if staged_illegal:  # play one die only, pick the dice up, then fix it when told
            self.staging.illegal_move = False
            self._move(steps[0], mover)
            self._do(self._pick_up_dice_now)
            self._still(4)
            self._move(steps[1], mover)
            return
        for step in steps:
            self._move(step, mover)
        self._do(self._pick_up_dice_now)

    def _plan_new_game(self) -> None:
        def reset() -> None:
            self.board = Position.start(self.variant)
            self.dice = ()
            self.cube = 1

        self._still(4)
        self._do(reset, hand_frames=2, settle=3)

    def _on_board_differs(self, view: RefereeView) -> bool:
        """Our board is ahead of the record (the last move is not recorded yet): wait."""
        if _same_board(self.board, view.position):
            return False
        self._idle += 1
        if self._idle > PATIENCE * 2:
            self._correct_record(view)
        else:
            self._still(1)
        return True

    def _correct_record(self, view: RefereeView) -> None:
        """Like a person at the control panel: set the record to what is on the table."""
        self._idle = 0
        turn = view.position.turn
        if view.phase is Phase.MOVE and not _same_board(self.board, view.position):
            turn = turn.opponent  # the move was made on the board: the other side rolls
        b = self.board
        self.commands.append(CorrectPosition(format_board_field(b.points, b.bar[0], b.bar[1]),
                                             turn.label, b.off[0], b.off[1]))  # type: ignore[arg-type]
        self._still(3)

    def _choose(self, plays: list[Play]) -> Play:
        """A plain greedy player (no engine: the demo must fit a Pi Zero's memory): bear off,
        hit, make points, leave few blots; random among equals."""
        view = self._view
        assert view is not None
        mover = view.position.turn

        def score(play: Play) -> tuple[float, ...]:
            own, opp = play.result.view(self.variant, mover)
            made = sum(1 for p in range(1, 25) if own[p] >= 2)
            blots = sum(1 for p in range(1, 25) if own[p] == 1)
            return (own[OFF], opp[BAR], made - blots, float(self._rng.random()))

        return max(plays, key=score)

    # --- physical actions ---------------------------------------------------------------------
    def _throw(self, dice: tuple[tuple[int, tuple[float, float]], ...]) -> None:
        placed = []
        for value, (x0, x1) in dice:
            x = float(self._rng.uniform(x0, x1))
            while any(abs(x - px) < 1.2 for _, px, _, _ in placed):
                x = float(self._rng.uniform(x0, x1))
            y = float(self._rng.uniform(*MIDDLE_Y))
            placed.append((value, x, y, True))

        def land() -> None:
            self.dice = tuple(placed)

        self._idle = 0
        self._do(land, hand_frames=2, settle=3)

    def _pick_up_dice(self) -> None:
        self._do(self._pick_up_dice_now)

    def _pick_up_dice_now(self) -> None:
        self.dice = ()

    def _move(self, step: Step, mover: Side) -> None:
        def move() -> None:
            self.board = _moved(self.board, self.variant, step, mover)

        self._do(move, hand_frames=1, settle=2)

    def _scene(self, hand: bool) -> object:
        from nardy_pi.vision.render import Scene
        from nardy_pi.vision.render.scene import CubePlacement, DiePlacement, HandPlacement

        self._frame_no += 1
        hands = ()
        if hand:
            spot = self._rng.uniform((2.0, 2.0), (11.0, 9.0))
            hands = (HandPlacement(2 if self._frame_no % 2 else 0, float(spot[0]),
                                   float(spot[1])),)
        b = self.board
        return Scene(
            points=b.points, bar_white=b.bar[0], bar_black=b.bar[1], off_white=b.off[0],
            off_black=b.off[1],
            dice=tuple(DiePlacement(v, x, y, flat) for v, x, y, flat in self.dice),
            cube=CubePlacement(self.cube if self.cube > 1 else 64, "center"),
            hands=hands, seed=self._frame_no,
        )


def _same_board(a: Position, b: Position) -> bool:
    """The same checkers in the same places, whoever is to move."""
    return (a.points, a.bar, a.off) == (b.points, b.bar, b.off)


def _moved(board: Position, variant: Variant, step: Step, mover: Side) -> Position:
    """One checker moved by hand; a blot it lands on goes to the bar."""
    white = mover is Side.WHITE
    sign = mover.sign
    pts = list(board.points)
    bar = list(board.bar)
    off = list(board.off)
    if step.src == BAR:
        bar[mover] -= 1
    else:
        pts[variant.own_to_physical(white, step.src) - 1] -= sign
    if step.dst == OFF:
        off[mover] += 1
    else:
        i = variant.own_to_physical(white, step.dst) - 1
        if pts[i] * sign < 0:
            pts[i] = 0
            bar[mover.opponent] += 1
        pts[i] += sign
    return Position(tuple(pts), (bar[0], bar[1]), (off[0], off[1]), board.turn)
