"""Legal plays for a position and a roll: every rule of DIGEST §1.4-1.5, §2.1-2.3.

The search works in the mover's own numbering (24 -> 1, bar 25, off 0) on two count arrays and
undoes each step on the way back, so one generator serves every variant: the variant's data
(hitting, how many checkers close a point, the head, the six-block and Caucasian switches)
decides what a step may do. `Relax` switches single rules off; inference uses it to name the
rule an observed play broke.
"""

from __future__ import annotations

from dataclasses import dataclass

from nardy_pi.rules.errors import RulesError
from nardy_pi.rules.play import Play, Step, format_steps
from nardy_pi.rules.position import BAR, OFF, Position
from nardy_pi.rules.settings import DEFAULT_SETTINGS, RuleSettings
from nardy_pi.rules.variants import Variant, get_variant

HOME_TOP = 6


@dataclass(frozen=True, slots=True)
class Relax:
    """Rules to ignore (for diagnosing an illegal play; never for refereeing)."""

    blocks: bool = False  # land on (or pass) closed points
    bar_first: bool = False  # move other checkers while some are on the bar
    max_dice: bool = False  # accept plays that leave playable dice unused
    hit_and_hide: bool = False  # Caucasian: hitter may hide
    head: bool = False  # long nardy: any number of checkers from the head
    six_block: bool = False  # long nardy: six-point blocks allowed


STRICT = Relax()


def parse_dice(dice: tuple[int, ...] | list[int] | str) -> tuple[int, int]:
    """Accept `(6, 5)`, `[6, 5]` or `"65"`; raise ValueError otherwise."""
    if isinstance(dice, str):
        text = dice.strip()
        if len(text) != 2 or not text.isdigit():
            raise ValueError(f"dice must be two digits 1-6 like 65, got {dice!r}")
        values = (int(text[0]), int(text[1]))
    else:
        values = tuple(dice)  # type: ignore[assignment]
        if len(values) != 2:
            raise ValueError(f"a roll has two dice, got {len(values)}")
    for v in values:
        if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= 6:
            raise ValueError(f"a die shows 1-6, got {v!r}")
    return values[0], values[1]


def movements(dice: tuple[int, int]) -> list[tuple[int, ...]]:
    """The orders in which the dice may be used: both orders, or four of a double."""
    a, b = dice
    if a == b:
        return [(a, a, a, a)]
    return [(max(a, b), min(a, b)), (min(a, b), max(a, b))]


def six_block_points(own: list[int], opp: list[int]) -> tuple[int, ...]:
    """A run of six or more own points with no opposing checker ahead of it, or ().

    The run is counted along the *opponent's* path (long nardy: own 12..1 then 24..13), and an
    opposing checker is "ahead" once it stands past the run on that path or is borne off
    (DIGEST §2.3.4 reading (a)). Returns the run's points in the mover's numbering.
    """
    # Opponent's own point q is our own point q - 12 (q > 12) or q + 12.
    run: list[int] = []
    ahead = opp[OFF]
    for q in range(1, 25):  # from the opponent's home outward
        m = q - 12 if q > 12 else q + 12
        if own[m]:
            run.append(m)
            continue
        if len(run) >= 6 and ahead == 0:
            return tuple(run)
        ahead += sum(opp[r] for r in run) + opp[m]
        run = []
    if len(run) >= 6 and ahead == 0:
        return tuple(run)
    return ()


class _Search:
    __slots__ = (
        "best",
        "paths",
        "block",
        "caucasian",
        "head",
        "hitter_off_rule",
        "hitting",
        "leaves",
        "opp",
        "outside",
        "own",
        "relax",
        "six_block",
        "steps",
    )

    def __init__(
        self,
        variant: Variant,
        settings: RuleSettings,
        own: list[int],
        opp: list[int],
        relax: Relax,
    ) -> None:
        self.own = own
        self.opp = opp
        self.relax = relax
        self.block = 99 if relax.blocks else variant.block
        self.hitting = variant.hitting
        self.head = 0 if (variant.head is None or relax.head) else variant.head
        self.caucasian = variant.no_hit_and_hide and not relax.hit_and_hide
        self.hitter_off_rule = settings.hit_and_hide_bear_off
        self.six_block = variant.six_block and not relax.six_block
        self.outside = sum(own[HOME_TOP + 1 :])
        self.steps: list[Step] = []
        # key -> (dice used, used the larger die, hitter borne off, steps)
        self.leaves: dict[tuple[int, ...], tuple[int, bool, bool, tuple[Step, ...]]] = {}
        # When set, every step sequence reaching each key (to tell equivalent plays apart).
        self.paths: dict[tuple[int, ...], set[tuple[Step, ...]]] | None = None

    def leaf(self, larger: int, hitter_off: bool) -> None:
        key = (*self.own, *self.opp)
        n = len(self.steps)
        used_larger = any(s.die == larger for s in self.steps)
        old = self.leaves.get(key)
        if old is None or (n, used_larger) > (old[0], old[1]):
            self.leaves[key] = (n, used_larger, hitter_off, tuple(self.steps))
        if self.paths is not None:
            self.paths.setdefault(key, set()).add(tuple(self.steps))

    def run(
        self,
        dice: tuple[int, ...],
        i: int,
        max_src: int,
        head_left: int,
        marks: tuple[int, ...],
        hitter_off: bool,
        larger: int,
    ) -> None:
        own, opp = self.own, self.opp
        if i == len(dice):
            self.leaf(larger, hitter_off)
            return
        if self.relax.max_dice:
            self.leaf(larger, hitter_off)
        d = dice[i]
        doubles = dice[0] == dice[-1] and len(dice) > 2
        moved = False
        if own[BAR] and not self.relax.bar_first:
            sources: range | tuple[int, ...] = (BAR,)
        else:
            sources = range(min(max_src, BAR), 0, -1)
        for src in sources:
            if not own[src]:
                continue
            if src == self.head and head_left == 0:
                continue
            dst = src - d
            hit = False
            if dst >= 1:
                o = opp[dst]
                if o >= self.block:
                    continue
                hit = o == 1 and self.hitting
                if src == BAR and o and not self.hitting:
                    continue
            else:
                if self.outside:
                    continue
                if dst < 0 and any(own[q] for q in range(src + 1, HOME_TOP + 1)):
                    continue
                dst = OFF
            new_marks = marks
            new_hitter_off = hitter_off
            if self.caucasian:
                hitter_moves = src in marks and own[src] == 1
                if hitter_moves:
                    if dst != OFF and own[dst]:
                        continue  # hit and hide in own home
                    if dst == OFF:
                        if self.hitter_off_rule == "forbidden":
                            continue
                        new_hitter_off = True
                    new_marks = tuple(m for m in marks if m != src)
                    if dst != OFF:
                        new_marks = (*new_marks, dst)
                if hit and dst <= HOME_TOP:
                    new_marks = (*new_marks, dst)
            # apply
            own[src] -= 1
            own[dst] += 1
            if hit:
                opp[dst] = 0
                opp[BAR] += 1
            left_outside = src > HOME_TOP and dst <= HOME_TOP
            if left_outside:
                self.outside -= 1
            if not (self.six_block and six_block_points(own, opp)):
                moved = True
                self.steps.append(Step(src, dst, hit, d))
                self.run(
                    dice,
                    i + 1,
                    src if doubles else BAR,
                    head_left - 1 if src == self.head else head_left,
                    new_marks,
                    new_hitter_off,
                    larger,
                )
                self.steps.pop()
            # undo
            if left_outside:
                self.outside += 1
            if hit:
                opp[dst] = 1
                opp[BAR] -= 1
            own[dst] -= 1
            own[src] += 1
        if not moved and not self.relax.max_dice:
            self.leaf(larger, hitter_off)


def head_allowance(variant: Variant, own: list[int], dice: tuple[int, int]) -> tuple[int, ...]:
    """How many checkers may leave the head this turn, in order of preference.

    One per turn; on a side's first turn (all its checkers still on the head) a second one
    may leave when one alone cannot play the roll in full (DIGEST §2.3.5 interpretation, which
    reproduces every worked example of [L] and [O]).
    """
    if variant.head is None:
        return (99,)
    first_turn = own[variant.head] == variant.checkers
    return (1, 2) if first_turn else (1,)


def _search_all(
    variant: Variant,
    settings: RuleSettings,
    own: list[int],
    opp: list[int],
    dice: tuple[int, int],
    relax: Relax,
    head_left: int,
) -> _Search:
    search = _Search(variant, settings, own, opp, relax)
    larger = max(dice)
    for seq in movements(dice):
        search.run(seq, 0, BAR, head_left, (), False, larger)
    return search


def legal_plays(
    position: Position,
    dice: tuple[int, int] | list[int] | str,
    variant: str | Variant,
    settings: RuleSettings = DEFAULT_SETTINGS,
    relax: Relax = STRICT,
) -> list[Play]:
    """Every legal play for the side to move, one per distinct resulting position.

    An empty list means the roll cannot be played at all (a legal pass).
    """
    v = get_variant(variant)
    roll = parse_dice(dice)
    mover = position.turn
    own, opp = position.view(v, mover)
    if own[OFF] >= v.checkers:
        raise RulesError(f"{mover.label} has already borne off every checker")
    full = len(movements(roll)[0])
    search: _Search | None = None
    for allowance in head_allowance(v, own, roll):
        candidate = _search_all(
            v, settings, own, opp, roll, relax, 99 if relax.head else allowance
        )
        best = max((leaf[0] for leaf in candidate.leaves.values()), default=0)
        if search is None or best > max(
            (leaf[0] for leaf in search.leaves.values()), default=0
        ):
            search = candidate
        if best >= full:
            break
    assert search is not None
    entries = list(search.leaves.items())
    if not relax.max_dice:
        most = max((e[1][0] for e in entries), default=0)
        entries = [e for e in entries if e[1][0] == most]
        if most == 1 and roll[0] != roll[1] and any(e[1][1] for e in entries):
            entries = [e for e in entries if e[1][1]]
        if settings.hit_and_hide_bear_off == "if_forced" and any(
            not e[1][2] for e in entries
        ):
            entries = [e for e in entries if not e[1][2]]
    plays = []
    for key, (n, _larger, _off, steps) in entries:
        if n == 0:
            continue
        plays.append(Play(steps, Position.from_view(v, mover, list(key[:26]), list(key[26:]))))
    return plays


def equivalent_notations(
    position: Position,
    dice: tuple[int, int] | list[int] | str,
    variant: str | Variant,
    play: Play,
    settings: RuleSettings = DEFAULT_SETTINGS,
) -> tuple[str, ...]:
    """Every distinct way to write `play` (step sequences reaching the same position).

    Used to tell a player that two readings of a move are the same play for the game.
    """
    v = get_variant(variant)
    roll = parse_dice(dice)
    own, opp = position.view(v, position.turn)
    target = (*play.result.view(v, position.turn)[0], *play.result.view(v, position.turn)[1])
    texts: set[str] = set()
    for allowance in head_allowance(v, own, roll):
        search = _Search(v, settings, own, opp, STRICT)
        search.paths = {}
        for seq in movements(roll):
            search.run(seq, 0, BAR, allowance, (), False, max(roll))
        for steps in search.paths.get(target, ()):
            if len(steps) == len(play.steps):
                texts.add(format_steps(steps))
    return tuple(sorted(texts))
