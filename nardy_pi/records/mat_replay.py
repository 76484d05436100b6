"""Replay a .mat record through the match engine with full legality checking.

Cells become events (`OpeningRoll`, `Roll`, `Move`, cube actions; a "Wins" line that the
play did not bring about is a resignation). The first thing the engine refuses, or any
disagreement with the record's own scores and "Wins" lines, stops the replay with a
`MatReplayError` naming the game, the move number and what is wrong.
"""

from __future__ import annotations

from dataclasses import dataclass

from nardy_pi.game.engine import apply, start_match
from nardy_pi.game.errors import IllegalEventError
from nardy_pi.game.events import (
    AcceptResign,
    Beaver,
    Double,
    GameEvent,
    MatchStarted,
    Move,
    OpeningRoll,
    Pass,
    Raccoon,
    Resign,
    Roll,
    Take,
)
from nardy_pi.game.state import GameResult, MatchState, Phase
from nardy_pi.records.mat_text import Cell, MatGame, MatRecord
from nardy_pi.rules.errors import RulesError
from nardy_pi.rules.inference import Diagnosis, board_after_text, explain_move_text
from nardy_pi.rules.long_rules import movement_sequence
from nardy_pi.rules.notation.move_text import find_play
from nardy_pi.rules.results import WinType
from nardy_pi.rules.sides import Side
from nardy_pi.rules.variants import get_variant

#: .mat "Variation" header values -> our variant names
VARIATIONS = {
    "backgammon": "backgammon",
    "nackgammon": "nackgammon",
    "hypergammon": "hypergammon",
    "longnardy": "long",
    "long nardy": "long",
    "long": "long",
}


class MatReplayError(ValueError):
    def __init__(self, game: int, move: int, where: str, reason: str) -> None:
        where_text = f" ({where})" if where else ""
        super().__init__(f"game {game}, move {move}{where_text}: {reason}")
        self.game = game
        self.move = move
        self.reason = reason


@dataclass(frozen=True, slots=True)
class MatReplay:
    state: MatchState
    events: tuple[GameEvent, ...]

    @property
    def results(self) -> tuple[GameResult, ...]:
        return self.state.results


def variant_of(record: MatRecord, override: str | None = None) -> str:
    if override:
        return get_variant(override).name
    name = record.headers.get("Variation", "Backgammon").strip().lower()
    if name in VARIATIONS:
        return VARIATIONS[name]
    return get_variant(name).name


def settings_of(record: MatRecord) -> dict[str, object]:
    """Match settings the headers state (Crawford, Jacoby, beavers, cube limit)."""
    h = {k.lower(): v.strip().lower() for k, v in record.headers.items()}
    settings: dict[str, object] = {}
    if "crawford" in h:
        settings["crawford"] = h["crawford"] in ("on", "true", "yes", "1")
    if "jacoby" in h:
        settings["jacoby"] = h["jacoby"] in ("on", "true", "yes", "1")
    if "beaver" in h:
        settings["beaver"] = settings["raccoon"] = h["beaver"] in ("on", "true", "yes", "1")
    if h.get("cubelimit", "").isdigit():
        settings["cube_limit"] = int(h["cubelimit"])
    return settings


class _Replayer:
    def __init__(self, record: MatRecord, variant: str, settings: dict[str, object]) -> None:
        self.variant = variant
        start = MatchStarted(variant, record.match_length, record.players[0],
                             record.players[1], settings)  # fmt: skip
        self.state = start_match(start)
        self.events: list[GameEvent] = [start]
        self.game_no = 0
        self.number = 0  # the engine's number of the game being replayed
        self.cell: Cell | None = None

    def fail(self, reason: str) -> MatReplayError:
        cell = self.cell
        if cell is None:
            return MatReplayError(self.game_no, 0, "", reason)
        return MatReplayError(self.game_no, cell.move_number,
                              f"{cell.side.label} {cell.text.strip()}", reason)  # fmt: skip

    def push(self, event: GameEvent) -> None:
        try:
            self.state = apply(self.state, event)
        except (IllegalEventError, RulesError) as exc:
            raise self.fail(str(exc)) from None
        self.events.append(event)

    # --- one game -------------------------------------------------------------------------
    def game(self, game: MatGame) -> None:
        self.game_no = game.number
        self.cell = None
        if self.state.over:
            raise self.fail("the match is already over")
        if self.number and not self._finished():
            raise self.fail(f"the previous game (game {self.number}) has no end")
        if game.score != self.state.score:
            raise self.fail(
                f"the record gives the score {game.score[0]}-{game.score[1]}, replay has "
                f"{self.state.score[0]}-{self.state.score[1]}"
            )
        self.number = len(self.state.results) + 1
        for cell in game.cells:
            self.cell = cell
            if self._finished() and cell.kind != "win":
                raise self.fail("the game is already over")
            getattr(self, f"_{cell.kind}")(cell)
        # A game without an end is fine: the record stops mid-game (a match in progress).

    def _opening(self, cell: Cell) -> None:
        assert cell.dice is not None
        d1, d2 = cell.dice
        rule = self.state.settings.opening
        family = get_variant(self.variant).family
        plays_opening = rule == "play" or (rule == "auto" and family == "backgammon")
        if plays_opening:
            if d1 == d2:
                raise self.fail("an opening roll cannot be a double")
            high, low = max(d1, d2), min(d1, d2)
            w, b = (high, low) if cell.side is Side.WHITE else (low, high)
            self.push(OpeningRoll(w, b))
        else:
            self.push(OpeningRoll(2, 1) if cell.side is Side.WHITE else OpeningRoll(1, 2))
            self.push(Roll(cell.side, cell.dice))

    def _move(self, cell: Cell) -> None:
        assert cell.dice is not None
        if self.state.game.phase is Phase.OPENING:
            self._opening(cell)
        else:
            self.push(Roll(cell.side, cell.dice))
        self._play(cell)

    def _forced(self, cell: Cell) -> None:
        self._play(cell)

    def _play(self, cell: Cell) -> None:
        game = self.state.game
        if game.phase is not Phase.MOVE or game.turn is not cell.side:
            if cell.play:
                raise self.fail(f"the roll cannot be played, but {cell.play!r} was recorded")
            return
        if not cell.play:
            raise self.fail("no move recorded, but the roll can be played")
        if game.plays is None:  # too many plays to list: the engine judges the board
            self.push(self._unlisted_move(cell))
            return
        try:
            play = find_play(list(game.plays), cell.play)
        except (RulesError, ValueError) as exc:
            raise self.fail(self._explain(cell, str(exc))) from None
        self.push(Move.of(cell.side, play))

    def _unlisted_move(self, cell: Cell) -> Move:
        game = self.state.game
        movements = game.movements or movement_sequence(
            get_variant(self.variant), game.dice, self.state.settings.rules  # type: ignore[arg-type]
        )
        try:
            after = board_after_text(game.position, movements, cell.play, self.variant,
                                     game.dice)  # fmt: skip
        except (RulesError, ValueError) as exc:
            raise self.fail(str(exc)) from None
        if isinstance(after, Diagnosis):
            raise self.fail(after.message("en"))
        return Move(cell.side, after.points, after.bar, after.off, cell.play)

    def _explain(self, cell: Cell, fallback: str) -> str:
        game = self.state.game
        if game.dice is None:
            return fallback
        try:
            diagnosis = explain_move_text(game.position, game.dice, cell.play, self.variant,
                                          self.state.settings.rules)  # fmt: skip
        except (RulesError, ValueError):
            return fallback
        return diagnosis.message("en") if diagnosis is not None else fallback

    def _double(self, cell: Cell) -> None:
        self.push(Double(cell.side))
        self._check_offer(cell)

    def _beaver(self, cell: Cell) -> None:
        self.push(Beaver(cell.side))
        self._check_offer(cell)

    def _raccoon(self, cell: Cell) -> None:
        self.push(Raccoon(cell.side))
        self._check_offer(cell)

    def _check_offer(self, cell: Cell) -> None:
        offered = self.state.game.cube.offered
        if cell.value and offered != cell.value:
            raise self.fail(f"the cube would go to {offered}, not {cell.value}")

    def _take(self, cell: Cell) -> None:
        self.push(Take(cell.side))

    def _drop(self, cell: Cell) -> None:
        self.push(Pass(cell.side))

    def _win(self, cell: Cell) -> None:
        if not self._finished():
            self._resignation(cell)
        result = self.state.results[-1]
        if result.winner is not cell.side or result.points != cell.value:
            who = result.winner.label if result.winner is not None else "nobody"
            raise self.fail(
                f"the record says {cell.side.label} wins {cell.value}, replay has {who} "
                f"winning {result.points} ({result.result})"
            )

    def _finished(self) -> bool:
        return len(self.state.results) >= self.number

    def _resignation(self, cell: Cell) -> None:
        """A win the play did not bring about: the loser resigned for that many points."""
        game = self.state.game
        if game.phase not in (Phase.ROLL, Phase.MOVE):
            raise self.fail("a win is recorded, but the game is not over")
        fam = get_variant(self.variant).family
        points_of = self.state.settings.result_settings(fam)
        cube = game.cube.value
        jacoby = self.state.money and self.state.settings.jacoby and not game.cube.turned
        for level, win in ((1, WinType.SINGLE), (2, WinType.GAMMON), (3, WinType.BACKGAMMON)):
            multiplier = 1 if jacoby else points_of.points(win)
            if multiplier * cube == cell.value:
                self.push(Resign(cell.side.opponent, level))
                self.push(AcceptResign(cell.side))
                return
        raise self.fail(f"{cell.value} points is no single, gammon or backgammon at cube {cube}")


def replay_record(
    record: MatRecord, variant: str | None = None, settings: dict[str, object] | None = None
) -> MatReplay:
    """Replay every game of `record`; raises MatReplayError at the first problem."""
    name = variant_of(record, variant)
    merged = {**settings_of(record), **(settings or {})}
    replayer = _Replayer(record, name, merged)
    for game in record.games:
        replayer.game(game)
    return MatReplay(replayer.state, tuple(replayer.events))
