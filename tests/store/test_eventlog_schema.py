"""A match log that is ours but broken (tables dropped, columns missing, rows of the wrong
type, damaged pages) is refused with one line naming the file and what is wrong."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from nardy_pi.game.events import MatchStarted
from nardy_pi.store.eventlog import EventStore, StoreError


def _ours(path: Path) -> None:
    with EventStore(path) as store:
        store.create_match(MatchStarted("backgammon", 0))


def _edit(path: Path, *statements: str) -> None:
    db = sqlite3.connect(path)
    for statement in statements:
        db.execute(statement)
    db.commit()
    db.close()


@pytest.mark.parametrize(
    ("statements", "message"),
    [
        (("DROP TABLE events",), "the table 'events' is missing"),
        (("DROP TABLE matches",), "the table 'matches' is missing"),
        (("ALTER TABLE events DROP COLUMN recorded",), "lacks column(s) recorded"),
    ],
)
def test_our_file_without_its_tables_is_refused(tmp_path: Path, statements, message) -> None:
    path = tmp_path / "m.sqlite"
    _ours(path)
    _edit(path, *statements)
    with pytest.raises(StoreError) as err:
        EventStore(path)
    assert message in str(err.value) and str(path) in str(err.value)


@pytest.mark.parametrize(
    ("payload", "message"),
    [("42", "unreadable"), ("'{\"kind\": \"nonsense\"}'", "unreadable"),
     ("x'00ff'", "wrong type"), ("'[[[[[[]]]]]]'", "unreadable")],
)
def test_rows_of_the_wrong_shape_are_named(tmp_path: Path, payload: str, message: str) -> None:
    path = tmp_path / "m.sqlite"
    _ours(path)
    _edit(path, f"UPDATE events SET payload = {payload}")
    with EventStore(path) as store, pytest.raises(StoreError) as err:
        store.events(store.match_ids()[0])
    assert message in str(err.value) and "event 1" in str(err.value)


def test_a_foreign_database_and_a_damaged_file_are_refused(tmp_path: Path) -> None:
    foreign = tmp_path / "other.sqlite"
    _edit(foreign, "CREATE TABLE notes (x TEXT)")
    with pytest.raises(StoreError, match="another program"):
        EventStore(foreign)
    damaged = tmp_path / "damaged.sqlite"
    _ours(damaged)
    data = bytearray(damaged.read_bytes())
    data[100:4096] = b"\xff" * (4096 - 100)  # the first page's b-tree
    damaged.write_bytes(bytes(data))
    with pytest.raises(StoreError, match="damaged"), EventStore(damaged) as store:
        store.match_ids()
