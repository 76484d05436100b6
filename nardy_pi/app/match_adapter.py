"""The match engine (`nardy_pi.game`) behind the loop's `MatchPort`: referee events become game
events, the buttons' cube actions become Double/Take/Pass, and the snapshot gets cube, score,
names and the match phase from the engine.

The engine checks everything again; if it refuses an event (the record was corrected by hand,
which the engine's log cannot express yet) the refusal is logged and the referee stays the
authority on the board, while the engine keeps cube and score.
"""

from __future__ import annotations

import logging
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

log = logging.getLogger(__name__)


class EngineMatch:
    def __init__(self, match: Match) -> None:
        self.match = match
        self._move_marks: list[int] = []  # len(match.events) before each recorded Move
        self.out_of_step = False

    @classmethod
    def start(cls, config: Any) -> EngineMatch:
        g = config.game
        return cls(Match.new(g.variant, g.match_length, g.white_name, g.black_name))

    def _apply(self, event: ge.GameEvent) -> bool:
        try:
            self.match.apply(event)
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
        elif isinstance(event, ev.Corrected):
            log.warning("the record was corrected by hand; the match log cannot express that, "
                        "so the engine keeps only cube and score from here")
            self.out_of_step = True
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
            self.match.apply(event)
        except IllegalEventError as exc:
            raise CommandRefused(str(exc)) from None

    def new_match(self, command: Any) -> None:
        self.match = Match.new(command.variant, command.match_length, command.white_name,
                               command.black_name)
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
