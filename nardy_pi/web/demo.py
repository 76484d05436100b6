"""A self-contained match for the page without camera or referee: the web layer's test and
demo adapter of `Controller` and `History`.

It keeps its own small match on top of the rules core (legal plays, pips, a simple cube) and
publishes a `State` after every change, exactly as the real wiring will. It is not the game
engine: scoring and .mat output are deliberately minimal. `python -m nardy_pi.web.demo`
serves the page with a match that plays itself, for trying the page on a phone.
"""

from __future__ import annotations

import argparse
import random
import threading
from dataclasses import dataclass, field, replace
from typing import Literal

from nardy_pi.rules.movegen import legal_plays
from nardy_pi.rules.notation.board_field import format_board_field, parse_board_field
from nardy_pi.rules.play import Play, touched_points
from nardy_pi.rules.position import Position, problems
from nardy_pi.rules.sides import Side
from nardy_pi.rules.variants import Variant, get_variant
from nardy_pi.state import Alert, AlertKind, DeviceStatus, MoveRecord, PlayerState, State
from nardy_pi.web.commands import (
    Calibrate,
    Command,
    Corner,
    CorrectPosition,
    CubeAction,
    NewMatch,
    Undo,
)
from nardy_pi.web.controller import CalibrationView, ControlError
from nardy_pi.web.history import MatchSummary
from nardy_pi.web.hub import StateHub

SideName = Literal["white", "black"]
FRAME_SIZE = (640, 480)


@dataclass(frozen=True)
class _Snapshot:
    """Everything undo restores."""

    position: Position
    dice: tuple[int, ...] = ()
    phase: str = "rolling"
    moves: tuple[MoveRecord, ...] = ()
    last_points: tuple[int, ...] = ()
    cube_value: int = 1
    cube_owner: Literal["white", "black", "center"] = "center"
    cube_offered: bool = False
    scores: tuple[int, int] = (0, 0)
    game_number: int = 1
    winner: SideName | None = None
    alerts: tuple[Alert, ...] = field(default=())


class DemoMatch:
    """Controller adapter over a tiny match. Thread-safe; publishes to `hub` on each change."""

    def __init__(self, hub: StateHub, new_match: NewMatch | None = None) -> None:
        self._hub = hub
        self._lock = threading.RLock()
        self._seq = 0
        self._undo: list[_Snapshot] = []
        self._devices: dict[str, DeviceStatus] = {"camera": "ok", "strip": "ok"}
        self._clocks: dict[SideName, float | None] = {"white": None, "black": None}
        self._corners: tuple[Corner, ...] = ((80, 60), (560, 60), (560, 420), (80, 420))
        self._setup = new_match or NewMatch("backgammon", 5)
        self._variant: Variant = get_variant(self._setup.variant)
        self._now = _Snapshot(Position.start(self._variant))
        self._publish()

    # --- Controller protocol -----------------------------------------------------------
    def execute(self, command: Command) -> None:
        with self._lock:
            if isinstance(command, NewMatch):
                self._setup = command
                self._variant = get_variant(command.variant)
                self._undo.clear()
                self._now = _Snapshot(Position.start(self._variant))
            elif isinstance(command, CorrectPosition):
                self._remember()
                self._now = replace(self._now, position=self._corrected(command), dice=())
            elif isinstance(command, Undo):
                if not self._undo:
                    raise ControlError("nothing to undo")
                self._now = self._undo.pop()
            elif isinstance(command, CubeAction):
                self._cube(command.action)
            elif isinstance(command, Calibrate):
                self._corners = command.corners
            else:  # pragma: no cover - the union is closed
                raise ControlError(f"unsupported command {command!r}")
            self._publish()

    def export_mat(self) -> str:
        with self._lock:
            return self._mat_text()

    def calibration_view(self) -> CalibrationView:
        import cv2
        import numpy as np

        width, height = FRAME_SIZE
        with self._lock:
            corners = self._corners
        image = np.full((height, width, 3), 90, np.uint8)
        outline = np.array(corners, np.int32).reshape(-1, 1, 2)
        cv2.polylines(image, [outline], True, (0, 200, 255), 3)
        ok, jpeg = cv2.imencode(".jpg", image)
        return CalibrationView(jpeg.tobytes() if ok else None, width, height, corners)

    # --- what a referee would do (test and demo drivers) --------------------------------
    @property
    def variant(self) -> Variant:
        return self._variant

    @property
    def position(self) -> Position:
        with self._lock:
            return self._now.position

    def roll(self, dice: tuple[int, int]) -> list[Play]:
        """Put dice on the board; returns the legal plays (a pass is recorded at once)."""
        with self._lock:
            if self._now.winner is not None:
                raise ControlError("the game is over")
            self._remember()
            plays = legal_plays(self._now.position, dice, self._variant, self._setup.settings)
            self._now = replace(self._now, dice=dice, phase="moving", alerts=())
            if not plays:
                self._record(dice, "(no move)", self._now.position.with_turn(self._mover.opponent))
            self._publish()
            return plays

    def play(self, choice: int = 0) -> Play:
        """Make the `choice`-th legal play with the dice on the board."""
        with self._lock:
            plays = legal_plays(
                self._now.position, self._now.dice, self._variant, self._setup.settings
            )
            if not plays:
                raise ControlError("no legal play with these dice")
            chosen = plays[choice % len(plays)]
            self._remember()
            mover = self._mover
            self._record(self._now.dice, chosen.notation, chosen.result)
            self._now = replace(self._now, last_points=touched_points(chosen, self._variant, mover))
            if chosen.result.off[mover] == self._variant.checkers:
                self._end_game(mover.label, self._now.cube_value)  # gammons: not in a demo
            self._publish()
            return chosen

    def alert(self, kind: AlertKind, code: str, message_en: str, message_ru: str) -> None:
        with self._lock:
            alert = Alert(kind, code, message_en, message_ru)
            self._now = replace(self._now, alerts=(*self._now.alerts, alert))
            self._publish()

    def set_device(self, name: str, status: DeviceStatus) -> None:
        with self._lock:
            self._devices[name] = status
            self._publish()

    def set_clock(self, side: SideName, seconds: float | None) -> None:
        with self._lock:
            self._clocks[side] = seconds
            self._publish()

    def state(self) -> State:
        with self._lock:
            return self._state()

    # --- internals ----------------------------------------------------------------------
    @property
    def _mover(self) -> Side:
        return self._now.position.turn

    def _remember(self) -> None:
        self._undo.append(self._now)
        del self._undo[:-50]

    def _record(self, dice: tuple[int, ...], text: str, result: Position) -> None:
        number = len(self._now.moves) + 1
        record = MoveRecord(number, self._mover.label, tuple(dice), text)  # type: ignore[arg-type]
        self._now = replace(
            self._now,
            position=result,
            moves=(*self._now.moves, record),
            dice=(),
            phase="rolling",
            last_points=(),
        )

    def _corrected(self, command: CorrectPosition) -> Position:
        field_ = parse_board_field(command.board)
        position = Position(
            field_.points,
            (field_.bar_white, field_.bar_black),
            (command.off_white, command.off_black),
            Side.parse(command.turn),
        )
        found = problems(position, self._variant)
        if found:
            raise ControlError("; ".join(found))
        return position

    def _cube(self, action: str) -> None:
        now = self._now
        mover = self._mover.label
        if action == "double":
            if now.phase != "rolling" or now.cube_offered:
                raise ControlError("double only before rolling, when no double is pending")
            if now.cube_owner not in ("center", mover):
                raise ControlError(f"{mover} does not own the cube")
            if self._crawford():
                raise ControlError("no doubling in the Crawford game")
            self._remember()
            self._now = replace(now, cube_offered=True, phase="cube_offered")
        elif not now.cube_offered:
            raise ControlError("no double has been offered")
        elif action == "take":
            self._remember()
            taker = self._mover.opponent.label
            self._now = replace(
                now,
                cube_value=now.cube_value * 2,
                cube_owner=taker,  # type: ignore[arg-type]
                cube_offered=False,
                phase="rolling",
            )
        else:  # pass: the doubler wins the current cube value
            self._remember()
            self._end_game(mover, now.cube_value)

    def _end_game(self, winner: SideName, points: int) -> None:
        scores = list(self._now.scores)
        scores[0 if winner == "white" else 1] += points
        length = self._setup.match_length
        over = bool(length) and max(scores) >= length
        self._now = replace(
            self._now,
            scores=(scores[0], scores[1]),
            winner=winner,
            cube_offered=False,
            phase="match_over" if over else "game_over",
            dice=(),
        )

    def _crawford(self) -> bool:
        length = self._setup.match_length
        return bool(length) and self._now.game_number > 1 and length - 1 in self._now.scores

    def _state(self) -> State:
        self._seq += 1
        pos, v, now = self._now.position, self._variant, self._now
        players = {}
        names = {Side.WHITE: self._setup.white_name, Side.BLACK: self._setup.black_name}
        for side, name in names.items():
            players[side] = PlayerState(
                name=name,
                score=now.scores[side],
                pips=pos.pip_count(v, side),
                borne_off=pos.off[side],
                on_bar=pos.bar[side],
                clock_seconds=self._clocks[side.label],
            )
        return State(
            variant=v.name,
            board=format_board_field(pos.points, pos.bar[0], pos.bar[1]),
            points=pos.points,
            turn=None if now.winner else pos.turn.label,  # type: ignore[arg-type]
            phase=now.phase,
            dice=now.dice,
            cube_value=now.cube_value,
            cube_owner=now.cube_owner,
            cube_offered=now.cube_offered,
            match_length=self._setup.match_length,
            crawford=self._crawford(),
            game_number=now.game_number,
            white=players[Side.WHITE],
            black=players[Side.BLACK],
            last_move=now.moves[-1] if now.moves else None,
            last_move_points=now.last_points,
            moves=now.moves,
            alerts=now.alerts,
            winner=now.winner,
            devices=dict(self._devices),
            seq=self._seq,
        )

    def _publish(self) -> None:
        self._hub.publish(self._state())

    def _mat_text(self) -> str:
        s = self._setup
        length = s.match_length
        lines = [f" {length} point match" if length else " 0 point match", "", " Game 1"]
        white_score, black_score = self._now.scores
        lines.append(f" {s.white_name} : {white_score:<28}{s.black_name} : {black_score}")
        moves = self._now.moves
        for i in range(0, len(moves), 2):
            left = moves[i]
            cell = f"{''.join(map(str, left.dice))}: {left.text}"
            right = moves[i + 1] if i + 1 < len(moves) else None
            other = f"{''.join(map(str, right.dice))}: {right.text}" if right else ""
            lines.append(f"{i // 2 + 1:3d}) {cell:<32}{other}".rstrip())
        return "\n".join(lines) + "\n"


class MemoryHistory:
    """History adapter holding finished matches in memory."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._items: list[tuple[MatchSummary, str]] = []

    def add(self, summary: MatchSummary, mat_text: str) -> None:
        with self._lock:
            self._items.insert(0, (summary, mat_text))

    def finished_matches(self) -> list[MatchSummary]:
        with self._lock:
            return [summary for summary, _ in self._items]

    def mat_text(self, match_id: str) -> str:
        with self._lock:
            for summary, text in self._items:
                if summary.match_id == match_id:
                    return text
        raise KeyError(match_id)


def autoplay(match: DemoMatch, stop: threading.Event, pause: float, seed: int = 1) -> None:
    """Roll and play random legal plays until `stop`, restarting finished games."""
    rng = random.Random(seed)
    while not stop.wait(pause):
        if match.state().winner:
            match.execute(NewMatch(match.variant.name, 5))
            continue
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        if match.roll(dice) and not stop.wait(pause):
            match.play(rng.randrange(1000))


def main(argv: list[str] | None = None) -> None:
    from nardy_pi.web.app import WebConfig, create_app
    from nardy_pi.web.server import WebServer

    parser = argparse.ArgumentParser(description="Serve the scoreboard with a self-playing match.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--pin", default="1234")
    parser.add_argument("--pause", type=float, default=2.0, help="seconds between actions")
    parser.add_argument("--variant", default="backgammon")
    args = parser.parse_args(argv)
    hub = StateHub()
    match = DemoMatch(hub, NewMatch(args.variant, 5))
    history = MemoryHistory()
    app = create_app(hub, match, history, WebConfig(pin=args.pin))
    server = WebServer(app, hub, args.host, args.port)
    server.start()
    print(f"serving on http://{args.host}:{server.port}/ (PIN {args.pin}); Ctrl-C stops")
    stop = threading.Event()
    try:
        autoplay(match, stop, args.pause)
    except KeyboardInterrupt:
        pass
    finally:
        stop.set()
        server.stop()


if __name__ == "__main__":
    main()
