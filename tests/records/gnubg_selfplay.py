"""Matches played by GNU Backgammon's engine (gnubg-nn) against itself, written as .mat.

Independent of nardy_pi: the board is gnubg's own 2x25 array, checker play is gnubg's
`best_move` (now and then a random legal move from gnubg's `moves`, so that gammons,
backgammons and drops happen), cube decisions are gnubg's (see `cube_decision`), and the
score is kept here with the standard backgammon rules (single / gammon / backgammon times
the cube, a drop costs the cube's value, Crawford rule). The .mat text is written by this
module in gnubg's layout, with Jellyfish's `25`/`0` spelling for bar and off.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import gnubg_nn

CHECKERS = 15


@dataclass
class GameRecord:
    winner: int  # 0 = first player (white), 1 = second
    points: int
    result: str  # single / gammon / backgammon / drop
    cube: int
    crawford: bool


@dataclass
class SelfPlayMatch:
    length: int
    text: str
    games: list[GameRecord] = field(default_factory=list)
    score: list[int] = field(default_factory=lambda: [0, 0])


def _start_side() -> list[int]:
    side = [0] * 25
    for point, count in ((24, 2), (13, 5), (8, 3), (6, 5)):
        side[point - 1] = count
    return side


def _apply(own: list[int], opp: list[int], steps: tuple[tuple[int, int], ...]) -> str:
    """Move `own`'s checkers by gnubg's (from, to) steps; returns the step text with hits."""
    parts = []
    for src, dst in steps:
        own[src - 1] -= 1
        hit = False
        if dst > 0:
            if opp[24 - dst] == 1:  # the opponent's own point 25-dst
                opp[24 - dst] = 0
                opp[24] += 1
                hit = True
            own[dst - 1] += 1
        parts.append(f"{src}/{dst}{'*' if hit else ''}")
    return " ".join(parts)


def _classify(loser: list[int]) -> tuple[str, int]:
    if sum(loser) < CHECKERS:
        return "single", 1
    if loser[24] or any(loser[18:24]):
        return "backgammon", 3
    return "gammon", 2


def _cells_to_lines(cells: list[tuple[int, str]]) -> list[str]:
    rows: list[list[str | None]] = []
    for side, text in cells:
        if side == 0:
            rows.append([text, None])
        elif rows and rows[-1][1] is None and rows[-1][0] is not None:
            rows[-1][1] = text
        else:
            rows.append([None, text])
    return [f"{n:3d}) {(a or ''):<27} {b or ''}".rstrip() for n, (a, b) in enumerate(rows, 1)]


class _Player:
    def __init__(self, rng: random.Random, blunder_rate: float) -> None:
        self.rng = rng
        self.blunder_rate = blunder_rate

    def play(self, board: list[list[int]], d1: int, d2: int) -> tuple[tuple[int, int], ...]:
        options = gnubg_nn.moves(board, d1, d2, 1)
        if not options:
            return ()
        if self.rng.random() < self.blunder_rate:
            return tuple(self.rng.choice(options)[1])
        return tuple(gnubg_nn.best_move(board, d1, d2))

    def cube_decision(
        self, board: list[list[int]], centred: bool, away: tuple[int, int]
    ) -> tuple[bool, bool]:
        """(double?, would the opponent take?) for the side on roll, `away` = (us, them).

        With a centred cube this is gnubg's own match-play verdict (`evaluate_cube_decision`,
        whose first two results are "double" and "take"); for redoubles, whose cube state
        the binding does not take as an argument, gnubg's win and gammon chances with the
        usual take point.
        """
        if centred:
            gnubg_nn.set.score(away[0], away[1])
            verdict = gnubg_nn.evaluate_cube_decision(gnubg_nn.key_of_board(board), 0, -1,
                                                      b"O", 1)  # fmt: skip
            return bool(verdict[0]), bool(verdict[1])
        win, _, _, lose_gammon, _ = gnubg_nn.probabilities(board, 0)
        return 0.68 <= win <= 0.90, (1 - win) >= 0.25 - 0.1 * lose_gammon


def play_match(length: int, seed: int, blunder_rate: float = 0.2) -> SelfPlayMatch:
    rng = random.Random(seed)
    player = _Player(rng, blunder_rate)
    names = ("gnubg_a", "gnubg_b")
    lines = [f" {length} point match", ""]
    out = SelfPlayMatch(length, "")
    crawford_used = False
    number = 0
    while max(out.score) < length:
        number += 1
        crawford = False
        if not crawford_used and length - 1 in out.score:
            crawford = crawford_used = True
        sides = [_start_side(), _start_side()]
        cells: list[tuple[int, str]] = []
        cube, owner = 1, None
        while True:
            a, b = rng.randint(1, 6), rng.randint(1, 6)
            if a != b:
                break
        turn = 0 if a > b else 1
        dice: tuple[int, int] | None = (max(a, b), min(a, b))
        record: GameRecord | None = None
        for _ in range(2000):
            me, opp = sides[turn], sides[1 - turn]
            board = [opp, me]
            if dice is None:
                may_double = (
                    not crawford and (owner is None or owner == turn) and cube < 64
                )
                away = (length - out.score[turn], length - out.score[1 - turn])
                double, take = (
                    player.cube_decision(board, owner is None, away) if may_double else (0, 0)
                )
                if double:
                    cells.append((turn, f" Doubles => {cube * 2}"))
                    if take:
                        cells.append((1 - turn, " Takes"))
                        cube, owner = cube * 2, 1 - turn
                    else:
                        cells.append((1 - turn, " Drops"))
                        record = GameRecord(turn, cube, "drop", cube, crawford)
                        break
                dice = (rng.randint(1, 6), rng.randint(1, 6))
            steps = player.play(board, *dice)
            text = _apply(me, opp, steps)
            cells.append((turn, f"{dice[0]}{dice[1]}: {text}".rstrip()))
            dice = None
            if sum(me) == 0:
                kind, mult = _classify(opp)
                record = GameRecord(turn, mult * cube, kind, cube, crawford)
                break
            turn = 1 - turn
        assert record is not None, "game did not finish"
        lines.append(f" Game {number}")
        left = f" {names[0]} : {out.score[0]}"
        lines.append(f"{left:<31}{names[1]} : {out.score[1]}")
        lines.extend(_cells_to_lines(cells))
        out.score[record.winner] += record.points
        s = "s" if record.points != 1 else ""
        indent = 6 if record.winner == 0 else 34
        suffix = " and the match" if max(out.score) >= length else ""
        lines.append(" " * indent + f"Wins {record.points} point{s}{suffix}")
        lines.append("")
        out.games.append(record)
    out.text = "\n".join(lines) + "\n"
    return out
