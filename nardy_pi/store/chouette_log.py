"""The chouette sessions' event log: the same SQLite format and durability as the match log
(`EventStore`: one transaction per event, WAL, synchronous=FULL), in a file of its own beside
it, so the match log keeps holding matches only and replays as before."""

from __future__ import annotations

from pathlib import Path

from nardy_pi.game.chouette import ChouetteEvent, ChouetteStarted, event_from_json
from nardy_pi.store.eventlog import EventStore, StoreError


def chouette_log_path(match_log: str | Path) -> Path:
    """`matches.sqlite` -> `matches-chouette.sqlite`, beside it."""
    p = Path(match_log)
    return p.with_name(f"{p.stem}-chouette{p.suffix or '.sqlite'}")


class ChouetteStore(EventStore):
    def create_session(self, start: ChouetteStarted) -> int:
        return self.create_match(start)  # type: ignore[arg-type]  # any event with a kind

    def session_events(self, session_id: int) -> list[ChouetteEvent]:
        rows = self._db.execute(
            "SELECT seq, payload FROM events WHERE match_id = ? ORDER BY seq", (session_id,)
        ).fetchall()
        out = []
        for seq, payload in rows:
            try:
                out.append(event_from_json(payload))
            except ValueError as exc:
                raise StoreError(f"chouette {session_id}, event {seq} is unreadable: {exc}") \
                    from None
        return out
