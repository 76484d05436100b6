"""`Play.notation` is GNU Backgammon's own canonical text for the same steps."""

from __future__ import annotations

import itertools

import gnubg

from nardy_pi.rules.movegen import legal_plays
from nardy_pi.rules.notation.gnubg_id import gnubg_board
from tests.rules.selfplay import random_positions


def test_notation_matches_gnubg_on_thousands_of_plays() -> None:
    checked = 0
    for variant, seed in (("backgammon", 11), ("nackgammon", 12)):
        for position, roll in itertools.islice(random_positions(variant, seed, games=6), 1500):
            board = gnubg_board(position, variant)
            for play in legal_plays(position, roll, variant):
                steps = tuple((s.src, s.dst) for s in play.steps)
                assert play.notation == gnubg.movetupletostring(steps, board), steps
                # gnubg's text does not depend on the order the steps were found in.
                reverse = tuple(reversed(steps))
                assert play.notation == gnubg.movetupletostring(reverse, board)
                checked += 1
    assert checked > 5000
