"""Legal plays for a position and a roll: every rule of DIGEST §1.4-1.5, §2.1-2.3.

The search works in the mover's own numbering (24 -> 1, bar 25, off 0) on two count arrays and
undoes each step on the way back, so one generator serves every variant: the variant's data
(hitting, how many checkers close a point, the head, the six-block and Caucasian switches)
decides what a step may do. `Relax` switches single rules off; inference uses it to name the
rule an observed play broke.
"""

from __future__ import annotations

from dataclasses import dataclass

from nardy_pi.rules import ladder
from nardy_pi.rules.errors import RulesError, TooManyPlaysError
from nardy_pi.rules.long_rules import (
    dice_orders,
    head_allowance,
    is_ladder,
    movement_sequence,
    six_block_points,
)
from nardy_pi.rules.play import Play, Step, format_each_step
from nardy_pi.rules.position import BAR, OFF, Position
from nardy_pi.rules.settings import DEFAULT_SETTINGS, RuleSettings
from nardy_pi.rules.variants import Variant, get_variant

HOME_TOP = 6

#: the most plays the live game lists at one roll (a few tens of milliseconds of work): a
#: ladder of doubles can have hundreds of thousands, and those are judged by aimed search
PLAY_LIST_LIMIT = 5_000


@dataclass(frozen=True, slots=True)
class Relax:
    """Rules to ignore (for diagnosing an illegal play; never for refereeing)."""

    blocks: bool = False  # land on (or pass) closed points
    bar_first: bool = False  # move other checkers while some are on the bar
    max_dice: bool = False  # accept plays that leave playable dice unused
    hit_and_hide: bool = False  # Caucasian: hitter may hide
    head: bool = False  # long nardy: any number of checkers from the head
    six_block: bool = False  # long nardy: six-point blocks allowed
    die_order: bool = False  # [Q] setting: the smaller die may be played first
    gulbar_home: bool = False  # gulbar: moves inside the home, bear-off with a larger die


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


class _Search:
    __slots__ = (
        "all_home_start",
        "best",
        "block",
        "block_reading",
        "caucasian",
        "die_order",
        "exact_off",
        "head",
        "hitter_off_rule",
        "hitting",
        "home_frozen",
        "leaves",
        "limit",
        "opp",
        "order_ok",
        "outside",
        "oversize_any",
        "own",
        "paths",
        "relax",
        "seen",
        "six_block",
        "steps",
        "stop_at_full",
        "target",
        "target_above",
        "target_pips",
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
        self.block_reading = settings.six_block
        self.home_frozen = variant.no_moves_in_home and not relax.gulbar_home
        self.exact_off = variant.exact_bear_off and not relax.gulbar_home
        self.oversize_any = settings.oversize_bear_off == "any"
        self.die_order = settings.higher_die_first and not relax.die_order
        self.outside = sum(own[HOME_TOP + 1 :])
        self.all_home_start = self.outside == 0
        # key -> some step order reaching it plays the larger die first where [Q] wants it
        self.order_ok: dict[tuple[int, ...], bool] = {}
        self.steps: list[Step] = []
        # key -> (dice used, used the larger die, hitter borne off, steps)
        self.leaves: dict[tuple[int, ...], tuple[int, bool, bool, tuple[Step, ...]]] = {}
        # When set, every step sequence reaching each key (to tell equivalent plays apart).
        self.paths: dict[tuple[int, ...], set[tuple[Step, ...]]] | None = None
        # When set (own + opp arrays of an observed position), only that position is wanted:
        # with doubles, points above the current source are final, so a mismatch there ends
        # the branch. Inference uses it to stay fast on big doubles trees.
        self.target: tuple[int, ...] | None = None
        # When set, search states already expanded -> their result. Ladders of doubles (up to
        # 12 movements) revisit the same states through many orders; plain rolls do not need it.
        self.seen: dict[tuple, bool] | None = None
        # When set, more distinct results than this raise TooManyPlaysError.
        self.limit: int | None = None
        # When set, the first legal result using this many movements raises _FullPlay.
        self.stop_at_full: int | None = None
        self.target_above: tuple[int, ...] = ()
        self.target_pips = 0

    def aim(self, target: tuple[int, ...]) -> None:
        """Keep only `target`, and prune every branch that can no longer reach it."""
        self.target = target
        # Checkers only move toward 0: a state can reach the target only while, for every
        # point q, at least as many own checkers stand on q or above as in the target.
        above, total = [], 0
        for q in range(BAR, -1, -1):
            total += target[q]
            above.append(total)
        self.target_above = tuple(reversed(above))  # [q] = target checkers on q..BAR
        self.target_pips = sum(q * target[q] for q in range(1, BAR + 1))

    def can_reach(self, pips_left: int) -> bool:
        """Could the remaining movements (`pips_left` pips) still turn this into the target?"""
        own = self.own
        pips = sum(q * own[q] for q in range(1, BAR + 1))
        # A movement moves a checker its full value, or less when bearing off: never more.
        if not 0 <= pips - self.target_pips <= pips_left:
            return False
        count = 0
        need = self.target_above
        for q in range(BAR, 0, -1):
            count += own[q]
            if count < need[q]:
                return False
        return True

    def leaf(self, larger: int, hitter_off: bool) -> bool:
        """Record the current position as a play's result; False if the six-block rule bars it.

        The block is judged on the result of the whole play, so a checker that leaves a point
        during the play does not count toward it (issue 3).
        """
        if self.six_block and six_block_points(self.own, self.opp, self.block_reading):
            return False
        n = len(self.steps)
        if self.stop_at_full is not None and n >= self.stop_at_full:
            raise _FullPlay(tuple(self.steps), (*self.own, *self.opp))
        key = (*self.own, *self.opp)
        if self.target is not None and key != self.target:
            return True  # a legal result, just not the one looked for
        if self.limit is not None and key not in self.leaves and len(self.leaves) >= self.limit:
            raise TooManyPlaysError(self.limit)
        used_larger = any(s.die == larger for s in self.steps)
        old = self.leaves.get(key)
        if old is None or (n, used_larger) > (old[0], old[1]):
            self.leaves[key] = (n, used_larger, hitter_off, tuple(self.steps))
        if self.paths is not None:
            self.paths.setdefault(key, set()).add(tuple(self.steps))
        if self.die_order:
            steps = self.steps
            ordered = self.all_home_start or any(s.dst == OFF for s in steps)
            ok = not ordered or len(steps) < 2 or steps[0].die >= steps[1].die
            self.order_ok[key] = self.order_ok.get(key, False) or ok
        return True

    def final_above(self, src: int, target: tuple[int, ...]) -> bool:
        """Do the points above `src` (final once `src` is the source) match the target?"""
        own, opp = self.own, self.opp
        if any(own[q] != target[q] for q in range(src + 1, BAR + 1)):
            return False
        # The opponent's bar (opp[25]) still grows with hits below `src`.
        return all(opp[q] == target[26 + q] for q in range(src + 1, BAR))

    def run(
        self,
        dice: tuple[int, ...],
        i: int,
        max_src: int,
        head_left: int,
        marks: tuple[int, ...],
        hitter_off: bool,
        larger: int,
    ) -> bool:
        """Extend the play by die `dice[i]`; True when a result was recorded here or below."""
        own, opp = self.own, self.opp
        if i == len(dice):
            return self.leaf(larger, hitter_off)
        if self.target is not None and not self.can_reach(sum(dice[i:])):
            # Pruned: counted as "a play goes on from here", so this state is not taken for
            # a play that stopped early (that needs a full search, not an aimed one).
            return True
        state: tuple = ()
        if self.seen is not None:
            state = (i, max_src, head_left, marks, hitter_off, *own, *opp)
            if state in self.seen:
                return self.seen[state]
        here = self.relax.max_dice and self.leaf(larger, hitter_off)
        d = dice[i]
        # Equal dice in a row: take sources in falling order to skip permutations of one play.
        same_next = i + 1 < len(dice) and dice[i + 1] == d
        # A plain double (not a ladder of doubles): every source from here on is <= this one.
        doubles = dice[0] == dice[-1] and len(dice) > 2
        found = False
        if own[BAR] and not self.relax.bar_first:
            sources: range | tuple[int, ...] = (BAR,)
        else:
            sources = range(min(max_src, BAR), 0, -1)
        target = self.target if doubles else None
        for src in sources:
            if not own[src]:
                continue
            if target is not None and not self.final_above(src, target):
                break  # lower sources leave even more points final
            if src == self.head and head_left == 0:
                continue
            dst = src - d
            hit = False
            if dst >= 1:
                if self.home_frozen and src <= HOME_TOP:
                    continue  # gulbar: a checker in its home stays there until borne off
                o = opp[dst]
                if o >= self.block:
                    continue
                hit = o == 1 and self.hitting
                if src == BAR and o and not self.hitting:
                    continue
            else:
                if self.outside:
                    continue
                if dst < 0:
                    if self.exact_off:
                        continue  # gulbar: bear off from the rolled point numbers only
                    # a larger die bears off from the highest point ("any": from any point
                    # once none stands on the rolled point or above)
                    higher = d if self.oversize_any else src + 1
                    if any(own[q] for q in range(higher, HOME_TOP + 1)):
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
            self.steps.append(Step(src, dst, hit, d))
            found = (
                self.run(
                    dice,
                    i + 1,
                    src if same_next else BAR,
                    head_left - 1 if src == self.head else head_left,
                    new_marks,
                    new_hitter_off,
                    larger,
                )
                or found
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
        if not found and not self.relax.max_dice:
            found = self.leaf(larger, hitter_off)
        found = found or here
        if self.seen is not None:
            self.seen[state] = found
        return found


class _FullPlay(Exception):
    """Raised inside the search once a legal play using every movement is found (its steps
    and result key as the arguments)."""


def _search_all(
    variant: Variant,
    settings: RuleSettings,
    own: list[int],
    opp: list[int],
    orders: list[tuple[int, ...]],
    relax: Relax,
    head_left: int,
    limit: int | None = None,
) -> _Search:
    search = _Search(variant, settings, own, opp, relax)
    search.limit = limit
    if len(orders[0]) > 4:
        search.seen = {}
    larger = max(orders[0])
    for seq in orders:
        search.run(seq, 0, BAR, head_left, (), False, larger)
    return search


def legal_plays(
    position: Position,
    dice: tuple[int, int] | list[int] | str,
    variant: str | Variant,
    settings: RuleSettings = DEFAULT_SETTINGS,
    relax: Relax = STRICT,
    limit: int | None = None,
) -> list[Play]:
    """Every legal play for the side to move, one per distinct resulting position.

    An empty list means the roll cannot be played at all (a legal pass). `limit`: raise
    TooManyPlaysError rather than list more distinct results than this (the work stays
    proportional to it); ladders of doubles can have hundreds of thousands.
    """
    v = get_variant(variant)
    roll = parse_dice(dice)
    orders = dice_orders(movement_sequence(v, roll, settings), is_ladder(v, roll))
    allowances = head_allowance(v, position.view(v)[0], roll, settings)
    return _plays(
        position, v, settings, relax, orders, allowances, roll[0] != roll[1], limit
    )


def full_play_exists(
    position: Position,
    dice: tuple[int, int] | list[int] | str,
    variant: str | Variant,
    settings: RuleSettings = DEFAULT_SETTINGS,
) -> bool:
    """Can the side to move play every movement of the roll (first head allowance)? Stops at
    the first such play, so it stays cheap where listing every play would not."""
    return some_full_play(position, dice, variant, settings) is not None


def some_full_play(
    position: Position,
    dice: tuple[int, int] | list[int] | str,
    variant: str | Variant,
    settings: RuleSettings = DEFAULT_SETTINGS,
) -> Play | None:
    """The first play found that uses every movement of the roll, or None: a legal play
    of a huge ladder without listing the others (the demo table plays it)."""
    v = get_variant(variant)
    roll = parse_dice(dice)
    moves = movement_sequence(v, roll, settings)
    allowance = head_allowance(v, position.view(v, position.turn)[0], roll, settings)[0]
    found = _full_play(position, v, settings, dice_orders(moves, is_ladder(v, roll)),
                       allowance, max(roll))  # fmt: skip
    if found is None:
        return None
    steps, key = found
    return Play(steps, Position.from_view(v, position.turn, list(key[:26]), list(key[26:])))


def full_movements_exist(
    position: Position, moves: tuple[int, ...], variant: str | Variant,
    settings: RuleSettings = DEFAULT_SETTINGS, ordered: bool = False,
) -> bool:
    """`full_play_exists` for a bare list of movements (`legal_plays_for_movements`)."""
    v = get_variant(variant)
    orders = dice_orders(tuple(moves), ordered)
    return _full_play(position, v, settings, orders, 1, max(moves)) is not None


def _full_play(
    position: Position, v: Variant, settings: RuleSettings, orders: list[tuple[int, ...]],
    allowance: int, larger: int,
) -> tuple[tuple[Step, ...], tuple[int, ...]] | None:
    own, opp = position.view(v, position.turn)
    search = _Search(v, settings, own, opp, STRICT)
    search.seen = {}
    search.stop_at_full = len(orders[0])
    try:
        for seq in orders:
            search.run(seq, 0, BAR, allowance, (), False, larger)
    except _FullPlay as found:
        return found.args[0], found.args[1]
    return None


def legal_plays_for_movements(
    position: Position,
    moves: tuple[int, ...] | list[int],
    variant: str | Variant,
    settings: RuleSettings = DEFAULT_SETTINGS,
    relax: Relax = STRICT,
    ordered: bool = False,
    limit: int | None = None,
) -> list[Play]:
    """Legal plays of a bare list of movements for the side to move, e.g. the movements a
    gulbar opponent left unplayed (`long_rules.unplayed_movements`).

    `ordered`: play them in the given order (the rest of a ladder of doubles). The same
    forced-move rules apply; one checker may leave the head. `limit` as in `legal_plays`.
    """
    v = get_variant(variant)
    if not moves or any(not 1 <= m <= 6 for m in moves):
        raise ValueError(f"movements are 1-6 each, got {list(moves)!r}")
    orders = dice_orders(tuple(moves), ordered)
    two_dice = len(moves) == 2 and moves[0] != moves[1]
    return _plays(position, v, settings, relax, orders, (1,), two_dice, limit)


def _plays(
    position: Position,
    v: Variant,
    settings: RuleSettings,
    relax: Relax,
    orders: list[tuple[int, ...]],
    allowances: tuple[int, ...],
    two_dice: bool,
    limit: int | None = None,
) -> list[Play]:
    """The search and the forced-move rules (§1.5) for the given movement orders."""
    mover = position.turn
    own, opp = position.view(v, mover)
    if own[OFF] >= v.checkers:
        raise RulesError(f"{mover.label} has already borne off every checker")
    full = len(orders[0])
    search: _Search | None = None
    for allowance in allowances:
        candidate = _search_all(
            v, settings, own, opp, orders, relax, 99 if relax.head else allowance, limit
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
        if most == 1 and two_dice and any(e[1][1] for e in entries):
            entries = [e for e in entries if e[1][1]]
        if settings.hit_and_hide_bear_off == "if_forced" and any(
            not e[1][2] for e in entries
        ):
            entries = [e for e in entries if not e[1][2]]
    if search.die_order and two_dice and any(search.order_ok.get(e[0]) for e in entries):
        entries = [e for e in entries if search.order_ok.get(e[0])]
    plays = []
    for key, (n, _larger, _off, steps) in entries:
        if n == 0:
            continue
        plays.append(Play(steps, Position.from_view(v, mover, list(key[:26]), list(key[26:]))))
    return plays


def _aimed_search(
    position: Position,
    v: Variant,
    roll: tuple[int, int],
    target: tuple[int, ...],
    settings: RuleSettings,
    relax: Relax,
    allowance: int,
    orders: list[tuple[int, ...]] | None = None,
) -> _Search:
    """A search that keeps only `target` (own + opp arrays) and every step list reaching it.
    `orders`: the movement orders to play (default: the roll's)."""
    own, opp = position.view(v, position.turn)
    if orders is None:
        orders = dice_orders(movement_sequence(v, roll, settings), is_ladder(v, roll))
    search = _Search(v, settings, own, opp, relax)
    search.aim(target)
    search.paths = {}
    if len(orders[0]) > 4:
        # Ladders: remember expanded states (the readings are then some, not all, of them).
        search.seen = {}
    for seq in orders:
        search.run(seq, 0, BAR, 99 if relax.head else allowance, (), False, max(roll))
    return search


def _target(position: Position, v: Variant, after: Position) -> tuple[int, ...]:
    own, opp = after.view(v, position.turn)
    return (*own, *opp)


def equivalent_notations(
    position: Position,
    dice: tuple[int, int] | list[int] | str,
    variant: str | Variant,
    play: Play,
    settings: RuleSettings = DEFAULT_SETTINGS,
) -> tuple[str, ...]:
    """Every distinct set of single steps that makes `play` (`8/5 5/3` and `8/6 6/3` for
    8/3 with 3-2): the readings a player may have in mind, all the same play for the game.
    """
    v = get_variant(variant)
    roll = parse_dice(dice)
    target = _target(position, v, play.result)
    texts: set[str] = set()
    for allowance in head_allowance(v, position.view(v)[0], roll, settings):
        search = _aimed_search(position, v, roll, target, settings, STRICT, allowance)
        assert search.paths is not None
        texts.update(
            format_each_step(steps)
            for steps in search.paths.get(target, ())
            if len(steps) == len(play.steps)
        )
    return tuple(sorted(texts))


def full_play_reaching(
    position: Position,
    roll: tuple[int, int],
    v: Variant,
    after: Position,
    settings: RuleSettings = DEFAULT_SETTINGS,
) -> tuple[Play | None, tuple[str, ...]]:
    """The legal play that turns `position` into `after` (turn ignored) and its readings, in
    the usual case, settled by a search aimed at `after`: a play using every movement of the
    roll with the first head allowance. (None, ()) otherwise: the rare cases (fewer dice, a
    second checker from the head, the Caucasian bear-off, the die order) need `legal_plays`
    and `play_among`."""
    if ladder.applies(position, v, roll, after):
        found = ladder.ladder_play_reaching(position, roll, v, after, settings)
        return (found, (format_each_step(found.steps),)) if found else (None, ())
    target = _target(position, v, after)
    full = len(movement_sequence(v, roll, settings))
    allowance = head_allowance(v, position.view(v)[0], roll, settings)[0]
    search = _aimed_search(position, v, roll, target, settings, STRICT, allowance)
    entry = search.leaves.get(target)
    assert search.paths is not None
    if (
        entry is not None
        and entry[0] == full
        and not entry[2]
        and (not search.die_order or search.order_ok.get(target, False))
    ):
        texts = {format_each_step(s) for s in search.paths[target] if len(s) == full}
        result = Position.from_view(v, position.turn, list(target[:26]), list(target[26:]))
        return Play(entry[3], result), tuple(sorted(texts))
    return None, ()


def movements_play_reaching(
    position: Position,
    moves: tuple[int, ...],
    variant: str | Variant,
    after: Position,
    settings: RuleSettings = DEFAULT_SETTINGS,
    ordered: bool = False,
) -> Play | None:
    """The play of every one of `moves` (`legal_plays_for_movements`) that turns `position`
    into `after`, found by a search aimed at `after`; None when no such full play exists
    (a play of fewer movements is then legal only if no full one exists at all)."""
    v = get_variant(variant)
    moves = tuple(moves)
    if ordered and ladder.applies_to_movements(position, v, after):
        return ladder.movements_play_reaching(position, moves, v, after, settings)
    target = _target(position, v, after)
    larger = max(moves)
    search = _aimed_search(position, v, (larger, larger), target, settings, STRICT, 1,
                           dice_orders(moves, ordered))  # fmt: skip
    entry = search.leaves.get(target)
    if entry is None or entry[0] != len(moves) or entry[2]:
        return None
    result = Position.from_view(v, position.turn, list(target[:26]), list(target[26:]))
    return Play(entry[3], result)


def play_among(
    plays: list[Play],
    position: Position,
    roll: tuple[int, int],
    v: Variant,
    after: Position,
    settings: RuleSettings = DEFAULT_SETTINGS,
) -> tuple[Play | None, tuple[str, ...]]:
    """The play of `plays` (all legal plays) that reaches `after`, and its readings."""
    key = (*after.points, *after.bar, *after.off)
    for play in plays:
        if (*play.result.points, *play.result.bar, *play.result.off) == key:
            return play, equivalent_notations(position, roll, v, play, settings)
    return None, ()


def reaches_relaxed(
    position: Position,
    roll: tuple[int, int],
    v: Variant,
    after: Position,
    settings: RuleSettings,
    relax: Relax,
) -> Play | None:
    """A sequence of steps, each allowed once the rules in `relax` are switched off, that
    reaches `after` (the forced-move rules of §1.5 are not applied), or None.

    Used to name the rule an observed play broke; aimed at `after`, so it stays cheap.
    """
    if ladder.applies(position, v, roll, after):
        # Every movement, as the forced-move rule wants, unless that rule is the one relaxed.
        full = not relax.max_dice
        return ladder.ladder_play_reaching(position, roll, v, after, settings, relax, full)
    target = _target(position, v, after)
    allowance = head_allowance(v, position.view(v)[0], roll, settings)[0]
    search = _aimed_search(position, v, roll, target, settings, relax, allowance)
    entry = search.leaves.get(target)
    if entry is None or entry[0] == 0:
        return None
    result = Position.from_view(v, position.turn, list(target[:26]), list(target[26:]))
    return Play(entry[3], result)
