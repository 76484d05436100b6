""".mat (Jellyfish / gnubg / eXtreme Gammon match text) read into cells, and cells written out.

Reading knows nothing of the rules: it splits the file into games, each game into the
*cells* its players wrote (a roll and its play, a cube action, a win), with the line they
came from. Both gnubg's and XG's spellings are accepted (BOM, `25`/`bar`, `0`/`off`, XG's
numbered "Wins" lines and `Losses` cells). Anything else is reported with its line number.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from nardy_pi.rules.sides import Side

CellKind = Literal["move", "forced", "double", "beaver", "raccoon", "take", "drop", "win"]

#: column where gnubg starts the right-hand (second player's) cell: "%3d) %-27s "
RIGHT_COLUMN = 33
_LEFT_WIDTH = 27

_MATCH_LINE = re.compile(r"^\s*(\d+)\s+point\s+match\s*$", re.IGNORECASE)
_GAME_LINE = re.compile(r"^\s*Game\s+(\d+)\s*$", re.IGNORECASE)
_SCORE_LINE = re.compile(r"^\s*(?P<a>\S.*?)\s*:\s*(?P<sa>\d+)\s+(?P<b>\S.*?)\s*:\s*(?P<sb>\d+)\s*$")
_HEADER = re.compile(r'^\s*;\s*\[\s*(?P<key>[^"\]]+?)\s+"(?P<value>[^"]*)"\s*\]\s*$')
_NUMBERED = re.compile(r"^\s*(\d+)\)(.*)$")
_CELL_START = re.compile(
    r"(?:(?<=\s)|^)(?:[0-6]{2}:|--:|Doubles\b|Takes\b|Drops\b|Beavers\b|Raccoons\b|Wins\b|"
    r"Losses\b|Accepts\b|Rejects\b|Resigns\b)",
    re.IGNORECASE,
)
_MOVE_CELL = re.compile(r"^(?P<dice>[0-6]{2}|--):\s*(?P<play>.*?)\s*$")
_CUBE_CELL = re.compile(r"^(?P<what>Doubles|Beavers|Raccoons)\s*(?:=>\s*(?P<value>\d+))?\s*$", re.I)
_WIN_CELL = re.compile(r"^Wins\s+(?P<points>\d+)\s+points?\b", re.IGNORECASE)


class MatFormatError(ValueError):
    """A line the reader cannot understand; carries its 1-based line number."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line


@dataclass(frozen=True, slots=True)
class Cell:
    side: Side
    kind: CellKind
    line: int
    move_number: int  # the "N)" of its line (0 for an unnumbered win line)
    text: str
    dice: tuple[int, int] | None = None
    play: str = ""
    value: int = 0  # cube value offered, or points won


@dataclass(frozen=True, slots=True)
class MatGame:
    number: int
    line: int
    score: tuple[int, int]  # (first player = white, second = black) at the game's start
    cells: tuple[Cell, ...]


@dataclass(frozen=True, slots=True)
class MatRecord:
    match_length: int
    players: tuple[str, str]
    games: tuple[MatGame, ...]
    headers: dict[str, str] = field(default_factory=dict)


def _parse_cell(text: str, side: Side, line: int, number: int) -> Cell | None:
    text = text.strip()
    if m := _MOVE_CELL.match(text):
        if m["dice"] == "--":
            return Cell(side, "forced", line, number, text, None, m["play"])
        d1, d2 = int(m["dice"][0]), int(m["dice"][1])
        if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
            raise MatFormatError(line, f"dice {m['dice']!r} are not two dice 1-6")
        return Cell(side, "move", line, number, text, (d1, d2), m["play"])
    if m := _CUBE_CELL.match(text):
        kind = {"doubles": "double", "beavers": "beaver", "raccoons": "raccoon"}[m["what"].lower()]
        return Cell(side, kind, line, number, text, value=int(m["value"] or 0))  # type: ignore[arg-type]
    lowered = text.lower()
    if lowered.startswith("takes") or lowered.startswith("accepts"):
        return Cell(side, "take", line, number, text)
    if lowered.startswith("drops") or lowered.startswith("rejects"):
        return Cell(side, "drop", line, number, text)
    if m := _WIN_CELL.match(text):
        return Cell(side, "win", line, number, text, value=int(m["points"]))
    if lowered.startswith("losses") or lowered.startswith("resigns"):
        return None  # XG's loser half of a win line; gnubg's resign notes: the win says it all
    raise MatFormatError(line, f"cannot read {text!r}")


def _split_cells(body: str, offset: int) -> list[tuple[int, str]]:
    """(column, text) of each cell in the part of a line after its number."""
    starts = [m.start() for m in _CELL_START.finditer(body)]
    cells = []
    for i, start in enumerate(starts):
        end = starts[i + 1] if i + 1 < len(starts) else len(body)
        cells.append((start + offset, body[start:end]))
    return cells


def _line_cells(raw: str, line: int) -> list[Cell]:
    numbered = _NUMBERED.match(raw)
    if numbered:
        number = int(numbered[1])
        offset = numbered.start(2)
        body = numbered[2]
    else:
        number, offset, body = 0, 0, raw
    parts = _split_cells(body, offset)
    if not parts:
        if body.strip():
            raise MatFormatError(line, f"cannot read {body.strip()!r}")
        return []
    if len(parts) > 2:
        raise MatFormatError(line, "more than two cells on one line")
    junk = body[: parts[0][0] - offset].strip()
    if junk:
        raise MatFormatError(line, f"cannot read {junk!r}")
    cells = []
    for i, (column, text) in enumerate(parts):
        if len(parts) == 2:
            side = Side.WHITE if i == 0 else Side.BLACK
        else:
            side = Side.WHITE if column < RIGHT_COLUMN - 3 else Side.BLACK
        cell = _parse_cell(text, side, line, number)
        if cell is not None:
            cells.append(cell)
    return cells


def parse_mat(text: str) -> MatRecord:
    """Read a .mat file's text; raises MatFormatError naming the first unreadable line."""
    text = text.lstrip("\ufeff")
    headers: dict[str, str] = {}
    match_length: int | None = None
    games: list[MatGame] = []
    players: tuple[str, str] | None = None
    current: dict | None = None

    def close() -> None:
        if current is not None:
            if current["score"] is None:
                raise MatFormatError(
                    current["line"], f"game {current['number']} has no score line after it"
                )
            games.append(MatGame(current["number"], current["line"], current["score"],
                                 tuple(current["cells"])))  # fmt: skip

    for index, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        if not stripped:
            continue
        if stripped.startswith(";"):
            if h := _HEADER.match(stripped):
                headers[h["key"].strip()] = h["value"]
            continue
        if match_length is None and (m := _MATCH_LINE.match(raw)):
            if len(m[1]) > 3:
                raise MatFormatError(index, f"match length {m[1][:12]} is not a match length")
            match_length = int(m[1])
            continue
        if m := _GAME_LINE.match(raw):
            if match_length is None:
                raise MatFormatError(index, "a game before the 'N point match' line")
            close()
            current = {"number": int(m[1]), "line": index, "score": None, "cells": []}
            continue
        if match_length is None:
            raise MatFormatError(
                index, f"not a .mat file: expected 'N point match', got {stripped!r}"
            )
        if current is None:
            raise MatFormatError(index, f"cannot read {stripped!r} before the first game")
        if current["score"] is None:
            s = _SCORE_LINE.match(raw)
            if not s:
                raise MatFormatError(
                    index, f"expected the score line 'Name : n  Name : n', got {stripped!r}"
                )
            current["score"] = (int(s["sa"]), int(s["sb"]))
            if players is None:
                players = (s["a"], s["b"])
            continue
        current["cells"].extend(_line_cells(raw, index))
    close()
    if match_length is None:
        raise MatFormatError(1, "no 'N point match' line: not a .mat file")
    return MatRecord(match_length, players or ("White", "Black"), tuple(games), headers)


# --- writing ------------------------------------------------------------------------------
def format_rows(cells: list[tuple[Side, str]]) -> list[str]:
    """Numbered two-column lines: white's cells left, black's right, in order."""
    rows: list[list[str | None]] = []
    for side, text in cells:
        if side is Side.WHITE:
            rows.append([text, None])
        elif rows and rows[-1][1] is None and rows[-1][0] is not None:
            rows[-1][1] = text
        else:
            rows.append([None, text])
    lines = []
    for n, (left, right) in enumerate(rows, start=1):
        line = f"{n:3d}) {left or '':<{_LEFT_WIDTH}} {right or ''}".rstrip()
        lines.append(line)
    return lines


def win_line(side: Side, points: int, match_won: bool) -> str:
    text = f"Wins {points} point{'s' if points != 1 else ''}"
    if match_won:
        text += " and the match"
    indent = 6 if side is Side.WHITE else RIGHT_COLUMN + 1
    return " " * indent + text


def score_line(players: tuple[str, str], score: tuple[int, int]) -> str:
    left = f" {players[0]} : {score[0]}"
    return f"{left:<31}{players[1]} : {score[1]}"
