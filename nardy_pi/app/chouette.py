"""A chouette session around the refereed game (`nardy_pi.game.chouette`): the panel starts
it and books cube actions, the board's finished games feed it, the snapshot shows it.

The board game is refereed as an ordinary game with the box playing white (the bottom
side) and the captain black; the two-player engine's own cube stays unused, because each
member's cube lives here. Panel requests arrive on web threads and games end on the loop
thread, so the session is guarded by a lock; the loop's ticker publishes the change.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections.abc import Callable
from typing import Any

from nardy_pi.game import chouette as ch
from nardy_pi.game.errors import IllegalEventError
from nardy_pi.game.state import GameResult
from nardy_pi.rules.sides import Side
from nardy_pi.store.chouette_log import ChouetteStore

log = logging.getLogger(__name__)

BOX_SIDE = Side.WHITE


class ChouetteSession:
    def __init__(self, store: ChouetteStore | None = None) -> None:
        self._lock = threading.Lock()
        self.store = store
        self.session_id: int | None = None
        self.state: ch.ChouetteState | None = None
        self.events: list[ch.ChouetteEvent] = []
        if store is not None:
            self._resume(store)

    def _resume(self, store: ChouetteStore) -> None:
        ids = store.match_ids()
        if not ids:
            return
        events = store.session_events(ids[-1])
        try:
            self.state = ch.replay(events)
        except IllegalEventError as exc:
            log.warning("chouette %d does not replay (%s): starting none", ids[-1], exc)
            return
        self.session_id, self.events = ids[-1], events
        log.info("resuming chouette %d (game %d)", ids[-1], self.state.game_number)

    # --- from the panel -------------------------------------------------------------------------
    def begin(self, start: ch.ChouetteStarted) -> None:
        """A new session (IllegalEventError when the set-up is not a chouette)."""
        with self._lock:
            self.state = ch.start(start)
            self.events = [start]
            self.session_id = None
            self._write(lambda s: setattr(self, "session_id", s.create_session(start)))

    def act(self, event: ch.ChouetteEvent) -> None:
        """Apply a cube action, a result, a join or a leave; IllegalEventError says why not."""
        with self._lock:
            if self.state is None:
                raise IllegalEventError("no chouette is running: start one first")
            self.state = ch.apply(self.state, event)
            self.events.append(event)
            if self.session_id is not None:
                session = self.session_id
                self._write(lambda s: s.append(session, event))  # type: ignore[arg-type]

    def _write(self, write: Any) -> None:
        if self.store is None:
            return
        try:
            write(self.store)
        except (OSError, sqlite3.Error) as exc:  # the game goes on in memory
            log.error("chouette log failed (%s): the session is kept in memory only", exc)
            self.store = None

    # --- from the board -------------------------------------------------------------------------
    def game_finished(self, result: GameResult) -> None:
        """The refereed game ended: book it for the box (white) or the team (black)."""
        with self._lock:
            running = self.state is not None
        if not running:
            return
        if result.winner is None:
            log.info("chouette: game %d was drawn; nobody pays", result.number)
            return
        multiplier = max(1, min(3, result.points // max(1, result.cube)))
        winner = "box" if result.winner is BOX_SIDE else "team"
        try:
            self.act(ch.ChouetteGameOver(winner, multiplier))
        except IllegalEventError as exc:
            log.warning("chouette: game %d not booked: %s", result.number, exc)

    def summary(self) -> dict[str, Any] | None:
        with self._lock:
            return ch.summary(self.state) if self.state is not None else None


class ChouetteBooking:
    """Books the games the match engine finishes into the chouette, once each (by game
    number, so an undo that takes back a game's last move and plays it again does not book
    it twice; a new match starts numbering again), and gives the snapshot its standings.
    Asked on the loop thread at every publish."""

    def __init__(self, session: ChouetteSession,
                 results: Callable[[], tuple[GameResult, ...]]) -> None:
        self.session = session
        self.results = results
        done = results()
        self._booked_game = done[-1].number if done else 0

    def fields(self) -> dict[str, Any]:
        results = self.results()
        last = results[-1].number if results else 0
        if last < self._booked_game:  # a new match: its games are numbered from 1 again
            self._booked_game = last
        for result in results:
            if result.number > self._booked_game:
                self.session.game_finished(result)
                self._booked_game = result.number
        return {"chouette": self.session.summary()}
