"""The SQLite event log: every accepted event, one transaction each, replayable.

WAL journal with `synchronous=FULL`: a commit is on disk when `append` returns, so a crash
or a power cut loses nothing that was acknowledged. The file is marked with our own
`application_id`; a file that is not SQLite, or is another program's database, is refused
with a clear error and never written to.
"""

from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from nardy_pi.game.events import GameEvent, MatchStarted, event_from_json, event_to_json

#: "NRDY" as a big-endian int: marks a database as ours (PRAGMA application_id).
APPLICATION_ID = 0x4E524459
SCHEMA_VERSION = 1
_SQLITE_MAGIC = b"SQLite format 3\x00"

_SCHEMA = (
    "CREATE TABLE matches (id INTEGER PRIMARY KEY, created REAL NOT NULL)",
    "CREATE TABLE events (match_id INTEGER NOT NULL REFERENCES matches(id),"
    " seq INTEGER NOT NULL, kind TEXT NOT NULL, payload TEXT NOT NULL,"
    " recorded REAL NOT NULL, PRIMARY KEY (match_id, seq))",
)


_COLUMNS = {
    "matches": {"id", "created"},
    "events": {"match_id", "seq", "kind", "payload", "recorded"},
}


class StoreError(OSError):
    """The database cannot be used (corrupt, foreign, or from a newer version)."""


@dataclass(frozen=True, slots=True)
class StoredEvent:
    match_id: int
    seq: int
    event: GameEvent
    recorded: float


def _check_file(path: Path) -> None:
    """Refuse anything that is not an SQLite file, before SQLite touches it."""
    if not path.exists():
        return
    if path.is_dir():
        raise StoreError(f"{path} is a directory, not a nardy-pi database")
    with path.open("rb") as fh:
        head = fh.read(len(_SQLITE_MAGIC))
    if head and head != _SQLITE_MAGIC:
        raise StoreError(f"{path} is not an SQLite database (refusing to touch it)")


class EventStore:
    """An open event log. Use as a context manager or call `close()`."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        _check_file(self.path)
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, timeout=10)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open {self.path}: {exc}") from None
        try:
            self._prepare()
        except sqlite3.DatabaseError as exc:
            self._db.close()
            raise StoreError(f"{self.path} is damaged or not a database: {exc}") from None
        except StoreError:
            self._db.close()
            raise

    def _prepare(self) -> None:
        db = self._db
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
        tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        if app_id != APPLICATION_ID and not (app_id == 0 and tables == 0):
            raise StoreError(f"{self.path} belongs to another program (refusing to touch it)")
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StoreError(f"{self.path} was written by a newer nardy-pi (schema {version})")
        check = db.execute("PRAGMA quick_check").fetchone()[0]
        if check != "ok":
            raise StoreError(f"{self.path} is damaged: {check}")
        if app_id == APPLICATION_ID:
            self._check_schema()
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        if app_id == 0:
            with self._transaction():
                for statement in _SCHEMA:
                    db.execute(statement)
                db.execute(f"PRAGMA application_id={APPLICATION_ID}")
                db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    def _check_schema(self) -> None:
        """Our own file must still hold our tables with their columns (a hand-edited or
        half-restored file otherwise fails later with an SQLite error mid-match)."""
        for table, columns in _COLUMNS.items():
            found = {row[1] for row in self._db.execute(f"PRAGMA table_info({table})")}
            if not found:
                raise StoreError(f"{self.path}: the table {table!r} is missing")
            missing = sorted(columns - found)
            if missing:
                raise StoreError(
                    f"{self.path}: the table {table!r} lacks column(s) {', '.join(missing)}"
                )

    # --- writing ----------------------------------------------------------------------------
    def create_match(self, start: MatchStarted) -> int:
        """Open a new match with its first event; returns the match id."""
        with self._transaction():
            cur = self._db.execute("INSERT INTO matches (created) VALUES (?)", (time.time(),))
            match_id = int(cur.lastrowid or 0)
            self._insert(match_id, 1, start)
        return match_id

    def append(self, match_id: int, event: GameEvent) -> int:
        """Append one event in its own transaction; returns its sequence number once it is
        durable."""
        with self._transaction():
            row = self._db.execute(
                "SELECT coalesce(max(seq), 0) FROM events WHERE match_id = ?", (match_id,)
            ).fetchone()
            if row[0] == 0:
                raise StoreError(f"no match {match_id} in {self.path}")
            seq = int(row[0]) + 1
            self._insert(match_id, seq, event)
        return seq

    def truncate(self, match_id: int, keep: int) -> None:
        """Keep only the first `keep` events of a match (an undo at the board takes back the
        events after it); the match's opening event always stays."""
        with self._transaction():
            self._db.execute(
                "DELETE FROM events WHERE match_id = ? AND seq > ?", (match_id, max(keep, 1))
            )

    def _insert(self, match_id: int, seq: int, event: GameEvent) -> None:
        self._db.execute(
            "INSERT INTO events (match_id, seq, kind, payload, recorded) VALUES (?, ?, ?, ?, ?)",
            (match_id, seq, event.kind, event_to_json(event), time.time()),
        )

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)

    # --- reading ----------------------------------------------------------------------------
    def match_ids(self) -> list[int]:
        try:
            ids = [r[0] for r in self._db.execute("SELECT id FROM matches ORDER BY id")]
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path} is damaged: {exc}") from None
        if not all(isinstance(i, int) for i in ids):
            raise StoreError(f"{self.path}: table 'matches' holds an id that is not a number")
        return ids

    def stored(self, match_id: int) -> list[StoredEvent]:
        try:
            rows = self._db.execute(
                "SELECT seq, payload, recorded FROM events WHERE match_id = ? ORDER BY seq",
                (match_id,),
            ).fetchall()
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path} is damaged: {exc}") from None
        out = []
        for seq, payload, recorded in rows:
            where = f"{self.path}: match {match_id}, event {seq}"
            if not isinstance(payload, str) or not isinstance(recorded, int | float):
                raise StoreError(f"{where}: payload or time has the wrong type")
            try:
                event = event_from_json(payload)
            except (ValueError, TypeError, KeyError, RecursionError) as exc:
                raise StoreError(f"{where} is unreadable: {exc}") from None
            out.append(StoredEvent(match_id, seq, event, recorded))
        return out

    def events(self, match_id: int) -> list[GameEvent]:
        return [s.event for s in self.stored(match_id)]

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> EventStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT, rolled back on any error (one event = one transaction)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: object, *rest: object) -> None:
        if exc_type is None:
            self.db.execute("COMMIT")
        else:
            self.db.execute("ROLLBACK")
