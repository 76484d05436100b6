"""A match whose every accepted event is durable before it counts.

`apply` validates the event against the match (refused events are neither stored nor
applied), appends it in its own transaction, and only then moves the in-memory state on. A
restart calls `RecordedMatch.load`, which replays the log.
"""

from __future__ import annotations

from nardy_pi.game.engine import apply, replay
from nardy_pi.game.events import GameEvent, MatchStarted
from nardy_pi.game.state import MatchState
from nardy_pi.store.eventlog import EventStore


class RecordedMatch:
    def __init__(self, store: EventStore, match_id: int, state: MatchState) -> None:
        self.store = store
        self.match_id = match_id
        self.state = state

    @classmethod
    def create(cls, store: EventStore, start: MatchStarted) -> RecordedMatch:
        state = replay([start])  # validates the start before anything is written
        return cls(store, store.create_match(start), state)

    @classmethod
    def load(cls, store: EventStore, match_id: int) -> RecordedMatch:
        """Rebuild a stored match; raises IllegalEventError if the log does not replay."""
        return cls(store, match_id, replay(store.events(match_id)))

    def apply(self, event: GameEvent) -> MatchState:
        """Validate, persist, then apply. Returns the new state once the event is durable."""
        new = apply(self.state, event)
        self.store.append(self.match_id, event)
        self.state = new
        return new
