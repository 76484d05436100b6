"""The seam to the match engine (cube, score, results): the loop hands it referee events and
cube commands and reads back the snapshot fields it owns."""

from __future__ import annotations

from typing import Any, Protocol

from nardy_pi.referee import Referee
from nardy_pi.referee import events as ev
from nardy_pi.state import State


class MatchPort(Protocol):
    def apply(self, event: ev.RefereeEvent) -> None: ...

    def cube(self, action: str, referee: Referee) -> None: ...

    def new_match(self, command: Any) -> None: ...

    def fields(self, state: State) -> dict[str, Any]:
        """Snapshot fields the match owns, given the referee's snapshot."""
        ...


class NoMatch:
    """No match engine: the referee still referees; cube and score are not kept."""

    def apply(self, event: ev.RefereeEvent) -> None:
        pass

    def cube(self, action: str, referee: Referee) -> None:
        from nardy_pi.app.loop import CommandRefused

        raise CommandRefused("cube actions need the match engine (nardy_pi.game)")

    def new_match(self, command: Any) -> None:
        pass

    def fields(self, state: State) -> dict[str, Any]:
        return {}
