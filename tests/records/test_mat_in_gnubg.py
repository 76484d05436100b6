"""Our .mat export opened by the real GNU Backgammon program (`gnubg -t`): the same games,
the same score, and the same Match ID for the position a game stands at."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from nardy_pi.errors import IllegalEventError
from nardy_pi.game import events as ge
from nardy_pi.game.match import Match
from nardy_pi.records.mat_export import export_mat
from nardy_pi.records.xgid_export import gnubg_id_of
from nardy_pi.rules.sides import Side
from tests.records.gnubg_program import imported
from tests.store.crash_writer import next_event


def random_match(seed: int, length: int) -> Match:
    """Random legal plays and cube actions (doubles, takes, drops by either side)."""
    rng = random.Random(seed)
    match = Match.new("backgammon", length, "Anna", "Boris")
    while not match.state.over:
        event = next_event(match.state, rng)
        try:
            match.apply(event)
        except IllegalEventError:  # a double the cube does not allow now: roll instead
            assert isinstance(event, ge.Double)
            match.apply(ge.Roll(event.side, (rng.randint(1, 6), rng.randint(1, 6))))
    return match


@pytest.mark.parametrize("seed", range(6))
def test_gnubg_reads_the_same_games_and_score(seed: int, tmp_path: Path) -> None:
    match = random_match(seed, 5)
    path = tmp_path / "match.mat"
    path.write_text(export_mat(match.events), encoding="utf-8")
    games, score, _ = imported(path)
    assert games == len(match.state.results)
    assert score == match.state.score


def test_a_drop_by_the_first_player_after_many_redoubles_counts_once(tmp_path: Path) -> None:
    """gnubg read a right-hand "Wins" on its own line after a left-hand "Drops" as another
    cube turn, and scored 0-32 for this 16-point drop (gnubg writes the win beside it)."""
    w, b = Side.WHITE, Side.BLACK
    match = Match.new("backgammon", 25, "Anna", "Boris")

    def play() -> None:
        game = match.state.game
        assert game.turn is not None
        match.apply(ge.Move.of(game.turn, game.plays[0]))

    match.apply(ge.OpeningRoll(3, 1))
    play()
    for doubler, dice in ((b, (6, 5)), (w, (6, 5)), (b, (6, 4)), (w, (2, 1))):
        match.apply(ge.Double(doubler))
        match.apply(ge.Take(doubler.opponent))
        match.apply(ge.Roll(doubler, dice))
        play()
    match.apply(ge.Double(b))
    match.apply(ge.Pass(w))
    assert match.state.score == (0, 16)
    path = tmp_path / "drop.mat"
    path.write_text(export_mat(match.events), encoding="utf-8")
    assert imported(path)[:2] == (1, (0, 16))


@pytest.mark.parametrize("extra", [0, 1, 2])
def test_match_ids_agree_with_gnubg_on_who_is_on_roll(extra: int, tmp_path: Path) -> None:
    """A game in progress: white or black to roll, with a turned cube and a score."""
    w, b = Side.WHITE, Side.BLACK
    match = Match.new("backgammon", 7, "Anna", "Boris")

    def play() -> None:
        game = match.state.game
        assert game.turn is not None
        match.apply(ge.Move.of(game.turn, game.plays[0]))

    match.apply(ge.OpeningRoll(3, 1))
    play()
    match.apply(ge.Double(b))
    match.apply(ge.Pass(w))  # 0-1
    match.apply(ge.OpeningRoll(2, 4))  # black opens
    play()
    match.apply(ge.Double(w))
    match.apply(ge.Take(b))  # black owns a 2-cube
    for dice in ((5, 2), (6, 4), (3, 3))[: extra + 1]:
        game = match.state.game
        assert game.turn is not None
        match.apply(ge.Roll(game.turn, dice))
        play()
    ours = gnubg_id_of(match.state)
    path = tmp_path / "going.mat"
    path.write_text(export_mat(match.events), encoding="utf-8")
    assert imported(path)[2] == ours, match.state.game.turn


def test_the_history_pages_files_open_in_gnubg_too(tmp_path: Path) -> None:
    """A finished match from the SQLite log, as the history page serves it."""
    from nardy_pi.store.eventlog import EventStore
    from nardy_pi.store.history import StoreHistory

    match = random_match(11, 3)
    path = tmp_path / "matches.sqlite"
    with EventStore(path) as store:
        match_id = store.create_match(match.events[0])  # type: ignore[arg-type]
        for event in match.events[1:]:
            store.append(match_id, event)
    history = StoreHistory(path)
    (summary,) = history.finished_matches()
    mat = tmp_path / "history.mat"
    mat.write_text(history.mat_text(summary.match_id), encoding="utf-8")
    games, score, _ = imported(mat)
    assert (games, score) == (len(match.state.results), match.state.score)
    assert (summary.white_score, summary.black_score) == score
