"""The one owner of match state in `nardy-pi run`: the match engine (`nardy_pi.game`), its
SQLite log and the game's move list, behind the loop.

The referee proposes (an opening roll, a roll, a play, a correction); the engine decides;
the referee then follows the engine's position, turn, dice and legal plays (`table()`), so a
gulbar extra throw or an opponent's left-over movements reach the board as the engine has
them. Undo takes back one engine event at a time and says which.
"""

from __future__ import annotations

import logging
import sqlite3
from dataclasses import dataclass
from typing import Any

from nardy_pi.errors import CommandRefused, IllegalEventError
from nardy_pi.game import events as ge
from nardy_pi.game.match import Match
from nardy_pi.game.plays import played
from nardy_pi.game.settings import MatchSettings
from nardy_pi.game.state import MatchState, Phase
from nardy_pi.referee import events as ev
from nardy_pi.rules.play import Play, touched_points
from nardy_pi.rules.position import Position
from nardy_pi.rules.sides import Side
from nardy_pi.rules.variants import get_variant
from nardy_pi.state import MoveRecord
from nardy_pi.store.eventlog import EventStore

log = logging.getLogger(__name__)

#: what an undone event was, as the page names it
UNDO_KINDS: dict[type, str] = {
    ge.OpeningRoll: "opening_roll", ge.Roll: "roll", ge.Move: "play", ge.Correct: "correction",
    ge.Double: "double", ge.Beaver: "beaver", ge.Raccoon: "raccoon", ge.Take: "take",
    ge.Pass: "pass", ge.Resign: "resign", ge.AcceptResign: "resign_accepted",
    ge.RejectResign: "resign_rejected", ge.Timeout: "timeout",
}


@dataclass(frozen=True, slots=True)
class Table:
    """What the referee must follow: the engine's game as it stands."""

    game: int
    phase: Phase
    position: Position  # turn = the side to act
    dice: tuple[int, ...] | None  # the roll, or a gulbar opponent's left-over movements
    plays: tuple[Play, ...] | None  # None: too many to list (a ladder of doubles)
    movements: bool = False  # `dice` are left-over movements, not a throw


@dataclass(frozen=True, slots=True)
class UndoneEvent:
    kind: str  # a value of UNDO_KINDS
    side: str | None
    #: the board the undone play left (the referee must not take it as a new play)
    left_board: Position | None = None


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


def match_started(
    variant: str, match_length: int, white: str, black: str, settings: MatchSettings
) -> ge.MatchStarted:
    return ge.MatchStarted(get_variant(variant).name, match_length, white, black,
                           settings.to_dict())


def move_record(before: MatchState, event: ge.GameEvent, after: MatchState, number: int,
                ) -> MoveRecord | None:
    """The line of the move list an accepted engine event adds (None: it adds none)."""
    game = before.game
    if isinstance(event, ge.Roll):
        if after.game.phase is Phase.MOVE and after.game.turn is event.side:
            return None  # the play follows
        return MoveRecord(number, event.side.label, tuple(event.dice), "(no play)")
    if isinstance(event, ge.Move):
        dice = game.movements if game.movements else (game.dice or ())
        return MoveRecord(number, event.side.label, tuple(dice), event.play)
    if isinstance(event, ge.Double | ge.Beaver | ge.Raccoon):
        word = {ge.Double: "Doubles", ge.Beaver: "Beavers", ge.Raccoon: "Raccoons"}[type(event)]
        return MoveRecord(number, event.side.label, (), f"{word} => {after.game.cube.offered}")
    if isinstance(event, ge.Take):
        return MoveRecord(number, event.side.label, (), "Takes")
    if isinstance(event, ge.Pass):
        return MoveRecord(number, event.side.label, (), "Drops")
    if isinstance(event, ge.Correct):
        return MoveRecord(number, event.side.label, tuple(event.dice or ()), "(corrected)")
    if isinstance(event, ge.AcceptResign):
        return MoveRecord(number, event.side.label, (), "Accepts resignation")
    return None


class MatchSession:
    def __init__(self, match: Match, log_: MatchLog | None = None) -> None:
        self.match = match
        self.log = log_
        self.resumed = False
        self.out_of_step = False  # the engine refused what the referee saw
        self.moves: list[MoveRecord] = []  # the current (or just finished) game's lines
        self.last_points: tuple[int, ...] = ()
        self._moves_game = 1
        self._dice_cache: tuple[int, dict[str, dict[str, Any]]] = (-1, {})
        self._rebuild_moves()

    # --- starting -------------------------------------------------------------------------------
    @classmethod
    def start(cls, config: Any, resume: bool = True) -> MatchSession:
        """A new match, or, with a log configured and `resume`, the unfinished match in it."""
        g = config.game
        fresh = Match(match_started(g.variant, g.match_length, g.white_name, g.black_name,
                                    config.match_settings))
        if config.store.path in ("", "auto"):  # "auto" is resolved by app.wiring.build
            return cls(fresh)
        store = EventStore(config.store.path)  # a foreign or damaged file: StoreError, untouched
        ids = store.match_ids()
        if resume and ids:
            match = Match.from_events(store.events(ids[-1]))
            if match.state.game.phase is not Phase.MATCH_OVER:
                session = cls(match, MatchLog(store, ids[-1]))
                session.resumed = True
                log.info("resuming match %d from %s", ids[-1], config.store.path)
                return session
        return cls(fresh, MatchLog(store, store.create_match(fresh.events[0])))

    def new_match(self, command: Any) -> None:
        """A `commands.NewMatch`: variant, length, names and every setting."""
        start = match_started(command.variant, command.match_length, command.white_name,
                              command.black_name, command.settings)
        self.match = Match(start)
        if self.log is not None:
            self.log.new_match(start)
        self.resumed = False
        self.out_of_step = False
        self._rebuild_moves()

    # --- reading ----------------------------------------------------------------------------------
    @property
    def state(self) -> MatchState:
        return self.match.state

    @property
    def settings(self) -> MatchSettings:
        return self.match.state.settings

    def table(self) -> Table:
        game = self.match.state.game
        turn = game.turn if game.turn is not None else game.position.turn
        dice: tuple[int, ...] | None = game.movements or game.dice
        return Table(game.number, game.phase, game.position.with_turn(turn), dice, game.plays,
                     bool(game.movements))

    def resume_point(self) -> tuple[Position, tuple[int, int] | None] | None:
        """(position with side to move, dice if rolled) of a resumed game, for the referee."""
        game = self.match.state.game
        if not self.resumed or game.turn is None:
            return None
        dice = game.dice if game.phase is Phase.MOVE else None
        return game.position.with_turn(game.turn), dice

    # --- the referee proposes -----------------------------------------------------------------
    def propose(self, event: ev.RefereeEvent) -> bool:
        """A referee event for the engine; False when the engine refused it (logged)."""
        game_event: ge.GameEvent | None = None
        if isinstance(event, ev.OpeningRolled):
            game_event = ge.OpeningRoll(event.white_die, event.black_die)
        elif isinstance(event, ev.OpeningTie):
            game_event = ge.OpeningRoll(event.value, event.value)
        elif isinstance(event, ev.RollAccepted):
            game_event = ge.Roll(event.side, event.dice)
        elif isinstance(event, ev.MovePlayed) and event.play is not None:
            game_event = ge.Move.of(event.side, event.play)
        elif isinstance(event, ev.Corrected):
            game_event = ge.Correct.of(event.position, event.dice)
        if game_event is None:
            return True  # nothing for the engine: it books passes and game ends itself
        try:
            self.record(game_event)
        except IllegalEventError as exc:
            if not self.out_of_step:
                log.warning("match engine refused %s: %s", game_event, exc)
            self.out_of_step = True
            return False
        self.out_of_step = False
        return True

    def record(self, event: ge.GameEvent) -> None:
        """Apply `event` (IllegalEventError leaves everything as it was), then log it."""
        before = self.match.state
        after = self.match.apply(event)
        if self.log is not None:
            self.log.append(event)
        self._add_move(before, event, after)

    # --- commands -------------------------------------------------------------------------------
    def cube(self, action: str) -> None:
        game = self.match.state.game
        offerer = game.cube.offered_by
        event: ge.GameEvent | None
        if action == "double":
            if game.phase is not Phase.ROLL or game.turn is None:
                side = game.turn.label if game.turn is not None else "nobody"
                raise CommandRefused("refusal.nothing_to_double", side=side)
            event = ge.Double(game.turn)
        elif offerer is None:
            key = "refusal.nothing_to_pass" if action == "pass" else "refusal.nothing_to_take"
            raise CommandRefused(key)
        else:
            answer = {"take": ge.Take, "pass": ge.Pass, "beaver": ge.Beaver,
                      "raccoon": ge.Raccoon}[action]
            event = answer(offerer.opponent)
        try:
            self.record(event)
        except IllegalEventError as exc:
            raise CommandRefused(exc.key, **exc.params) from None

    def correct(self, position: Position, dice: tuple[int, int] | None) -> None:
        try:
            self.record(ge.Correct.of(position, dice))
        except IllegalEventError as exc:
            raise CommandRefused(exc.key, **exc.params) from None
        self.out_of_step = False

    def undo(self) -> UndoneEvent:
        """Take back the engine's last event (never more than one)."""
        events = self.match.events
        if len(events) <= 1:
            raise CommandRefused("refusal.nothing_to_undo")
        last = events[-1]
        left = None
        if isinstance(last, ge.Move):
            left = ge.move_position(last, last.side)
        self.match = Match.from_events(events[:-1])
        if self.log is not None:
            self.log.truncate(len(events) - 1)
        self.out_of_step = False
        self._rebuild_moves()
        side = getattr(last, "side", None)
        return UndoneEvent(UNDO_KINDS.get(type(last), last.kind),
                           side.label if isinstance(side, Side) else None, left)

    def settle(self, winner: Side, level: int) -> None:
        """End the game as a resignation of `winner`'s opponent at `level` (1-3), accepted."""
        try:  # both or neither: check the pair on a copy first
            probe = Match.from_events(self.match.events)
            probe.apply(ge.Resign(winner.opponent, level))
            probe.apply(ge.AcceptResign(winner))
        except IllegalEventError as exc:
            raise CommandRefused(exc.key, **exc.params) from None
        self.record(ge.Resign(winner.opponent, level))
        self.record(ge.AcceptResign(winner))

    def dice_summary(self) -> dict[str, dict[str, Any]]:
        """Are the dice fair? Per player and for the match: face counts, doubles and the
        chi-square p-values (cached until the next event: every frame builds a State)."""
        key = len(self.match.events)
        if self._dice_cache[0] != key:
            from nardy_pi.game.dice_stats import match_dice_stats

            summary = {
                who: {
                    "rolls": st.rolls,
                    "faces": list(st.faces.observed),
                    "faces_p": round(st.faces.p_value, 4),
                    "doubles": st.doubles.observed[0],
                    "doubles_p": round(st.doubles.p_value, 4),
                    "reliable": st.faces.reliable,  # every expected count >= 5
                }
                for who, st in match_dice_stats(self.match.events).items()
            }
            self._dice_cache = (key, summary)
        return self._dice_cache[1]

    def mat_text(self) -> str:
        from nardy_pi.records.mat_export import export_mat

        return export_mat(self.match.events)

    # --- the move list ----------------------------------------------------------------------------
    def _add_move(self, before: MatchState, event: ge.GameEvent, after: MatchState) -> None:
        if before.game.number != self._moves_game:  # the first event of a new game
            self.moves, self.last_points = [], ()
            self._moves_game = before.game.number
        line = move_record(before, event, after, len(self.moves) + 1)
        if line is not None:
            self.moves.append(line)
        if isinstance(event, ge.Move):
            play = played(before, event)
            v = get_variant(before.variant)
            self.last_points = touched_points(play, v, event.side) if play is not None else ()
        elif line is not None:
            self.last_points = ()

    def _rebuild_moves(self) -> None:
        """The move list replayed from the log (after an undo, a resume, a new match)."""
        events = self.match.events
        self.moves, self.last_points, self._moves_game = [], (), 1
        replay = Match(events[0])  # type: ignore[arg-type]
        for event in events[1:]:
            before = replay.state
            after = replay.apply(event)
            self._add_move(before, event, after)
