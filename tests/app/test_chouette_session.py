"""The chouette beside a real match engine: games the engine finishes are booked for the box
(white) or the team, the snapshot carries the standings, and the session's log in its own
SQLite file resumes after a restart."""

from __future__ import annotations

from pathlib import Path

import pytest

from nardy_pi.app.chouette import ChouetteBooking, ChouetteSession
from nardy_pi.game import chouette as ch
from nardy_pi.game import events as ge
from nardy_pi.game.errors import IllegalEventError
from nardy_pi.game.match import Match
from nardy_pi.rules.sides import Side
from nardy_pi.store.chouette_log import ChouetteStore, chouette_log_path


def engine() -> Match:
    # White starts without an opening roll, so a double is in order at once.
    return Match.new("backgammon", 0, "Box", "Team", {"opening": "white_first"})


def drop_game(match: Match, doubler: Side) -> None:
    """The board's game ends with a refused double (the quickest real game end)."""
    if match.state.game.turn is not doubler:
        match.apply(ge.Roll(match.state.game.turn, (6, 5)))
        match.apply(ge.Move.of(match.state.game.turn, match.state.game.plays[0]))
    match.apply(ge.Double(doubler))
    match.apply(ge.Pass(doubler.opponent))


def test_finished_games_are_booked_and_shown(tmp_path: Path) -> None:
    log_path = chouette_log_path(tmp_path / "matches.sqlite")
    assert log_path.name == "matches-chouette.sqlite"
    session = ChouetteSession(ChouetteStore(log_path))
    match = engine()
    booking = ChouetteBooking(session, lambda: match.state.results)
    with pytest.raises(IllegalEventError, match="start one first"):
        session.act(ch.ChouetteJoin("Eve"))
    session.begin(ch.ChouetteStarted(("Ann", "Ben", "Cat")))

    # The board's game: white (the box) doubles, black passes: the box wins one game.
    drop_game(match, Side.WHITE)
    chouette = booking.fields()["chouette"]
    assert chouette["game_number"] == 2 and chouette["box"] == "Ann"
    assert {s["player"]: s["score"] for s in chouette["scores"]} == {"Ann": 2, "Ben": -1,
                                                                       "Cat": -1}
    assert chouette["captain"] == "Cat"
    assert booking.fields() == {"chouette": chouette}  # booked once, however often asked

    # A team member doubles on the panel and the box passes: that game ends at once.
    session.act(ch.ChouetteDouble("Cat"))
    session.act(ch.ChouetteAnswer("Ann", False))
    assert session.summary()["box"] == "Cat"

    # The log replays after a restart.
    again = ChouetteSession(ChouetteStore(log_path))
    assert again.summary() == session.summary()
    assert again.events == session.events


def test_without_a_session_the_snapshot_says_none() -> None:
    match = engine()
    booking = ChouetteBooking(ChouetteSession(), lambda: match.state.results)
    drop_game(match, Side.WHITE)  # no chouette: nothing is booked, nothing breaks
    assert booking.fields() == {"chouette": None}
    assert match.state.score == (1, 0)
