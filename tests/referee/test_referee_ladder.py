"""The referee on a ladder of doubles too big to list (crazy long nardy, 1-1 from a spread
position): the roll starts at once and the played board is judged by aimed inference."""

from __future__ import annotations

import time

from nardy_pi.referee import Referee
from nardy_pi.referee import events as ev
from nardy_pi.rules.notation.xgid import parse_position
from nardy_pi.rules.variants import get_variant
from tests.referee.table import Table, die
from tests.rules.long.test_ladder_bounds import SPREAD, _random_ladder_play


def test_a_huge_ladder_roll_is_refereed_without_listing_its_plays() -> None:
    v = get_variant("crazy-long")
    position, _ = parse_position(SPREAD, v)
    referee = Referee("crazy-long")
    started = time.process_time()
    referee.correct(position, (1, 1))
    table = Table(referee, position, dice=(die(1), die(1)))
    table.frames()
    table.position = _random_ladder_play(position, (1, 1)).with_turn(position.turn)
    table.frames()
    table.pick_up_dice()
    took = time.process_time() - started
    print(f"\ncrazy-long 1-1 from a spread position refereed in {took:.2f} s CPU")
    played = [e for e in table.events if isinstance(e, ev.MovePlayed)]
    assert len(played) == 1
    assert played[0].play is not None and len(played[0].play.steps) == 12


def test_left_over_movements_too_many_to_list_are_followed_and_booked() -> None:
    from nardy_pi.game.state import Phase
    from tests.game.test_engine_ladder import LEFT
    from tests.rules.long.util import random_ladder_play

    v = get_variant("mad-gulbar")
    position, _ = parse_position(SPREAD, v)
    referee = Referee("mad-gulbar")
    referee.follow(1, Phase.MOVE, position, LEFT, None, movements=True)  # the engine: None
    table = Table(referee, position)
    table.frames()
    table.position = random_ladder_play(position, LEFT, "mad-gulbar", seed=5).with_turn(
        position.turn)
    table.frames()
    if not any(isinstance(e, ev.MovePlayed) for e in table.events):
        table.events += referee.confirm(table.now)  # the confirm button ends left-overs
    played = [e for e in table.events if isinstance(e, ev.MovePlayed)]
    assert len(played) == 1 and played[0].play is not None
    assert len(played[0].play.steps) == len(LEFT)
