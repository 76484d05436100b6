"""A scripted table for referee tests: a physical board, dice and hands, producing the
Observations a camera would report, frame by frame, with a clock."""

from __future__ import annotations

from dataclasses import dataclass, field

from nardy_pi.referee import Referee
from nardy_pi.referee.events import RefereeEvent
from nardy_pi.rules.position import Position
from nardy_pi.vision.types import DieOnBoard, Observation

FPS = 5.0


def die(
    value: int | None,
    half: str | None = "right",
    flat: bool = True,
    on_board: bool = True,
    on_checker: bool = False,
) -> DieOnBoard:
    x = 600.0 if half == "right" else 200.0
    return DieOnBoard(value, (x, 300.0), flat, on_board, half, on_checker)  # type: ignore[arg-type]


@dataclass
class Table:
    """The physical table. Points are physical, +white/-black; 25 = bar, 0 = off (per colour)."""

    referee: Referee
    position: Position
    dice: tuple[DieOnBoard, ...] = ()
    now: float = 0.0
    events: list[RefereeEvent] = field(default_factory=list)

    @classmethod
    def start(cls, referee: Referee) -> Table:
        return cls(referee, Position.start(referee.variant))

    def observation(self, occluded: bool = False) -> Observation:
        p = self.position
        points = p.points
        if occluded:  # a hand hides part of the board: the census there is nonsense
            points = tuple(0 if i % 3 == 0 else c for i, c in enumerate(points))
        return Observation(
            points=points,
            bar_white=p.bar[0],
            bar_black=p.bar[1],
            off_white=p.off[0],
            off_black=p.off[1],
            dice=self.dice,
            occluded=occluded,
        )

    def frames(self, n: int = 3, occluded: bool = False) -> list[RefereeEvent]:
        new: list[RefereeEvent] = []
        for _ in range(n):
            self.now += 1.0 / FPS
            new += self.referee.observe(self.observation(occluded), self.now)
        self.events += new
        return new

    def wait(self, seconds: float) -> list[RefereeEvent]:
        return self.frames(int(seconds * FPS))

    def hand(self, n: int = 2) -> list[RefereeEvent]:
        return self.frames(n, occluded=True)

    def throw(self, *dice: DieOnBoard) -> list[RefereeEvent]:
        new = self.hand()
        self.dice = tuple(dice)
        return new + self.frames()

    def pick_up_dice(self) -> list[RefereeEvent]:
        new = self.hand()
        self.dice = ()
        return new + self.frames()

    def move(self, src: int, dst: int, white: bool, settle: bool = True) -> list[RefereeEvent]:
        """Move one checker by hand (physical points; 25 = bar, 0 = off); hits are explicit."""
        new = self.hand()
        self.position = _moved(self.position, src, dst, white)
        return new + (self.frames() if settle else [])

    def lift(self, src: int, white: bool) -> list[RefereeEvent]:
        """Hold a checker above the board, off to the side: the board shows it missing."""
        pts = list(self.position.points)
        pts[src - 1] -= 1 if white else -1
        self.position = Position(tuple(pts), self.position.bar, self.position.off)
        return self.frames()

    def put(self, dst: int, white: bool) -> list[RefereeEvent]:
        pts = list(self.position.points)
        pts[dst - 1] += 1 if white else -1
        self.position = Position(tuple(pts), self.position.bar, self.position.off)
        return self.frames()


def _moved(p: Position, src: int, dst: int, white: bool) -> Position:
    sign = 1 if white else -1
    pts = list(p.points)
    bar = list(p.bar)
    off = list(p.off)
    me = 0 if white else 1
    if src == 25:
        bar[me] -= 1
    else:
        assert pts[src - 1] * sign > 0, f"no {'white' if white else 'black'} checker on {src}"
        pts[src - 1] -= sign
    if dst == 0:
        off[me] += 1
    else:
        if pts[dst - 1] * sign < 0:  # a blot of the other colour is hit by hand
            assert abs(pts[dst - 1]) == 1
            pts[dst - 1] = 0
            bar[1 - me] += 1
        pts[dst - 1] += sign
    return Position(tuple(pts), (bar[0], bar[1]), (off[0], off[1]))


def kinds(events: list[RefereeEvent]) -> list[str]:
    return [type(e).__name__ for e in events]
