"""The SQLite event log: append, replay, and refusing files that are not ours."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from nardy_pi.game.errors import IllegalEventError
from nardy_pi.game.events import MatchStarted, Move, OpeningRoll, Roll
from nardy_pi.game.match import Match
from nardy_pi.rules.sides import Side
from nardy_pi.store.eventlog import EventStore, StoreError
from nardy_pi.store.recorded import RecordedMatch
from tests.game.driver import play_game


def test_every_event_is_stored_and_the_match_replays(tmp_path: Path) -> None:
    reference = Match.new("backgammon", 5, "Ann", "Bob")
    play_game(reference, Side.WHITE, winner_dice=(6, 6), loser_dice=(4, 4))
    db = tmp_path / "games.db"
    with EventStore(db) as store:
        recorded = RecordedMatch.create(store, reference.events[0])  # type: ignore[arg-type]
        for event in reference.events[1:]:
            recorded.apply(event)
        match_id = recorded.match_id
    with EventStore(db) as store:
        assert store.events(match_id) == reference.events
        assert RecordedMatch.load(store, match_id).state == reference.state
        stored = store.stored(match_id)
        assert [s.seq for s in stored] == list(range(1, len(reference.events) + 1))
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    con.close()


def test_a_refused_event_is_not_stored(tmp_path: Path) -> None:
    with EventStore(tmp_path / "g.db") as store:
        m = RecordedMatch.create(store, MatchStarted("backgammon", 0))
        m.apply(OpeningRoll(3, 1))
        with pytest.raises(IllegalEventError):
            m.apply(Roll(Side.BLACK, (6, 6)))
        assert len(store.events(m.match_id)) == 2
        play = m.state.game.plays[0]
        m.apply(Move.of(Side.WHITE, play))
        assert len(store.events(m.match_id)) == 3


def test_two_matches_in_one_file(tmp_path: Path) -> None:
    with EventStore(tmp_path / "g.db") as store:
        a = RecordedMatch.create(store, MatchStarted("backgammon", 3))
        b = RecordedMatch.create(store, MatchStarted("long", 0))
        a.apply(OpeningRoll(6, 2))
        assert store.match_ids() == [a.match_id, b.match_id]
        assert RecordedMatch.load(store, b.match_id).state.variant == "long"
        assert len(store.events(a.match_id)) == 2


def _unchanged_after_refusal(path: Path, reason: str) -> None:
    before = path.read_bytes()
    with pytest.raises(StoreError, match=reason):
        EventStore(path)
    assert path.read_bytes() == before
    assert not Path(f"{path}-wal").exists()


def test_a_file_that_is_not_sqlite_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_bytes(b"shopping list: milk, bread\n" * 20)
    _unchanged_after_refusal(path, "not an SQLite database")


def test_another_programs_database_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE contacts (name TEXT)")
    con.execute("INSERT INTO contacts VALUES ('Ann')")
    con.commit()
    con.close()
    _unchanged_after_refusal(path, "belongs to another program")


def test_a_damaged_database_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    with EventStore(path) as store:
        m = RecordedMatch.create(store, MatchStarted("backgammon", 0))
        for _ in range(3):
            m.apply(OpeningRoll(2, 2))
    con = sqlite3.connect(path)  # fold the WAL into the main file
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    data = bytearray(path.read_bytes())
    page = 4096
    assert len(data) > 2 * page
    data[page + 8 : 2 * page] = b"\xa5" * (page - 8)  # scribble over the second page
    path.write_bytes(bytes(data))
    _unchanged_after_refusal(path, "damaged")


def test_a_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="directory"):
        EventStore(tmp_path)
