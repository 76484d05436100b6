"""The whole loop on a board the reader never saw, through a camera that cuts two points off
the picture: held-out renderer frames -> calibrate_board (learned reader) -> Observer ->
RefereeLoop -> Referee. A reading with points out of view (None) used to raise inside the
referee on every frame ("frame processing failed"); now the rules fill those points in and the
move is played. Real OpenCV, the shipped strip models, the real loop."""

from __future__ import annotations

import asyncio

import numpy as np

from nardy_pi import commands as cmd
from nardy_pi.app.loop import RefereeLoop
from nardy_pi.app.outputs import Fanout
from nardy_pi.app.vision_feed import ObserverFeed
from nardy_pi.referee import Referee, RefereeSettings
from nardy_pi.referee import events as ev
from nardy_pi.rules.notation.board_field import format_board_field
from nardy_pi.rules.position import Position
from nardy_pi.vision.calibrate_board import calibrate_board
from nardy_pi.vision.observe import Observer
from nardy_pi.vision.render.randomised import BoardPosition, iter_session, render_random
from nardy_pi.vision.start_positions import start_board

SEED = 30_018  # a held-out board (ivory on maple) whose camera leaves points 1 and 24 out
SIZE = (640, 480)
START = Position.start("backgammon")


def after_31() -> Position:
    """White's 3-1 played 8/5 6/5."""
    points = list(START.points)
    points[7] -= 1
    points[5] -= 1
    points[4] += 2
    return Position(tuple(points), (0, 0), (0, 0))


class HeldOutTable:
    """A FrameSource: the board after the play, a fresh render each frame (light and noise
    change a little, as a camera's frames do); stops the loop after `frames`."""

    name = "camera"

    def __init__(self, frames: int, loop_box: list) -> None:
        self.left = frames
        self.loop_box = loop_box
        self.scene = 0

    def read(self) -> np.ndarray:
        self.left -= 1
        if self.left <= 0:
            self.loop_box[0].stop()
        self.scene += 1
        return render_random(SEED, "heldout", SIZE, position=BoardPosition(after_31().points),
                             dice="none", cube="none", occluder=False,
                             scene_seed=self.scene).image

    def status(self) -> str:
        return "ok"

    def close(self) -> None:
        pass


def test_a_move_is_refereed_on_a_board_partly_out_of_view() -> None:
    first = next(iter_session(SEED, 0, "heldout", SIZE))
    result = calibrate_board(first.image, first.truth.corners, start_board("backgammon"))
    assert result.accepted, result.message
    observer = Observer(result.calibration, None)
    probe = observer.observe(HeldOutTable(2, [None]).read()).observation
    assert probe.points[0] is None and probe.points[23] is None  # what this test is about

    referee = Referee("backgammon", RefereeSettings(move_settle_seconds=0.3))
    loop_box: list = []
    feed = ObserverFeed(observer, learns=False)  # as app/wiring.py: beliefs pooled
    loop = RefereeLoop(referee, HeldOutTable(25, loop_box), feed, Fanout([]))
    loop_box.append(loop)
    loop.handle_command(cmd.CorrectPosition(format_board_field(START.points, 0, 0), "white",
                                            dice=(3, 1)))
    heard: list[ev.RefereeEvent] = []
    loop.listeners.append(heard.extend)
    asyncio.run(loop.run(duration=120.0))  # the source stops the loop at its end

    assert loop.stats.observe_errors == 0
    assert len(feed.pool) > 1  # the referee decoded pooled beliefs
    played = [e for e in heard if isinstance(e, ev.MovePlayed)]
    assert played and played[0].after.points == after_31().points, heard
    assert not [e for e in heard if isinstance(e, ev.IllegalMove | ev.Desync)], heard
