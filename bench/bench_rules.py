"""Rules-core benchmark: legal-play generation and move inference against gnubg-nn and OpenSpiel.

Run on demand from the repository root (needs the test extras: gnubg-nn, open-spiel):

    python3 bench/bench_rules.py                 # everything, default sizes
    python3 bench/bench_rules.py --pairs 20000 --profile

Figures (printed, never asserted; times are best-of-n CPU times of this process):
- pairs/s: (position, roll) pairs for which the whole set of legal plays was generated, per
  second. results/s: resulting positions (distinct boards after the turn) produced per second.
- gnubg-nn and OpenSpiel are timed on exactly the positions we time ourselves on; the ratio
  says how many times faster the reference is (>1 = the reference is faster).
- Worst-case doubles: positions found by hill-climbing for the most distinct plays of each
  double (gnubg counts guide the climb), plus the heaviest doubles seen in the sampled games.
Issue targets: generation >= 20,000 positions/s, worst-case doubles inference < 5 ms.
"""

from __future__ import annotations

import argparse
import collections
import cProfile
import pstats
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the repository root: nardy_pi and tests.rules.reference

import gnubg_nn  # noqa: E402

from nardy_pi.rules.movegen import Relax, legal_plays  # noqa: E402
from nardy_pi.rules.play import Play  # noqa: E402
from nardy_pi.rules.position import Position, problems  # noqa: E402
from nardy_pi.rules.sides import Side  # noqa: E402
from nardy_pi.rules.variants import get_variant  # noqa: E402
from tests.rules.reference.compare import (  # noqa: E402
    board_key,
    compare,
    outcome_tags,
    tags,
)
from tests.rules.reference.gnubg_ref import gnubg_results, to_gnubg  # noqa: E402
from tests.rules.reference.openspiel_ref import Decision, most_dice, random_decisions  # noqa: E402
from tests.rules.reference.random_positions import random_pairs  # noqa: E402
from tests.rules.reference.selfplay import self_play  # noqa: E402

Pair = tuple[Position, tuple[int, int]]
BG = "backgammon"


def best_time(fn: Callable[[], object], repeat: int = 3) -> float:
    """Best CPU time of this process over `repeat` runs.

    CPU time, not wall time: the development machine is shared, and on an idle board (the
    Pi) the two agree. The best run is the one least disturbed by cache-sharing neighbours.
    """
    times = []
    for _ in range(repeat):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return min(times)


def rate(count: float, seconds: float) -> str:
    return f"{count / seconds:>11,.0f}/s" if seconds > 0 else "inf"


# --- inputs ---------------------------------------------------------------------------------


def sample_pairs(seed: int, count: int) -> list[Pair]:
    """Backgammon pairs: two thirds from self-play, one third aimed at closed boards/bear-offs."""
    games = list(self_play(BG, seed, count - count // 3))
    return games + list(random_pairs(seed + 1, count // 3, BG))


def print_mix(title: str, pairs: Sequence[Pair], variant: str = BG) -> None:
    seen: collections.Counter[str] = collections.Counter()
    for position, dice in pairs:
        seen.update(tags(position, dice, variant) | outcome_tags(position, dice, variant))
    parts = ", ".join(f"{k} {v} ({100 * v / len(pairs):.1f}%)" for k, v in sorted(seen.items()))
    print(f"  {title}: {len(pairs)} pairs; {parts}")


# --- correctness at bench size ----------------------------------------------------------------


def differential(pairs: Sequence[Pair], decisions: Sequence[Decision]) -> None:
    print("\n== Differential check (bench size) ==")
    bad = []
    for pos, dice in pairs:
        if m := compare("gnubg", BG, pos, dice, gnubg_results(pos, dice, BG)):
            bad.append(m)
    print(f"  gnubg:     {len(pairs)} pairs compared, {len(bad)} mismatches")
    for m in bad[:3]:
        print(m.report())
    bad = []
    half_turn_gaps = 0
    for d in decisions:
        theirs = most_dice(d.results)
        half_turn_gaps += theirs != frozenset(d.results)
        if m := compare("openspiel", BG, d.position, d.dice, theirs):
            bad.append(m)
    print(f"  openspiel: {len(decisions)} turns compared, {len(bad)} mismatches; "
          f"{half_turn_gaps} doubles where OpenSpiel alone would also allow fewer dice")
    for m in bad[:3]:
        print(m.report())


# --- generation speed -------------------------------------------------------------------------


def time_ours(pairs: Sequence[Pair], variant: str = BG) -> tuple[float, int]:
    results = sum(len(legal_plays(pos, dice, variant)) for pos, dice in pairs)
    seconds = best_time(lambda: [legal_plays(pos, dice, variant) for pos, dice in pairs])
    return seconds, results


def time_gnubg(pairs: Sequence[Pair]) -> tuple[float, int]:
    boards = [(to_gnubg(pos, BG), dice) for pos, dice in pairs]
    results = sum(len(gnubg_nn.moves(b, d[0], d[1])) for b, d in boards)
    seconds = best_time(lambda: [gnubg_nn.moves(b, d[0], d[1]) for b, d in boards])
    return seconds, results


def openspiel_full_turns(decision: Decision) -> int:
    """OpenSpiel's own work for a whole turn: both decisions of a double, child states built."""
    state = decision.state
    player = state.current_player()
    leaves = 0
    for action in state.legal_actions():
        child = state.child(action)
        if not child.is_terminal() and child.current_player() == player:
            for second in child.legal_actions():
                child.child(second)
                leaves += 1
        else:
            leaves += 1
    return leaves


def print_speed_row(
    name: str, seconds: float, pairs: int, results: int, ours: float | None = None
) -> None:
    """One timing line; `ours` (our time on the same pairs) adds the reference's speed-up."""
    ratio = "" if ours is None else f"  ratio {ours / seconds:6.1f}x"
    print(f"  {name:<26}{rate(pairs, seconds)} pairs {rate(results, seconds)} results"
          f"  ({seconds * 1e3:8.1f} ms){ratio}")


def generation_speed(pairs: Sequence[Pair], decisions: Sequence[Decision]) -> None:
    print("\n== Generation speed, backgammon ==")
    print(f"  self-play + aimed positions ({len(pairs)} pairs):")
    ours, n_ours = time_ours(pairs)
    print_speed_row("ours", ours, len(pairs), n_ours)
    gnubg, n_gnubg = time_gnubg(pairs)
    print_speed_row("gnubg-nn moves()", gnubg, len(pairs), n_gnubg, ours)

    os_pairs = [(d.position, d.dice) for d in decisions]
    print(f"  OpenSpiel game positions ({len(decisions)} turns):")
    ours, n_ours = time_ours(os_pairs)
    print_speed_row("ours", ours, len(os_pairs), n_ours)
    gnubg, n_gnubg = time_gnubg(os_pairs)
    print_speed_row("gnubg-nn moves()", gnubg, len(os_pairs), n_gnubg, ours)
    half = best_time(lambda: [d.state.legal_actions() for d in decisions])
    n_half = sum(len(d.state.legal_actions()) for d in decisions)
    print_speed_row("openspiel legal_actions", half, len(decisions), n_half, ours)
    full = best_time(lambda: [openspiel_full_turns(d) for d in decisions])
    n_full = sum(len(most_dice(d.results)) for d in decisions)
    print_speed_row("openspiel full turns", full, len(decisions), n_full, ours)
    print("  (OpenSpiel legal_actions covers half a double and counts actions, not boards;")
    print("   'full turns' also builds the child states of both halves.)")


# --- worst-case doubles -----------------------------------------------------------------------


def _spread_position(own: list[int]) -> Position:
    """White (own numbering = physical) with `own`; black stacked on white's 1 and 2 points."""
    opp = [0] * 26
    opp[1], opp[2] = 8, 7
    v = get_variant(BG)
    return Position.from_view(v, Side.WHITE, own, opp).with_turn(Side.WHITE)


def hardest_doubles(seed: int, steps: int) -> list[tuple[int, Position, int]]:
    """For each double, hill-climb a layout towards the most distinct plays (gnubg counts)."""
    rng = random.Random(seed)
    found = []
    for die in range(1, 7):
        own = [0] * 26
        for _ in range(15):
            own[rng.randint(3, 24)] += 1
        count = len(gnubg_nn.moves(to_gnubg(_spread_position(own), BG), die, die))
        for _ in range(steps):
            src = rng.choice([p for p in range(3, 25) if own[p]])
            dst = rng.randint(3, 24)
            own[src] -= 1
            own[dst] += 1
            tried = len(gnubg_nn.moves(to_gnubg(_spread_position(own), BG), die, die))
            if tried >= count:
                count = tried
            else:
                own[src] += 1
                own[dst] -= 1
        found.append((die, _spread_position(own), count))
    return found


def nudged(after: Position, mover: Side) -> Position | None:
    """`after` with one of the mover's checkers one pip further: an illegal observation."""
    v = get_variant(BG)
    own, opp = after.view(v, mover)
    for p in range(24, 1, -1):
        if own[p] and not opp[p - 1]:
            own[p] -= 1
            own[p - 1] += 1
            return Position.from_view(v, mover, own, opp)
    return None


def _inference_timer() -> tuple[str, Callable[[Position, tuple[int, int], Position], object]]:
    try:
        from nardy_pi.rules.inference import infer
    except ImportError:
        def match_only(before: Position, dice: tuple[int, int], after: Position) -> object:
            key = board_key(after)
            return next((p for p in legal_plays(before, dice, BG)
                         if board_key(p.result) == key), None)
        return "legal_plays + key match (inference.py missing)", match_only
    return "infer()", lambda before, dice, after: infer(before, dice, after, BG)


def over_a_block(before: Position, dice: tuple[int, int]) -> Position | None:
    """A board only reachable by jumping a closed point: an illegal observation.

    Plays that *land* on a closed point are skipped: two colours on one point is no board.
    """
    legal = {board_key(p.result) for p in legal_plays(before, dice, BG)}
    for play in legal_plays(before, dice, BG, relax=Relax(blocks=True)):
        if board_key(play.result) not in legal and not problems(play.result, BG):
            return play.result
    return None


OBSERVATIONS = ("legal", "one pip off", "over a block")


def observations(before: Position, dice: tuple[int, int], play: Play) -> dict[str, Position | None]:
    """What a camera might report after `before`: the play's result and two illegal boards."""
    return {
        "legal": play.result,
        "one pip off": nudged(play.result, before.turn),
        "over a block": over_a_block(before, dice),
    }


def inference_speed(pairs: Sequence[Pair], seed: int, count: int) -> None:
    """Per-call inference time over sampled pairs, for each kind of observation."""
    label, run_inference = _inference_timer()
    print(f"\n== Inference on sampled pairs (inference = {label}) ==")
    rng = random.Random(seed)
    timings: dict[tuple[str, bool], list[float]] = collections.defaultdict(list)
    for pos, dice in pairs[:count]:
        plays = legal_plays(pos, dice, BG)
        if not plays:
            continue
        for kind, seen in observations(pos, dice, rng.choice(plays)).items():
            if seen is not None:
                start = time.process_time()
                run_inference(pos, dice, seen)
                timings[kind, dice[0] == dice[1]].append(time.process_time() - start)
    for kind in OBSERVATIONS:
        for doubles in (False, True):
            times = sorted(timings[kind, doubles])
            if not times:
                continue
            p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
            print(f"  {kind:<13}{'doubles' if doubles else 'non-doubles':<12}{len(times):>6} calls"
                  f"  mean {1e3 * sum(times) / len(times):7.2f} ms  p99 {1e3 * p99:7.2f} ms"
                  f"  max {1e3 * times[-1]:7.2f} ms")


def worst_doubles(seed: int, steps: int, pairs: Sequence[Pair]) -> None:
    label, run_inference = _inference_timer()
    print(f"\n== Worst-case doubles (inference = {label}) ==")
    cases = [(f"climbed {d}-{d}", pos, (d, d)) for d, pos, _ in hardest_doubles(seed, steps)]
    doubles = [(pos, dice) for pos, dice in pairs if dice[0] == dice[1]]
    heaviest = sorted(doubles, key=lambda pd: len(legal_plays(*pd, BG)), reverse=True)[:2]
    cases += [(f"sampled {dice[0]}-{dice[1]}", pos, dice) for pos, dice in heaviest]
    infer_heads = "".join(f"{'infer ' + k:>20}" for k in OBSERVATIONS)
    print(f"  {'case':<14}{'plays':>6}{'gnubg':>7}{'ours gen':>11}{'gnubg gen':>11}{infer_heads}")
    for name, pos, dice in cases:
        plays = legal_plays(pos, dice, BG)
        gen = best_time(lambda pos=pos, dice=dice: legal_plays(pos, dice, BG), 5)
        board = to_gnubg(pos, BG)
        n_gnubg = len(gnubg_nn.moves(board, *dice))
        ref = best_time(lambda board=board, dice=dice: gnubg_nn.moves(board, *dice), 5)
        cells = []
        for seen in observations(pos, dice, plays[len(plays) // 2]).values():
            if seen is None:
                cells.append(f"{'-':>20}")
                continue
            t = best_time(lambda pos=pos, dice=dice, seen=seen: run_inference(pos, dice, seen))
            cells.append(f"{t * 1e3:>18.2f}ms")
        print(f"  {name:<14}{len(plays):>6}{n_gnubg:>7}{gen * 1e3:>9.2f}ms{ref * 1e3:>9.2f}ms"
              + "".join(cells))


# --- long nardy -------------------------------------------------------------------------------


def long_nardy_speed(seed: int, count: int) -> None:
    """Generation speed for long nardy on random self-play (no reference to compare with)."""
    print("\n== Long nardy generation ==")
    pairs = list(self_play("long", seed, count, greed=0.0))
    seconds, results = time_ours(pairs, "long")
    print_speed_row("ours (long)", seconds, len(pairs), results)
    doubles = [(pos, dice) for pos, dice in pairs if dice[0] == dice[1]]
    if doubles:
        worst = max(best_time(lambda pd=pd: legal_plays(*pd, "long"), 1) for pd in doubles)
        print(f"  slowest doubles pair among {len(doubles)}: {worst * 1e3:.2f} ms")


# --- profile ----------------------------------------------------------------------------------


def profile_generation(pairs: Sequence[Pair]) -> None:
    print("\n== cProfile of legal_plays over the sampled pairs (top 15 by own time) ==")
    profiler = cProfile.Profile()
    profiler.enable()
    for pos, dice in pairs:
        legal_plays(pos, dice, BG)
    profiler.disable()
    pstats.Stats(profiler, stream=sys.stdout).sort_stats("tottime").print_stats(15)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=12000, help="backgammon pairs to time")
    parser.add_argument("--turns", type=int, default=4000, help="OpenSpiel turns")
    parser.add_argument("--long-pairs", type=int, default=4000, help="long nardy pairs")
    parser.add_argument("--climb", type=int, default=1500, help="hill-climb steps per double")
    parser.add_argument("--infer", type=int, default=3000, help="pairs to time inference on")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--profile", action="store_true", help="print a cProfile of generation")
    args = parser.parse_args(argv)

    print("== Inputs ==")
    pairs = sample_pairs(args.seed, args.pairs)
    decisions = list(random_decisions(args.seed, args.turns))
    print_mix("self-play + aimed positions", pairs)
    print_mix("OpenSpiel games", [(d.position, d.dice) for d in decisions])
    differential(pairs, decisions)
    generation_speed(pairs, decisions)
    inference_speed(pairs, args.seed, args.infer)
    worst_doubles(args.seed, args.climb, pairs)
    long_nardy_speed(args.seed, args.long_pairs)
    if args.profile:
        profile_generation(pairs)


if __name__ == "__main__":
    main()
