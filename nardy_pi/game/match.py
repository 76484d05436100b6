"""A match being played: the current state plus the accepted events, in order.

`Match.apply` validates an event against the state and only then keeps it, so `events`
always replays to `state`. Storage (`nardy_pi.store`) wraps this to persist each event.
"""

from __future__ import annotations

from typing import Any

from nardy_pi.game.engine import apply, replay, start_match
from nardy_pi.game.events import GameEvent, MatchStarted
from nardy_pi.game.state import MatchState


class Match:
    def __init__(self, start: MatchStarted) -> None:
        self.state: MatchState = start_match(start)
        self.events: list[GameEvent] = [start]

    @classmethod
    def new(
        cls,
        variant: str = "backgammon",
        match_length: int = 0,
        white: str = "White",
        black: str = "Black",
        settings: dict[str, Any] | None = None,
    ) -> Match:
        return cls(MatchStarted(variant, match_length, white, black, settings or {}))

    @classmethod
    def from_events(cls, events: list[GameEvent]) -> Match:
        state = replay(events)
        match = cls.__new__(cls)
        match.state = state
        match.events = list(events)
        return match

    def apply(self, event: GameEvent) -> MatchState:
        """Apply `event` or raise IllegalEventError (then nothing changes)."""
        self.state = apply(self.state, event)
        self.events.append(event)
        return self.state

    def check(self, event: GameEvent) -> MatchState:
        """The state `event` would lead to, without keeping it."""
        return apply(self.state, event)
