"""Write a match (its event log) as .mat text that gnubg and eXtreme Gammon import.

Cells follow gnubg's export: `DD: play` with every step in the mover's own numbering, a
dance as `DD:` alone, ` Doubles => N`, ` Takes`, ` Drops` (plus `Beavers`/`Raccoons`), and
a `Wins N point(s)` line after each finished game. Gulbar's left-over movements, which no
other program knows, are written `--: play` in the column of the side that plays them.
"""

from __future__ import annotations

from collections.abc import Sequence

from nardy_pi.game.engine import apply, start_match
from nardy_pi.game.events import (
    AcceptResign,
    Beaver,
    Correct,
    Double,
    GameEvent,
    MatchStarted,
    Move,
    OpeningRoll,
    Pass,
    Raccoon,
    Roll,
    Take,
    Timeout,
)
from nardy_pi.game.plays import played
from nardy_pi.game.state import MatchState, Phase
from nardy_pi.records.mat_text import format_rows, score_line, win_line
from nardy_pi.rules.play import Play, point_name
from nardy_pi.rules.sides import Side
from nardy_pi.rules.variants import get_variant

_VARIATION = {"backgammon": "Backgammon", "nackgammon": "Nackgammon",
              "hypergammon": "Hypergammon", "long": "LongNardy"}  # fmt: skip


def steps_text(play: Play) -> str:
    """gnubg's .mat spelling: every checker step on its own, e.g. `6/3* 3/2`, `bar/22`."""
    return " ".join(
        f"{point_name(s.src)}/{point_name(s.dst)}{'*' if s.hit else ''}" for s in play.steps
    )


def _played(before: MatchState, move: Move) -> str:
    play = played(before, move)
    return steps_text(play) if play is not None else move.play


def _dice_text(dice: tuple[int, int]) -> str:
    return f"{max(dice)}{min(dice)}"


def _headers(state: MatchState) -> list[str]:
    s = state.settings
    variation = _VARIATION.get(state.variant, state.variant)
    lines = [f'; [Variation "{variation}"]']
    if get_variant(state.variant).family == "long":
        lines.append('; [Numbering "own points 24->1, head = 24, bar 25, off 0"]')
    lines.append(f'; [Crawford "{"On" if s.crawford else "Off"}"]')
    if state.money:
        lines.append(f'; [Jacoby "{"On" if s.jacoby else "Off"}"]')
        lines.append(f'; [Beaver "{"On" if s.beaver else "Off"}"]')
    if s.cube_limit:
        lines.append(f'; [CubeLimit "{s.cube_limit}"]')
    return lines


def export_mat(events: Sequence[GameEvent]) -> str:
    """The .mat text of a match log (the first event is `MatchStarted`)."""
    start = events[0]
    assert isinstance(start, MatchStarted)
    state = start_match(start)
    out = [*_headers(state), "", f" {state.match_length} point match", ""]
    cells: list[tuple[Side, str]] = []
    game_score = state.score
    pending_dice: tuple[int, int] | None = None

    def flush_game(st: MatchState) -> None:
        nonlocal cells
        ended = bool(st.results) and st.results[-1].number == current
        out.append(f" Game {current}")
        out.append(score_line(st.players, game_score))
        win = ""
        if ended and st.results[-1].winner is not None:  # a draw has no "Wins" line
            r = st.results[-1]
            win = win_line(r.winner, r.points, st.winner is not None)
            if r.winner is Side.BLACK and cells and cells[-1][0] is Side.WHITE:
                # gnubg writes the right-hand win beside a left-hand "Drops" (or last move):
                # on a line of its own gnubg reads it as another cube action and counts the
                # game twice.
                cells.append((Side.BLACK, " " + win.strip()))
                win = ""
        out.extend(format_rows(cells))
        if win:
            out.append(win)
        out.append("")
        cells = []

    current = 1
    for event in events[1:]:
        before = state
        state = apply(state, event)
        game = before.game
        if isinstance(event, OpeningRoll):
            if state.game.phase is Phase.MOVE or state.game.dice is not None:
                pending_dice = state.game.dice
        elif isinstance(event, Roll):
            pending_dice = event.dice
            if state.game.phase is not Phase.MOVE or state.game.turn is not event.side:
                cells.append((event.side, f"{_dice_text(event.dice)}:"))  # a dance
                pending_dice = None
        elif isinstance(event, Move):
            if game.movements:
                cells.append((event.side, f"--: {_played(before, event)}"))
            else:
                assert pending_dice is not None
                text = _played(before, event)
                cells.append((event.side, f"{_dice_text(pending_dice)}: {text}"))
                pending_dice = None
        elif isinstance(event, Correct):
            pending_dice = event.dice  # .mat cannot show a hand correction; its moves follow
        elif isinstance(event, Double):
            cells.append((event.side, f" Doubles => {state.game.cube.offered}"))
        elif isinstance(event, Beaver):
            cells.append((event.side, f" Beavers => {state.game.cube.offered}"))
        elif isinstance(event, Raccoon):
            cells.append((event.side, f" Raccoons => {state.game.cube.offered}"))
        elif isinstance(event, Take):
            cells.append((event.side, " Takes"))
        elif isinstance(event, Pass):
            cells.append((event.side, " Drops"))
        elif isinstance(event, AcceptResign | Timeout):
            pass  # the "Wins" line tells it
        if len(state.results) == current:
            flush_game(state)
            current += 1
            game_score = state.score
    if cells or (not state.over and state.game.phase is not Phase.OPENING):
        flush_game(state)
    return "\n".join(out).rstrip() + "\n"
