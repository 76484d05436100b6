"""The loop's plumbing: failing outputs do not stop the game; buttons pressed on other
threads reach the referee; snapshots carry every device's status."""

from __future__ import annotations

import asyncio
import threading
from collections import deque
from collections.abc import Callable, Sequence

import pytest

from nardy_pi.app.loop import RefereeLoop
from nardy_pi.app.outputs import CallbackOutput, Fanout
from nardy_pi.commands import Confirm, Hint
from nardy_pi.evaluation import EngineChoice, find_evaluator
from nardy_pi.referee import Referee, RefereeSettings
from nardy_pi.referee import events as ev
from nardy_pi.rules.position import Position
from nardy_pi.state import State
from nardy_pi.vision.types import DieOnBoard, Observation


def state(seq: int) -> State:
    return State(variant="backgammon", board="-" * 26, points=(0,) * 24, turn=None,
                 phase="opening", seq=seq)


class Flaky:
    name = "strip"

    def __init__(self, fail_times: int) -> None:
        self.fail_times = fail_times
        self.shown: list[int] = []

    def show(self, s: State) -> None:
        if self.fail_times > 0:
            self.fail_times -= 1
            raise OSError("device unplugged")
        self.shown.append(s.seq)

    def status(self) -> str:
        return "ok"

    def close(self) -> None:
        pass


def test_a_failing_output_is_retried_and_never_blocks_the_others() -> None:
    flaky = Flaky(fail_times=2)
    seen: list[int] = []
    fanout = Fanout([flaky, CallbackOutput("web", lambda s: seen.append(s.seq))],
                    retry_seconds=1.0)
    fanout.publish(state(1), now=0.0)  # strip fails (1st), web gets it
    assert seen == [1] and flaky.shown == []
    assert fanout.statuses()["strip"] == "error"
    fanout.publish(state(2), now=0.5)  # strip backing off: skipped; web goes on
    assert seen == [1, 2] and flaky.shown == []
    fanout.retry(state(2), now=1.1)  # strip fails again (2nd): backs off 2 s
    fanout.retry(state(2), now=2.0)
    assert flaky.shown == []
    fanout.retry(state(3), now=3.2)  # works: gets the newest state, not the missed ones
    assert flaky.shown == [3]
    assert fanout.statuses()["strip"] == "ok"


def obs(position: Position, dice: tuple[DieOnBoard, ...] = ()) -> Observation:
    return Observation(position.points, position.bar[0], position.bar[1], position.off[0],
                       position.off[1], dice)


class ScriptedSource:
    """Frames are the observations themselves: the loop's `observe` is the identity."""

    name = "camera"

    def __init__(self, frames: list[Observation]) -> None:
        self.frames = deque(frames)
        self.last = frames[-1]

    def read(self) -> object:
        threading.Event().wait(0.01)
        return self.frames.popleft() if self.frames else self.last

    def status(self) -> str:
        return "ok"

    def close(self) -> None:
        pass


def play_24_13(observe: Callable[[Observation], Observation] = lambda frame: frame
               ) -> tuple[RefereeLoop, list[ev.RefereeEvent], list[State]]:
    """White's opening 6-5 played 24/13 in front of the camera and confirmed by a button
    pressed on another thread; `observe` stands between the frames and the referee."""
    start = Position.start("backgammon")
    moved = list(start.points)
    moved[23] -= 1  # white 24/13 (6-5 opening)
    moved[12] += 1
    after = Position(tuple(moved))
    six = DieOnBoard(6, (600.0, 300.0), True, True, "right", False)
    five = DieOnBoard(5, (200.0, 300.0), True, True, "left", False)
    frames = [obs(start)] * 3 + [obs(start, (six, five))] * 3 + [obs(after, (six, five))] * 3
    referee = Referee("backgammon", RefereeSettings(move_settle_seconds=0))
    snapshots: list[State] = []
    broken = Flaky(fail_times=10**6)  # an output that never works
    loop = RefereeLoop(referee, ScriptedSource(frames), observe,  # type: ignore[arg-type]
                       Fanout([CallbackOutput("web", snapshots.append), broken]))
    heard: list[ev.RefereeEvent] = []
    loop.listeners.append(heard.extend)

    def press_confirm_later() -> None:
        while not any(isinstance(e, ev.OpeningRolled) for e in heard):
            threading.Event().wait(0.02)
        threading.Event().wait(0.3)  # the board shows 24/13 with the dice still down
        loop.submit(Confirm())

    presser = threading.Thread(target=press_confirm_later)
    presser.start()
    asyncio.run(loop.run(duration=2.0))
    presser.join()
    return loop, heard, snapshots


def test_loop_referees_frames_and_takes_buttons_from_another_thread() -> None:
    _, heard, snapshots = play_24_13()
    played = [e for e in heard if isinstance(e, ev.MovePlayed)]
    assert [p.notation for p in played] == ["24/13"]
    last = snapshots[-1]
    assert last.turn == "black" and last.phase == "rolling"
    assert last.moves[-1].text == "24/13"
    assert last.devices["camera"] == "ok" and last.devices["strip"] == "error"
    assert [s.seq for s in snapshots] == sorted({s.seq for s in snapshots})


class LearningFeed:
    """An observe function that can be taught (app/loop.py's LearningObserve), recording
    what it was told and on which thread; `fails` makes every lesson raise."""

    def __init__(self, fails: bool = False) -> None:
        self.fails = fails
        self.told: list[tuple[tuple[int, ...], tuple[int, int], str]] = []

    def __call__(self, frame: Observation) -> Observation:
        return frame

    def confirm(self, points: Sequence[int], bar: tuple[int, int]) -> bool:
        self.told.append((tuple(points), bar, threading.current_thread().name))
        if self.fails:
            raise ValueError("the strip model is broken")
        return True


def test_an_accepted_play_teaches_the_observer_its_position_on_the_frames_thread() -> None:
    feed = LearningFeed()
    loop, heard, _ = play_24_13(feed)
    played = [e for e in heard if isinstance(e, ev.MovePlayed)]
    assert [p.notation for p in played] == ["24/13"]
    assert len(feed.told) == 1
    points, bar, thread = feed.told[0]
    assert points == played[0].after.points and bar == (0, 0)
    assert points[23] == 1 and points[12] == 6  # 24/13: one left on 24, six on 13
    assert thread.startswith("frames")  # where the observer lives, never beside a frame
    assert loop.stats.learned_frames == 1


def test_a_lesson_that_fails_is_logged_and_the_game_goes_on(caplog) -> None:
    feed = LearningFeed(fails=True)
    loop, heard, snapshots = play_24_13(feed)
    assert len(feed.told) == 1 and loop.stats.learned_frames == 0
    assert "learning from a confirmed position failed" in caplog.text
    assert [e.notation for e in heard if isinstance(e, ev.MovePlayed)] == ["24/13"]
    last = snapshots[-1]
    assert last.turn == "black" and last.devices["camera"] == "ok"
    assert loop.stats.observe_errors == 0


@pytest.mark.parametrize("engine", ["gnubg-nn", "gnubg"])
def test_hint_button_lights_the_best_play_on_the_strip_sink(engine: EngineChoice) -> None:
    snapshots: list[State] = []
    loop = RefereeLoop(Referee("backgammon"), None, None,  # type: ignore[arg-type]
                       Fanout([CallbackOutput("web", snapshots.append)]))
    loop.evaluator = find_evaluator(engine)
    assert loop.evaluator is not None, f"{engine} is a test dependency (pyproject, .ci/run)"
    lit: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
    loop.hint_sinks.append(lambda sources, points: lit.append((sources, points)))
    start = Position.start("backgammon")
    three = DieOnBoard(3, (600.0, 300.0), True, True, "right", False)
    one = DieOnBoard(1, (200.0, 300.0), True, True, "left", False)
    for i, o in enumerate([obs(start)] * 2 + [obs(start, (three, one))] * 2):
        loop.handle_events(loop.referee.observe(o, i * 0.2))
    assert loop.referee.dice == (3, 1)
    loop.handle_command(Hint())
    # The book play of an opening 3-1 is 8/5 6/5 (white's own points are physical).
    assert lit[-1] == ((6, 8), (5,))
    assert snapshots[-1].engine == engine  # the page says which engine is in use
