"""Move inference: which legal play turned `before` into the observed `after`, or why none did.

The camera sees positions, not moves. Given the position before, the roll and the position
after, `infer` returns the legal play that produces it; when no legal play does, it returns a
short structured `Diagnosis` naming the broken rule. Rules are named by switching them off one
at a time (`Relax`) and seeing which single relaxation explains the observation.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from itertools import combinations
from typing import Any

from nardy_pi.rules.errors import TooManyPlaysError
from nardy_pi.rules.long_rules import (
    head_allowance,
    illegal_six_block,
    is_ladder,
    movement_sequence,
)
from nardy_pi.rules.messages import Lang, render
from nardy_pi.rules.movegen import (
    STRICT,
    Relax,
    full_play_exists,
    full_play_reaching,
    legal_plays,
    parse_dice,
    play_among,
    reaches_relaxed,
)
from nardy_pi.rules.play import Play, Step, format_steps, point_name
from nardy_pi.rules.position import BAR, OFF, Position
from nardy_pi.rules.settings import DEFAULT_SETTINGS, RuleSettings
from nardy_pi.rules.sides import Side
from nardy_pi.rules.variants import Variant, get_variant

#: the most distinct plays inference lists when it must (a few milliseconds' work each 1,000)
INFERENCE_PLAY_LIMIT = 20_000


@dataclass(frozen=True, slots=True)
class Diagnosis:
    """Why an observed change is not a legal play. `code` keys the ru/en message."""

    code: str
    params: dict[str, Any] = field(default_factory=dict)

    def message(self, lang: Lang = "en") -> str:
        return render(self.code, self.params, lang)

    def __str__(self) -> str:
        return self.message("en")


@dataclass(frozen=True, slots=True)
class Inference:
    """The outcome: the legal play (or a legal pass), or a diagnosis."""

    play: Play | None = None
    passed: bool = False  # no legal play existed and nothing moved
    diagnosis: Diagnosis | None = None
    #: other ways to write the same play (the same play for the game)
    equivalents: tuple[str, ...] = ()

    @property
    def legal(self) -> bool:
        return self.diagnosis is None

    @property
    def ambiguous(self) -> bool:
        return len(self.equivalents) > 1


def board_key(position: Position) -> tuple[int, ...]:
    """What a camera can see: points, bar and off, not whose turn it is."""
    return (*position.points, *position.bar, *position.off)


def _dice_text(roll: tuple[int, int]) -> str:
    return f"{roll[0]}-{roll[1]}"


def _step_text(step: Step) -> str:
    return f"{point_name(step.src)}/{point_name(step.dst)}" + ("*" if step.hit else "")


def _closed_point_diagnosis(
    play: Play, before: Position, v: Variant
) -> Diagnosis:
    """Find the step of `play` that used a closed point, replaying it on `before`."""
    mover = before.turn
    own, opp = before.view(v, mover)
    steps = play.steps
    for i, step in enumerate(steps):
        if step.dst != OFF and opp[step.dst] >= v.block:
            holder = mover.opponent.label
            continues = any(
                later.src == step.dst for later in steps[i + 1 :]
            ) and own[step.dst] == 0
            if continues:
                last = next(s for s in steps[i + 1 :] if s.src == step.dst)
                text = f"{point_name(step.src)}/{point_name(last.dst)}"
                return Diagnosis(
                    "passed_closed_point", {"step": text, "point": step.dst, "holder": holder}
                )
            return Diagnosis("landed_on_closed_point", {"step": _step_text(step), "holder": holder})
        own[step.src] -= 1
        own[step.dst] += 1
        if step.hit:
            opp[step.dst] -= 1
            opp[BAR] += 1
    return Diagnosis("no_legal_play", {"dice": format_steps(steps)})


def _hit_and_hide_diagnosis(play: Play) -> Diagnosis:
    hits = [s for s in play.steps if s.hit]
    point = hits[0].dst if hits else 0
    later = [s for s in play.steps if s.src == point]
    step = _step_text(later[-1]) if later else play.notation
    if later and later[-1].dst == OFF:
        return Diagnosis("hitter_borne_off", {"step": step, "point": point})
    return Diagnosis("hit_and_hide", {"step": step, "point": point})


def _unused_dice_diagnosis(play: Play, c: _Context) -> Diagnosis:
    roll = c.roll
    full = list(movement_sequence(c.variant, roll, c.settings))
    for die in play.dice_used:
        full.remove(die)
    dice = _dice_text(roll)
    if roll[0] != roll[1] and len(play.steps) == 1 and play.steps[0].die == min(roll):
        return Diagnosis("smaller_die", {"dice": dice, "larger": max(roll)})
    return Diagnosis("die_unused", {"dice": dice, "unused": "-".join(map(str, full))})


def _head_diagnosis(play: Play, c: _Context) -> Diagnosis:
    v = c.variant
    count = sum(1 for s in play.steps if s.src == v.head)
    allowed = max(head_allowance(v, c.own_before, c.roll, c.settings))
    return Diagnosis("two_from_head", {"count": count, "allowed": allowed})


def _six_block_diagnosis(play: Play, c: _Context) -> Diagnosis:
    block = illegal_six_block(play.result, c.variant, c.before.turn, c.settings)
    points = block.own_points if block is not None else ()
    return Diagnosis("six_block", {"points": "-".join(map(str, points))})


def _opponent_changes(
    before: Position, after: Position, v: Variant
) -> tuple[list[int], bool]:
    """Points where the opponent's checkers changed other than by being hit (own numbering)."""
    mover = before.turn
    _, opp_b = before.view(v, mover)
    _, opp_a = after.view(v, mover)
    changed = [p for p in range(1, 25) if opp_a[p] != opp_b[p]]
    hits = [p for p in changed if opp_b[p] == 1 and opp_a[p] == 0]
    explained = (
        len(hits) == len(changed)
        and opp_a[BAR] - opp_b[BAR] == len(hits)
        and opp_a[OFF] == opp_b[OFF]
    )
    return changed, explained


def _diagnose(
    before: Position,
    roll: tuple[int, int],
    after: Position,
    v: Variant,
    settings: RuleSettings,
    plays: list[Play] | None,
) -> Diagnosis:
    """Why `after` is not legal. `plays` (every legal play) may be None when not at hand:
    messages then quote the whole roll's pips."""
    mover = before.turn
    for side in Side:
        if before.count(side) != after.count(side):
            return Diagnosis(
                "checker_count",
                {"side": side.label, "before": before.count(side), "after": after.count(side)},
            )
    own_b, _ = before.view(v, mover)
    own_a, _ = after.view(v, mover)
    changed, explained = _opponent_changes(before, after, v)
    if own_a == own_b:
        if not changed:
            return Diagnosis("no_move", {"dice": _dice_text(roll)})
        return Diagnosis("wrong_side", {"side": mover.opponent.label, "mover": mover.label})
    if not explained:
        physical = [v.own_to_physical(mover is Side.WHITE, p) for p in changed]
        return Diagnosis(
            "opponent_disturbed", {"side": mover.opponent.label, "points": sorted(physical)}
        )
    # Every rule below keeps each step exactly one die long (bearing off aside), so a pip
    # count no set of the roll's movements adds up to is a wrong distance: say so at once
    # instead of searching the relaxed rules.
    moved = before.pip_count(v, mover) - after.pip_count(v, mover)
    if plays is None:
        totals = [sum(movement_sequence(v, roll, settings))]
    else:
        totals = sorted({sum(p.dice_used) for p in plays}) if plays else [0]
    bearing_off = own_a[OFF] > own_b[OFF]
    if not bearing_off and moved not in _movement_sums(movement_sequence(v, roll, settings)):
        return _wrong_distance(moved, roll, totals)
    context = _Context(before, roll, v, settings, own_b)
    # Every step allowed, yet not a legal play: a forced-move rule was broken.
    steps_ok = reaches_relaxed(before, roll, v, after, settings, STRICT)
    if steps_ok is not None:
        return _forced_move_diagnosis(steps_ok, context)
    # One rule at a time: the first relaxation that explains the observation names the rule.
    for flag in _RELAXATION_ORDER:
        play = reaches_relaxed(before, roll, v, after, settings, Relax(**{flag: True}))
        if play is not None:
            explain = _EXPLAIN.get(flag)
            if explain is None:
                return Diagnosis(flag, {"dice": _dice_text(roll), "play": play.notation})
            return explain(play, context)
    if not bearing_off and moved not in totals:
        return _wrong_distance(moved, roll, totals)
    return Diagnosis("no_legal_play", {"dice": _dice_text(roll)})


def _movement_sums(moves: tuple[int, ...]) -> set[int]:
    return {sum(c) for n in range(1, len(moves) + 1) for c in combinations(moves, n)}


def _wrong_distance(moved: int, roll: tuple[int, int], totals: list[int]) -> Diagnosis:
    allowed = "/".join(map(str, totals))
    params = {"moved": moved, "dice": _dice_text(roll), "allowed": allowed}
    return Diagnosis("wrong_distance", params)


@dataclass(frozen=True, slots=True)
class _Context:
    before: Position
    roll: tuple[int, int]
    variant: Variant
    settings: RuleSettings
    own_before: list[int]


# How to explain a play that is legal once one rule is switched off (Relax field -> builder).
_EXPLAIN: dict[str, Callable[[Play, _Context], Diagnosis]] = {
    "bar_first": lambda play, c: Diagnosis("bar_not_entered", {}),
    "blocks": lambda play, c: _closed_point_diagnosis(play, c.before, c.variant),
    "hit_and_hide": lambda play, c: _hit_and_hide_diagnosis(play),
    "head": _head_diagnosis,
    "six_block": _six_block_diagnosis,
    "gulbar_home": lambda play, c: Diagnosis("gulbar_home", {"play": play.notation}),
    "max_dice": _unused_dice_diagnosis,
}

# Rules about single steps first; a play stopped early (max_dice) last. The other forced-move
# rules (die order, the Caucasian bear-off) are told apart by `_forced_move_diagnosis` once
# every step is allowed.
_RELAXATION_ORDER = (
    *(f.name for f in fields(Relax) if f.name not in ("max_dice", "die_order")),
    "max_dice",
)


def _forced_move_diagnosis(play: Play, c: _Context) -> Diagnosis:
    """Which rule of §1.5 a play made only of allowed steps broke."""
    full = len(movement_sequence(c.variant, c.roll, c.settings))
    if len(play.steps) < full:
        return _unused_dice_diagnosis(play, c)
    hits = {s.dst for s in play.steps if s.hit}
    if c.variant.no_hit_and_hide and any(
        s.dst == OFF and s.src in hits for s in play.steps
    ):
        return _hit_and_hide_diagnosis(play)
    if c.settings.higher_die_first:
        return Diagnosis("die_order", {"play": play.notation})
    return _unused_dice_diagnosis(play, c)


def infer(
    before: Position,
    dice: tuple[int, int] | list[int] | str,
    after: Position,
    variant: str | Variant,
    settings: RuleSettings = DEFAULT_SETTINGS,
) -> Inference:
    """Infer the play from `before` (with the side to move) and the observed `after`.

    `after`'s turn is ignored: a camera cannot see it.
    """
    v = get_variant(variant)
    roll = parse_dice(dice)
    moved = board_key(before) != board_key(after)
    if moved:
        play, equivalents = full_play_reaching(before, roll, v, after, settings)
        if play is not None:
            return Inference(play=play, equivalents=equivalents)
    if moved and not _may_be_a_rare_legal_play(before, roll, after, v, settings):
        # Not legal, and telling why needs no list of every legal play (which for a big
        # doubles tree costs more than everything else here).
        return Inference(diagnosis=_diagnose(before, roll, after, v, settings, None))
    if is_ladder(v, roll) and full_play_exists(before, roll, v, settings):
        # A ladder of doubles (up to twelve movements, hundreds of thousands of plays): when
        # the whole ladder can be played, every legal play plays it, and the aimed search
        # above has already said whether one reaches `after`.
        return Inference(diagnosis=_diagnose(before, roll, after, v, settings, None))
    try:
        plays = legal_plays(before, roll, v, settings, limit=INFERENCE_PLAY_LIMIT)
    except TooManyPlaysError:
        # Only a ladder that cannot be played in full gets here, and such trees are small;
        # should one not be, the referee still answers at once rather than wait.
        return Inference(diagnosis=_diagnose(before, roll, after, v, settings, None))
    if moved:
        play, equivalents = play_among(plays, before, roll, v, after, settings)
        if play is not None:
            return Inference(play=play, equivalents=equivalents)
    elif not plays:
        return Inference(passed=True)
    return Inference(diagnosis=_diagnose(before, roll, after, v, settings, plays))


def _may_be_a_rare_legal_play(
    before: Position, roll: tuple[int, int], after: Position, v: Variant, settings: RuleSettings
) -> bool:
    """Could `after` be a legal play the aimed search does not settle? Only a play that bears
    off, uses only some of the movements, or falls under the head rule, the Caucasian
    bear-off or the die order."""
    mover = before.turn
    moved = before.pip_count(v, mover) - after.pip_count(v, mover)
    bears_off = after.off[mover] > before.off[mover]
    moves = movement_sequence(v, roll, settings)
    # Without bearing off every legal play moves exactly the pips of the movements it uses.
    fewer = moved < sum(moves) and moved in _movement_sums(moves)
    return (
        bears_off
        or fewer
        or v.head is not None
        or v.no_hit_and_hide
        or settings.higher_die_first
    )


def _dice_for(distance: int, left: list[int], bearing_off: bool) -> list[int] | None:
    """Dice from `left` that move one checker `distance` pips (one die, or a combination)."""
    if distance in left:
        return [distance]
    if bearing_off:
        bigger = sorted(d for d in left if d > distance)
        if bigger:
            return [bigger[0]]
    for n in range(2, len(left) + 1):
        for combo in {tuple(sorted(c)) for c in combinations(left, n)}:
            if sum(combo) == distance:
                return list(combo)
    return None


def explain_move_text(
    before: Position,
    dice: tuple[int, int] | list[int] | str,
    text: str,
    variant: str | Variant,
    settings: RuleSettings = DEFAULT_SETTINGS,
) -> Diagnosis | None:
    """Why move text (as in a .mat record) is not a legal play, or None when it is.

    Walks the text step by step on `before`, so it can name what a camera never shows: a
    checker landing on a closed point, a missing checker, a step no die allows. When every
    step is possible it judges the resulting position like `infer`.
    """
    v = get_variant(variant)
    roll = parse_dice(dice)
    walked = board_after_text(before, movement_sequence(v, roll, settings), text, v, roll)
    if isinstance(walked, Diagnosis):
        return walked
    return infer(before, roll, walked, v, settings).diagnosis


def board_after_text(
    before: Position,
    movements: tuple[int, ...],
    text: str,
    variant: str | Variant,
    roll: tuple[int, int] | None = None,
) -> Position | Diagnosis:
    """The board move text leaves when walked step by step on `before` with `movements`
    (a roll's, or a gulbar opponent's left-overs), or the first step that cannot be made.
    The forced-move rules are not judged here: the engine judges the board it leaves."""
    from nardy_pi.rules.notation.move_text import parse_move_text

    v = get_variant(variant)
    mover = before.turn
    own, opp = before.view(v, mover)
    left = list(movements)
    roll = roll or (max(movements), min(movements))  # for the messages
    holder = mover.opponent.label
    for segment in parse_move_text(text):
        for _ in range(segment.count):
            step = f"{point_name(segment.src)}/{point_name(segment.dst)}"
            if own[segment.src] == 0:
                return Diagnosis(
                    "no_checker", {"step": step, "mover": mover.label, "point": segment.src}
                )
            if own[BAR] and segment.src != BAR:
                return Diagnosis("bar_not_entered", {})
            distance = segment.src - segment.dst
            bearing_off = segment.dst == OFF and sum(own[7:]) == 0
            used = _dice_for(distance, left, bearing_off)
            if used is None:
                return Diagnosis(
                    "step_distance",
                    {"step": step, "distance": distance, "dice": _dice_text(roll)},
                )
            if segment.dst != OFF and opp[segment.dst] >= v.block:
                return Diagnosis("landed_on_closed_point", {"step": step, "holder": holder})
            if len(used) > 1:
                stops = [segment.src - sum(used[: i + 1]) for i in range(len(used) - 1)]
                orders = [stops]
                if len(used) == 2 and used[0] != used[1]:
                    orders.append([segment.src - used[1]])
                if all(any(opp[s] >= v.block for s in order) for order in orders):
                    point = next(s for s in orders[0] if opp[s] >= v.block)
                    return Diagnosis(
                        "passed_closed_point", {"step": step, "point": point, "holder": holder}
                    )
            for die in used:
                left.remove(die)
            own[segment.src] -= 1
            own[segment.dst] += 1
            if segment.dst != OFF and opp[segment.dst] == 1 and v.hitting:
                opp[segment.dst] = 0
                opp[BAR] += 1
    return Position.from_view(v, mover, own, opp)
