"""Move text in gnubg/XG notation, and the legal play a text denotes.

Accepted: `24/18 13/11`, `bar/22*` or `25/22`, `6/off` or `6/0`, `13/11(2)`, `24/18*/13`,
`24/13` (one checker's combined move, intermediate points implied). Points are in the mover's
own numbering (25 = bar, 0 = off). Canonical output is `Play.notation`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise

from nardy_pi.rules.errors import IllegalPlayError
from nardy_pi.rules.play import Play
from nardy_pi.rules.position import BAR, OFF

MAX_REPEAT = 4  # a part can repeat at most four times: a turn has at most four steps
_PART = re.compile(r"^(?P<path>[^()]+?)(?:\((?P<count>[^()]*)\))?$")
_NAMED_POINTS = {"bar": BAR, "off": OFF}


@dataclass(frozen=True, slots=True)
class MoveSegment:
    """`count` checkers move from `src` to `dst`; `hit` when the text marks `dst` with `*`."""

    src: int
    dst: int
    hit: bool = False
    count: int = 1


def _point(token: str, text: str) -> int:
    key = token.lower()
    if key in _NAMED_POINTS:
        return _NAMED_POINTS[key]
    if not (key.isascii() and key.isdigit()) or len(key) > 2 or int(key) > BAR:
        raise ValueError(f"move {text!r}: {token!r} is not a point (1-24, bar/25, off/0)")
    return int(key)


def _repeat(count: str | None, part: str, text: str) -> int:
    if count is None:
        return 1
    if not (count.isascii() and count.isdigit()) or not 1 <= int(count) <= MAX_REPEAT:
        raise ValueError(f"move {text!r}: repeat count in {part!r} must be 1-{MAX_REPEAT}")
    return int(count)


def _parse_part(part: str, text: str) -> list[MoveSegment]:
    match = _PART.match(part)
    if match is None:
        raise ValueError(f"move {text!r}: cannot read {part!r} (expected like 13/7 or 8/5(2))")
    count = _repeat(match["count"], part, text)
    pieces = match["path"].split("/")
    if len(pieces) < 2:
        raise ValueError(f"move {text!r}: {part!r} needs a start and an end point, like 13/7")
    if pieces[0].endswith("*"):
        raise ValueError(f"move {text!r}: '*' marks a hit where a checker lands, not in {part!r}")
    points: list[tuple[int, bool]] = []
    for piece in pieces:
        hit = piece.endswith("*")
        token = piece[:-1] if hit else piece
        if not token:
            raise ValueError(f"move {text!r}: empty point in {part!r}")
        points.append((_point(token, text), hit))
    segments = []
    for (src, _), (dst, hit) in pairwise(points):
        if src == OFF:
            raise ValueError(f"move {text!r}: a borne-off checker cannot move ({part!r})")
        if dst == BAR:
            raise ValueError(f"move {text!r}: a checker cannot move onto the bar ({part!r})")
        if dst >= src:
            raise ValueError(
                f"move {text!r}: checkers move from higher to lower points, not {src}/{dst}"
            )
        if hit and dst == OFF:
            raise ValueError(f"move {text!r}: nothing can be hit off the board ({part!r})")
        segments.append(MoveSegment(src, dst, hit, count))
    return segments


def parse_move_text(text: str) -> list[MoveSegment]:
    """Parse move text into segments, in order; an empty text (a pass) gives []."""
    if not isinstance(text, str):
        raise ValueError(f"move text must be a string, got {type(text).__name__}")
    normalized = re.sub(r"\s+\(", "(", text.strip())  # tolerate `13/11 (2)`
    segments: list[MoveSegment] = []
    for part in normalized.split():
        segments.extend(_parse_part(part, text))
    return segments


def _net_change(pairs: list[tuple[int, int, int]]) -> dict[int, int]:
    delta: dict[int, int] = {}
    for src, dst, count in pairs:
        delta[src] = delta.get(src, 0) - count
        delta[dst] = delta.get(dst, 0) + count
    return {p: n for p, n in delta.items() if n}


def _fit(play: Play, named: set[int], marks: set[int]) -> tuple[bool, bool]:
    """How well `play` fits the text beyond the checkers' net movement: does it land on
    every point the text names, and does it hit exactly where the text has `*`."""
    landings = {s.dst for s in play.steps}
    hits = {s.dst for s in play.steps if s.hit}
    return named <= landings, hits == marks


def find_play(plays: list[Play], text: str) -> Play:
    """The legal play (from `legal_plays`) that `text` denotes.

    A text matches a play that leaves the mover's checkers where the text puts them. When
    several do (one checker's path through different points, hitting or not), the play that
    lands on every point the text names wins, then the one hitting exactly where the text has
    `*`. Passes are the caller's business: `legal_plays` returns [] for them.
    """
    segments = parse_move_text(text)
    shown = text.strip()
    if not plays:
        raise IllegalPlayError(f"the roll cannot be played at all, but {shown!r} was given")
    if not segments:
        raise IllegalPlayError("no move given, but the roll can be played")
    wanted = _net_change([(s.src, s.dst, s.count) for s in segments])
    candidates = [
        p for p in plays if _net_change([(s.src, s.dst, 1) for s in p.steps]) == wanted
    ]
    if not candidates:
        raise IllegalPlayError(f"no legal play matches {shown!r}")
    named = {s.dst for s in segments if s.dst != OFF}
    marks = {s.dst for s in segments if s.hit}  # a point is hit at most once per turn
    fits = [_fit(p, named, marks) for p in candidates]
    best = max(fits)
    chosen = [p for p, fit in zip(candidates, fits, strict=True) if fit == best]
    if len(chosen) == 1:
        return chosen[0]
    options = " or ".join(sorted(p.notation for p in chosen))
    raise IllegalPlayError(f"{shown!r} is ambiguous: it could be {options}")
