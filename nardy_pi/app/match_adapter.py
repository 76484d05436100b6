"""The match engine (`nardy_pi.game`) behind the loop's `MatchPort`: referee events become game
events, the buttons' cube actions become Double/Take/Pass, and the snapshot gets cube, score,
names and the match phase from the engine.

The engine checks everything again; a hand correction of the record becomes a `Correct`
event, so the engine and its log follow the board from there. If the engine still refuses an
event the refusal is logged and the referee stays the authority on the board, while the
engine keeps cube and score.
"""

from __future__ import annotations

import logging
import sqlite3
from dataclasses import replace
from typing import Any

from nardy_pi.app.loop import CommandRefused
from nardy_pi.game import events as ge
from nardy_pi.game.errors import IllegalEventError
from nardy_pi.game.match import Match
from nardy_pi.game.state import Phase
from nardy_pi.referee import Referee
from nardy_pi.referee import events as ev
from nardy_pi.rules.sides import Side
from nardy_pi.state import State
from nardy_pi.store.eventlog import EventStore

log = logging.getLogger(__name__)


class MatchLog:
    """The match's events in the SQLite log, so a crash or a power cut loses nothing accepted.

    A log that fails (disk full, card pulled) is reported and given up; the game goes on in
    memory, because one failing output never stops the game.
    """

    def __init__(self, store: EventStore, match_id: int) -> None:
        self.store = store
        self.match_id = match_id
        self.failed = False

    def _guard(self, action: str, write: Any) -> None:
        if self.failed:
            return
        try:
            write()
        except (OSError, sqlite3.Error) as exc:
            log.error("match log %s failed (%s): the match is kept in memory only", action, exc)
            self.failed = True

    def append(self, event: ge.GameEvent) -> None:
        self._guard("append", lambda: self.store.append(self.match_id, event))

    def truncate(self, keep: int) -> None:
        self._guard("undo", lambda: self.store.truncate(self.match_id, keep))

    def new_match(self, start: ge.MatchStarted) -> None:
        def create() -> None:
            self.match_id = self.store.create_match(start)

        self._guard("new match", create)


class EngineMatch:
    def __init__(self, match: Match, log_: MatchLog | None = None) -> None:
        self.match = match
        self.log = log_
        self.resumed = False
        self._move_marks: list[int] = []  # len(match.events) before each recorded Move
        self.out_of_step = False

    @classmethod
    def start(cls, config: Any, resume: bool = True) -> EngineMatch:
        """A new match, or, with a log configured and `resume`, the unfinished match in it."""
        g = config.game
        fresh = Match.new(g.variant, g.match_length, g.white_name, g.black_name)
        if config.store.path in ("", "auto"):  # "auto" is resolved by app.wiring.build
            return cls(fresh)
        store = EventStore(config.store.path)  # a foreign or damaged file: StoreError, untouched
        ids = store.match_ids()
        if resume and ids:
            match = Match.from_events(store.events(ids[-1]))
            if match.state.game.phase is not Phase.MATCH_OVER:
                engine = cls(match, MatchLog(store, ids[-1]))
                engine.resumed = True
                log.info("resuming match %d from %s", ids[-1], config.store.path)
                return engine
        return cls(fresh, MatchLog(store, store.create_match(fresh.events[0])))

    def resume_point(self) -> tuple[Any, tuple[int, int] | None] | None:
        """(position with side to move, dice if rolled) of a resumed game, for the referee."""
        game = self.match.state.game
        if not self.resumed or game.turn is None:
            return None
        dice = game.dice if game.phase is Phase.MOVE else None
        return game.position.with_turn(game.turn), dice

    def _record(self, event: ge.GameEvent) -> None:
        """Apply `event` (IllegalEventError leaves everything as it was), then log it."""
        self.match.apply(event)
        if self.log is not None:
            self.log.append(event)

    def _apply(self, event: ge.GameEvent) -> bool:
        try:
            self._record(event)
        except IllegalEventError as exc:
            if not self.out_of_step:
                log.warning("match engine refused %s: %s", event, exc)
            self.out_of_step = True
            return False
        return True

    # --- MatchPort ------------------------------------------------------------------------------
    def apply(self, event: ev.RefereeEvent) -> None:
        if isinstance(event, ev.OpeningRolled):
            self._apply(ge.OpeningRoll(event.white_die, event.black_die))
        elif isinstance(event, ev.OpeningTie):
            self._apply(ge.OpeningRoll(event.value, event.value))
        elif isinstance(event, ev.RollAccepted):
            self._apply(ge.Roll(event.side, event.dice))
        elif isinstance(event, ev.MovePlayed):
            if event.play is None:
                return  # the engine books a pass itself when the roll cannot be played
            mark = len(self.match.events)
            if self._apply(ge.Move.of(event.side, event.play)):
                self._move_marks.append(mark)
        elif isinstance(event, ev.Undone):
            if self._move_marks:
                mark = self._move_marks.pop()
                self.match = Match.from_events(self.match.events[:mark])
                if self.log is not None:
                    self.log.truncate(mark)
        elif isinstance(event, ev.Corrected):
            # The referee now follows the corrected board, its side to roll; so does the log.
            self._move_marks.clear()  # undo does not reach back past a correction
            self.out_of_step = not self._apply(ge.Correct.of(event.position))
        elif isinstance(event, ev.BoardReset):
            self._move_marks.clear()
            self.out_of_step = False

    def cube(self, action: str, referee: Referee) -> None:
        game = self.match.state.game
        if action == "double":
            side = game.turn
            event: ge.GameEvent | None = ge.Double(side) if side is not None else None
        else:
            offerer = game.cube.offered_by
            taker = offerer.opponent if offerer is not None else None
            event = None if taker is None else (
                ge.Take(taker) if action == "take" else ge.Pass(taker)
            )
        if event is None:
            raise CommandRefused(f"{action}: nothing to {action} now")
        try:
            self._record(event)
        except IllegalEventError as exc:
            raise CommandRefused(str(exc)) from None

    def new_match(self, command: Any) -> None:
        self.match = Match.new(command.variant, command.match_length, command.white_name,
                               command.black_name)
        if self.log is not None:
            self.log.new_match(self.match.events[0])
        self.resumed = False
        self._move_marks.clear()
        self.out_of_step = False

    def fields(self, state: State) -> dict[str, Any]:
        m = self.match.state
        game = m.game
        cube = game.cube
        owner = {None: "center", Side.WHITE: "white", Side.BLACK: "black"}[cube.owner]
        out: dict[str, Any] = {
            "cube_value": cube.value,
            "cube_owner": owner,
            "cube_offered": cube.offered is not None,
            "match_length": m.match_length,
            "crawford": game.crawford,
            "game_number": game.number,
            "white": replace(state.white, name=m.players[0], score=m.score[0]),
            "black": replace(state.black, name=m.players[1], score=m.score[1]),
        }
        if game.phase is Phase.CUBE:
            out["phase"] = "cube_offered"
        elif game.phase is Phase.MATCH_OVER:
            out["phase"] = "match_over"
            out["winner"] = m.winner.label if m.winner is not None else None
        return out
