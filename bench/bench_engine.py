"""Engine and storage figures: events/s appended and replayed, replay time of a 25-point
match, a huge ladder of doubles in the live engine (crazy long nardy, 1-1 from a spread
position) against the old path that listed every play first (--no-unbounded skips that
16 s run), and (with --crash-rounds N) a long SIGKILL run of the crash-safety check.

    python3 bench/bench_engine.py [--events 600] [--crash-rounds 0] [--no-unbounded]

Prints measured figures only; nothing here is asserted.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from nardy_pi.game.engine import apply, replay, start_match
from nardy_pi.game.errors import IllegalEventError
from nardy_pi.game.events import GameEvent, MatchStarted
from nardy_pi.records.mat_replay import replay_record
from nardy_pi.records.mat_text import parse_mat
from nardy_pi.rules.position import Position
from nardy_pi.store.eventlog import EventStore
from tests.store.crash_writer import next_event


def random_session(count: int, seed: int = 1) -> list[GameEvent]:
    rng = random.Random(seed)
    start = MatchStarted("backgammon", 0)
    state = start_match(start)
    events: list[GameEvent] = [start]
    while len(events) < count:
        event = next_event(state, rng)
        try:
            state = apply(state, event)
        except IllegalEventError:
            continue
        events.append(event)
    return events


def bench_store(events: list[GameEvent]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        with EventStore(db) as store:
            t0 = time.perf_counter()
            match_id = store.create_match(events[0])  # type: ignore[arg-type]
            for event in events[1:]:
                store.append(match_id, event)
            appended = time.perf_counter() - t0
        t0 = time.perf_counter()
        with EventStore(db) as store:
            loaded = store.events(match_id)
        read = time.perf_counter() - t0
        t0 = time.perf_counter()
        replay(loaded)
        replayed = time.perf_counter() - t0
    n = len(events)
    print(f"append (WAL, synchronous=FULL, 1 transaction/event): {n / appended:8.0f} events/s "
          f"({appended / n * 1000:.2f} ms/event, {n} events)")  # fmt: skip
    print(f"read back from SQLite:                              {n / read:8.0f} events/s")
    print(f"replay (full legality checking):                    {n / replayed:8.0f} events/s")


def bench_25_point_match() -> None:
    try:
        from tests.records.gnubg_selfplay import play_match
    except ImportError:
        print("25-point match: gnubg-nn not installed, skipped")
        return
    t0 = time.perf_counter()
    played = play_match(25, seed=25)
    generated = time.perf_counter() - t0
    t0 = time.perf_counter()
    record = parse_mat(played.text)
    parsed = time.perf_counter() - t0
    t0 = time.perf_counter()
    result = replay_record(record)
    replayed = time.perf_counter() - t0
    lines = played.text.count("\n")
    final = f"{result.state.score[0]}-{result.state.score[1]}"
    print(f"25-point match (gnubg self-play, {len(played.games)} games, {lines} lines, "
          f"{len(result.events)} events, final {final}):")  # fmt: skip
    print(f"  parse .mat {parsed * 1000:.1f} ms, replay {replayed * 1000:.0f} ms "
          f"(generation by gnubg took {generated:.1f} s)")  # fmt: skip


def bench_huge_ladder(unbounded: bool) -> None:
    """The engine's roll and move on 1-1 from SPREAD: CPU seconds now, and the old way."""
    from nardy_pi.game.events import Correct, Move
    from nardy_pi.rules.movegen import legal_plays
    from nardy_pi.rules.notation.xgid import parse_position
    from nardy_pi.rules.variants import get_variant
    from tests.rules.long.test_ladder_bounds import SPREAD, _random_ladder_play

    v = get_variant("crazy-long")
    position, _ = parse_position(SPREAD, v)
    after = _random_ladder_play(position, (1, 1))
    own, opp = position.view(v)
    own[23] -= 1
    own[22] += 1
    short = Position.from_view(v, position.turn, own, opp)
    t0 = time.process_time()
    state = apply(start_match(MatchStarted("crazy-long", 0)), Correct.of(position, (1, 1)))
    rolled = time.process_time() - t0
    t0 = time.process_time()
    try:
        apply(state, Move(position.turn, short.points, short.bar, short.off))
        verdict = "ACCEPTED (wrong)"
    except IllegalEventError:
        verdict = "refused"
    refused = time.process_time() - t0
    t0 = time.process_time()
    apply(state, Move(position.turn, after.points, after.bar, after.off))
    taken = time.process_time() - t0
    print(f"crazy-long 1-1 from a spread position, engine: throw {rolled:.3f} s CPU (plays "
          f"not listed), illegal move {verdict} {refused:.3f} s, legal move taken {taken:.3f} s")
    if unbounded:
        t0 = time.process_time()
        n = len(legal_plays(position, (1, 1), v))
        print(f"  the old throw listed all {n:,} plays first: {time.process_time() - t0:.1f} s CPU")


def bench_crash(rounds: int) -> None:
    from tests.store import test_crash_safety as crash

    crash.ROUNDS = rounds
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        crash.test_sigkill_at_random_moments_loses_no_acknowledged_event(Path(tmp))
        took = time.perf_counter() - t0
    print(f"crash safety: {rounds} SIGKILL rounds, no acknowledged event lost ({took:.1f} s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--events", type=int, default=600)
    parser.add_argument("--crash-rounds", type=int, default=0)
    parser.add_argument("--no-unbounded", action="store_true")
    args = parser.parse_args()
    bench_store(random_session(args.events))
    bench_25_point_match()
    bench_huge_ladder(not args.no_unbounded)
    if args.crash_rounds:
        bench_crash(args.crash_rounds)


if __name__ == "__main__":
    main()
