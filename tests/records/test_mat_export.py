"""Export then import: every variant's match comes back with the same games and score."""

from __future__ import annotations

import random

import pytest

from nardy_pi.game.errors import IllegalEventError
from nardy_pi.game.events import Beaver, Move, Raccoon
from nardy_pi.game.match import Match
from nardy_pi.game.state import Phase
from nardy_pi.records.mat_export import export_mat
from nardy_pi.records.mat_replay import replay_record
from nardy_pi.records.mat_text import parse_mat
from tests.store.crash_writer import next_event


def random_match(variant: str, length: int, seed: int, **settings: object) -> Match:
    rng = random.Random(seed)
    m = Match.new(variant, length, "Ann", "Bob", settings=dict(settings))
    while not m.state.over and len(m.state.results) < 4:  # money play has no end
        try:
            m.apply(next_event(m.state, rng))
        except IllegalEventError:
            continue
    return m


@pytest.mark.parametrize(
    ("variant", "settings"),
    [
        ("backgammon", {}),
        ("nackgammon", {}),
        ("long", {}),
        ("gulbar", {}),
        ("caucasian", {}),
    ],
)
def test_round_trip(variant: str, settings: dict) -> None:
    m = random_match(variant, 5, seed=len(variant), **settings)
    text = export_mat(m.events)
    assert text.startswith("; [Variation") and " 5 point match" in text
    back = replay_record(parse_mat(text))
    assert back.state.variant == m.state.variant
    assert back.state.results == m.state.results
    assert back.state.score == m.state.score
    moves = [e for e in m.events if isinstance(e, Move)]
    assert [e for e in back.events if isinstance(e, Move)] == moves


def test_money_session_with_beavers_round_trips() -> None:
    rng = random.Random(9)
    m = Match.new("backgammon", 0, settings={"beaver": True, "raccoon": True})
    animals = 0
    while len(m.state.results) < 6:
        game = m.state.game
        if game.phase is Phase.CUBE and game.cube.offered_by is not None and rng.random() < 0.6:
            answerer = game.cube.offered_by.opponent
            animal = Beaver if game.cube.offer_kind == "double" else Raccoon
            try:
                m.apply(animal(answerer))
                animals += 1
                continue
            except IllegalEventError:
                pass
        try:
            m.apply(next_event(m.state, rng))
        except IllegalEventError:
            continue
    assert animals >= 2
    text = export_mat(m.events)
    assert "Beavers => " in text
    assert " 0 point match" in text
    back = replay_record(parse_mat(text), settings={"beaver": True, "raccoon": True})
    assert back.state.results == m.state.results
