"""Gulbar live through the referee and the engine: a double played in full earns another
throw, and the movements a mover cannot play pass to the opponent, who plays them on the
board before the next throw (the referee follows the engine's turn and plays)."""

from __future__ import annotations

import random

from nardy_pi import commands as cmd
from nardy_pi.game import events as ge
from nardy_pi.game.match import Match
from nardy_pi.game.settings import MatchSettings
from nardy_pi.game.state import Phase
from tests.web.helpers import Site


def script_to_left_over_movements(seed: int = 0) -> list[tuple[tuple[int, int] | None, int]]:
    """(dice, None) throws and (None, choice) plays of a gulbar game, found by the engine
    alone, up to the first time a mover leaves movements to the opponent."""
    rng = random.Random(seed)
    match = Match.new("gulbar", 0, settings={"opening": "white_first"})
    script: list[tuple[tuple[int, int] | None, int]] = []
    for _ in range(200):
        game = match.state.game
        if game.phase is Phase.MOVE and game.movements:
            return script
        if game.phase is Phase.ROLL:
            assert game.turn is not None
            d = rng.randint(1, 6)
            dice = (d, d) if rng.random() < 0.5 else (d, rng.randint(1, 6))
            match.apply(ge.Roll(game.turn, dice))
            script.append((dice, 0))
        else:
            assert game.turn is not None
            choice = rng.randrange(len(game.plays))
            match.apply(ge.Move.of(game.turn, game.plays[choice]))
            script.append((None, choice))
    raise AssertionError("no left-over movements in this game")


def test_extra_throws_and_left_over_movements_reach_the_board(site: Site) -> None:
    table = site.match
    table.loop.call(cmd.NewMatch("gulbar", 0, MatchSettings(opening="white_first")))
    extra_throws = 0
    for dice, choice in script_to_left_over_movements():
        if dice is not None:
            table.roll(dice)
            continue
        mover = site.state()["turn"]
        was_double = len(set(site.state()["dice"])) == 1
        table.play(choice)
        after = site.state()
        if was_double and after["turn"] == mover and after["phase"] == "rolling":
            extra_throws += 1
    assert extra_throws >= 1
    state = site.state()
    assert state["phase"] == "moving" and state["movements"] and state["dice"] == []
    referee = table.loop.referee
    assert referee.phase is Phase.MOVE and referee.position.turn.label == state["turn"]
    left = tuple(state["movements"])
    table.play(0)  # the opponent plays what was left, on the board
    done = site.state()
    assert done["moves"][-1]["dice"] == list(left)
    assert done["phase"] == "rolling"
    assert not any(a["kind"] == "illegal_move" for a in done["alerts"])
