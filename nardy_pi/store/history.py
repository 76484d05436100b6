"""Finished matches in the SQLite log, for the web page's history (the `History` seam).

Each call opens its own connection: the web server answers from several threads, and an
SQLite connection belongs to the thread that made it. Replays are cached per match and event
count, so a page view does not replay every match again.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from nardy_pi.game.engine import replay
from nardy_pi.game.errors import IllegalEventError
from nardy_pi.game.state import Phase
from nardy_pi.records.mat_export import export_mat
from nardy_pi.store.eventlog import EventStore, StoredEvent, StoreError

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class MatchSummary:
    match_id: str  # letters, digits, '-' and '_' only: it is part of a download URL
    white_name: str
    black_name: str
    white_score: int
    black_score: int
    match_length: int  # 0 = money session
    variant: str
    finished_at: str  # ISO 8601, UTC


class NoHistory:
    """No match log (the demo table, `[store] path = ""`): no finished matches to list."""

    def finished_matches(self) -> list[MatchSummary]:
        return []

    def mat_text(self, match_id: str) -> str:
        raise KeyError(match_id)


class StoreHistory:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        self._cache: dict[tuple[int, int], MatchSummary | None] = {}

    def _summary(self, match_id: int, stored: list[StoredEvent]) -> MatchSummary | None:
        key = (match_id, len(stored))
        with self._lock:
            if key in self._cache:
                return self._cache[key]
        state = replay([s.event for s in stored])
        summary = None
        if state.game.phase is Phase.MATCH_OVER:
            summary = MatchSummary(
                match_id=str(match_id),
                white_name=state.players[0],
                black_name=state.players[1],
                white_score=state.score[0],
                black_score=state.score[1],
                match_length=state.match_length,
                variant=state.variant,
                finished_at=datetime.fromtimestamp(stored[-1].recorded, UTC).isoformat(),
            )
        with self._lock:
            self._cache[key] = summary
        return summary

    def finished_matches(self) -> list[MatchSummary]:
        if not self.path.exists():
            return []
        found = []
        with EventStore(self.path) as store:
            for match_id in reversed(store.match_ids()):
                try:  # one damaged match (a hand-edited log) leaves the others listed
                    found.append(self._summary(match_id, store.stored(match_id)))
                except (StoreError, IllegalEventError, ValueError) as exc:
                    log.warning("history: match %d is left out: %s", match_id, exc)
        return [s for s in found if s is not None]

    def mat_text(self, match_id: str) -> str:
        if not match_id.isdigit() or not self.path.exists():
            raise KeyError(match_id)
        with EventStore(self.path) as store:
            if int(match_id) not in store.match_ids():
                raise KeyError(match_id)
            try:
                stored = store.stored(int(match_id))
                summary = self._summary(int(match_id), stored)
            except (StoreError, IllegalEventError, ValueError):
                raise KeyError(match_id) from None  # left out of the list, so not found
        if summary is None:
            raise KeyError(match_id)  # not finished yet
        return export_mat([s.event for s in stored])
