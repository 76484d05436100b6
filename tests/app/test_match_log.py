"""`nardy-pi run` keeps the match in the SQLite log: a restart resumes it, undo is logged,
and a foreign file is refused and left untouched."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from nardy_pi.app.session import MatchSession
from nardy_pi.config import Config, StoreConfig
from nardy_pi.referee import events as ev
from nardy_pi.rules.movegen import legal_plays
from nardy_pi.rules.position import Position
from nardy_pi.rules.sides import Side
from nardy_pi.store.eventlog import StoreError


def config_at(path: Path) -> Config:
    return replace(Config(), store=StoreConfig(path=str(path)))


def opening_and_first_move(engine: MatchSession) -> Position:
    start = Position.start()
    engine.propose(ev.OpeningRolled(3, 1, Side.WHITE, (3, 1)))
    play = next(p for p in legal_plays(start, (3, 1), "backgammon") if p.notation == "8/5 6/5")
    engine.propose(ev.MovePlayed(Side.WHITE, (3, 1), play, start, play.result))
    return play.result


def test_a_restart_resumes_the_interrupted_game(tmp_path: Path) -> None:
    config = config_at(tmp_path / "matches.sqlite")
    first = MatchSession.start(config)
    assert not first.resumed
    after = opening_and_first_move(first)
    first.log.store.close()  # type: ignore[union-attr]  # the power goes off

    again = MatchSession.start(config)
    assert again.resumed
    point = again.resume_point()
    assert point is not None
    position, dice = point
    assert position.points == after.points and position.turn is Side.BLACK
    assert dice is None  # black has not rolled yet
    assert again.match.state.game.position.points == after.points


def test_undo_is_kept_in_the_log(tmp_path: Path) -> None:
    config = config_at(tmp_path / "matches.sqlite")
    engine = MatchSession.start(config)
    opening_and_first_move(engine)
    assert engine.undo().kind == "play"
    again = MatchSession.start(config)
    point = again.resume_point()
    assert point is not None
    assert point[0].points == Position.start().points and point[0].turn is Side.WHITE
    assert point[1] == (3, 1)  # white plays the opening 3-1 again


def test_no_resume_starts_a_new_match_and_keeps_the_old_one(tmp_path: Path) -> None:
    config = config_at(tmp_path / "matches.sqlite")
    opening_and_first_move(MatchSession.start(config))
    fresh = MatchSession.start(config, resume=False)
    assert not fresh.resumed and fresh.resume_point() is None
    assert len(fresh.log.store.match_ids()) == 2  # type: ignore[union-attr]


def test_a_foreign_database_is_refused_and_untouched(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
        db.execute("INSERT INTO invoices (total) VALUES (12.5)")
    before = path.read_bytes()
    with pytest.raises(StoreError, match="another program"):
        MatchSession.start(config_at(path))
    assert path.read_bytes() == before


def test_a_hand_correction_keeps_the_engine_and_log_in_step(tmp_path: Path) -> None:
    config = config_at(tmp_path / "matches.sqlite")
    engine = MatchSession.start(config)
    after = opening_and_first_move(engine)
    # Someone knocks a black checker from 12 to 11; the record is corrected to that board.
    points = list(after.points)
    points[11] += 1
    points[10] -= 1
    corrected = Position(tuple(points), after.bar, after.off, Side.BLACK)
    engine.propose(ev.Corrected(corrected))
    assert not engine.out_of_step
    # Black rolls and plays from the corrected board: the engine accepts it and logs it.
    engine.propose(ev.RollAccepted(Side.BLACK, (6, 5)))
    play = legal_plays(corrected, (6, 5), "backgammon")[0]
    engine.propose(ev.MovePlayed(Side.BLACK, (6, 5), play, corrected, play.result))
    assert not engine.out_of_step
    resumed = MatchSession.start(config).resume_point()
    assert resumed is not None and resumed[0].points == play.result.points
