"""A match writer to be killed: appends random legal events forever, acknowledging each.

`write_forever` continues the newest match in the database (or starts one; a new one after
`per_match` events) and, after each `RecordedMatch.apply` has returned (the event is
durable), writes "match_id seq json" to the acknowledgement pipe. Used by the crash test and
by bench/bench_engine.py.
"""

from __future__ import annotations

import os
import random

from nardy_pi.game.errors import IllegalEventError
from nardy_pi.game.events import (
    Double,
    GameEvent,
    MatchStarted,
    Move,
    OpeningRoll,
    Pass,
    Roll,
    Take,
    event_to_json,
)
from nardy_pi.game.state import MatchState, Phase
from nardy_pi.store.eventlog import EventStore
from nardy_pi.store.recorded import RecordedMatch


def next_event(state: MatchState, rng: random.Random) -> GameEvent:
    game = state.game
    die = lambda: rng.randint(1, 6)  # noqa: E731
    if game.phase is Phase.OPENING:
        return OpeningRoll(die(), die())
    side = game.turn
    assert side is not None
    if game.phase is Phase.ROLL:
        if rng.random() < 0.1:
            return Double(side)
        return Roll(side, (die(), die()))
    if game.phase is Phase.MOVE:
        return Move.of(side, rng.choice(game.plays))
    assert game.cube.offered_by is not None
    answerer = game.cube.offered_by.opponent
    return Take(answerer) if rng.random() < 0.8 else Pass(answerer)


def write_forever(path: str, ack_fd: int, seed: int, per_match: int = 60) -> None:
    rng = random.Random(seed)
    with EventStore(path) as store, os.fdopen(ack_fd, "w", buffering=1) as ack:
        ids = store.match_ids()
        if ids and len(store.events(ids[-1])) < per_match:
            match = RecordedMatch.load(store, ids[-1])
        else:
            match = RecordedMatch.create(store, MatchStarted("backgammon", 0))
            ack.write(f"{match.match_id} 1 {event_to_json(match_start(store, match))}\n")
        seq = len(store.events(match.match_id))
        while True:
            event = next_event(match.state, rng)
            try:
                match.apply(event)
            except IllegalEventError:
                continue  # e.g. a double the cube does not allow: draw another
            seq += 1
            ack.write(f"{match.match_id} {seq} {event_to_json(event)}\n")
            if seq >= per_match:
                match = RecordedMatch.create(store, MatchStarted("backgammon", 0))
                seq = 1
                ack.write(f"{match.match_id} 1 {event_to_json(match_start(store, match))}\n")


def match_start(store: EventStore, match: RecordedMatch) -> GameEvent:
    return store.events(match.match_id)[0]
