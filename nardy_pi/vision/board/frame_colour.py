"""Light or dark, decided within the frame: the two sides' checkers are told apart by comparing
them with each other, not with what "light" looked like in training.

A strip seen alone cannot know that red is the light side on a board whose other side is
black, and the dark side on a board whose other side is white. Within one frame the checkers
fall into two colour groups; the group whose checkers are lighter is the light side. The
strip model still decides which slots hold checkers and how many; this only moves each
occupied slot's light-side probability towards its group's side, and only when the frame
shows two clearly different groups (one side alone on the board, or groups that blur into
each other, leave the model's colours as they were).

Real photos held out by board (bench/bench_board_reader.py): 89.2% -> 90.8% per slot.
A stack's colour is taken over its first few checkers, not the first alone: the checker at the
base is the one the picture's edge cuts or a wall or rim darkens (held out by board, 164 -> 152
wrong slots of 3655 with the spans chosen per fold on the others; bench_board_reader's notes).
"""

from __future__ import annotations

import numpy as np

from nardy_pi.vision.board.layout import STRIP_REACH_V, STRIP_W, strip_rows
from nardy_pi.vision.lab import bgr_to_lab

#: the first checker's middle, in v from the base's surface edge: a checker is about a point
#: wide (the strip is 1.2 points wide) and lies at the point's base
_ALONG = (0.0125, 0.0825)
_COLS = (round(0.25 * STRIP_W), round(0.75 * STRIP_W))
#: with the checkers' length known (layout.checker_length_v), a stack's patch runs over up to
#: STACK_PATCH of its likeliest count of checkers, CHECKER_SHARE of that length each (short of
#: a whole checker, so the patch of a single one stays on it). Chosen for each fold of the
#: real photos on the other four (1-4 checkers, shares 0.7-1.0): (3, 0.8) in four folds of five
STACK_PATCH = 3
CHECKER_SHARE = 0.8
OCCUPIED = 0.5  # probability of "no checker" under which a slot takes part
MIN_SLOTS = 3  # fewer occupied slots say nothing about two groups
MIN_GAP = 15.0  # CIELAB distance (8-bit scale) between the groups' means
MIN_RATIO = 1.5  # ... and that gap over the spread within the groups
LIGHTNESS_TIE = 8.0  # a lightness gap smaller than this leaves the side to the model's vote
SIDE = 15  # checkers a side
SLACK = 2.0  # checkers a group may hold beyond a side's, for miscounted stacks
PULL = 3.0  # logit added towards the group's side
#: a group whose stacks add up to more than SIDE_CAP checkers gives its stack most like the
#: other group's colour to that group, if the stack lies at least MOVE_RATIO as far from its
#: own group's colour as from the other's (between the two, as a light stack in shade does).
#: Real photos held out by board, wrong slots of 3510: 131 -> 125 at (15, 0.5), no fold or
#: board worse; (15, 0) 124 and (15, 0.3) 122 each lose a board's dark singles to the light
#: side (bench_board_reader's notes)
SIDE_CAP = float(SIDE)
MOVE_RATIO = 0.5
MODEL_WEIGHT = 0.3  # share of the model's own colour logit kept


def checker_colours(raw: np.ndarray, slots: np.ndarray, margin: float = 0.0,
                    checkers: np.ndarray | None = None,
                    checker_v: float | None = None) -> np.ndarray:
    """len(slots) x 3 median CIELAB colour of each point's stack (raw: strips as cut, BGR
    uint8, SLOTS x STRIP_H x STRIP_W x 3; `margin`: how far outside the surface edge the
    points' strips start, SurfaceLayout.base_margin_v). With `checker_v` (a checker's length
    in v) and `checkers`, slot k's patch spans `checkers[k]` checkers; else its first
    checker's (_ALONG)."""
    span = None if checker_v is None or checkers is None else CHECKER_SHARE * checker_v
    counts = np.ones(len(slots), int) if checkers is None else checkers
    out = np.empty((len(slots), 3))
    for k, slot in enumerate(slots):
        far = _ALONG[1] if span is None else _ALONG[0] + span * int(counts[k])
        rows = strip_rows(_ALONG[0], min(far, STRIP_REACH_V), margin)
        patch = np.ascontiguousarray(raw[slot, rows[0]:max(rows[1], rows[0] + 1),
                                         _COLS[0]:_COLS[1]])
        lab = bgr_to_lab(patch).reshape(-1, 3)
        out[k] = np.median(lab.astype(np.float64), axis=0)
    return out


def two_groups(x: np.ndarray, rounds: int = 20) -> np.ndarray:
    """Two-means, started from a split along the main axis (deterministic): True/False per
    row."""
    centred = x - x.mean(axis=0)
    axis = np.linalg.svd(centred, full_matrices=False)[2][0]
    along = centred @ axis
    group = along > np.median(along)
    for _ in range(rounds):
        if group.all() or not group.any():
            break
        a, b = x[group].mean(axis=0), x[~group].mean(axis=0)
        new = ((x - a) ** 2).sum(axis=1) < ((x - b) ** 2).sum(axis=1)
        if (new == group).all():
            break
        group = new
    return group


def within_sides(group: np.ndarray, colours: np.ndarray, checkers: np.ndarray,
                 cap: float | None = None) -> np.ndarray:
    """A side has 15 checkers: while one group's stacks (`checkers`, expected counts) add up
    to more than `cap`, its stack most like the other group's colour moves over, where the
    other group has room and the stack lies between the two colours (MOVE_RATIO). Light
    checkers in shade fall between the sides' colours, and two-means may take them for the
    darker side; a stack clearly of its group's colour stays (its group is more likely
    overcounted)."""
    cap = SIDE_CAP if cap is None else cap
    group = group.copy()
    for _ in range(len(group)):
        moved = False
        for g in (True, False):
            own = group == g
            if not own.any() or not (~own).any() or checkers[own].sum() <= cap:
                continue
            mine = np.linalg.norm(colours - colours[own].mean(axis=0), axis=1)
            theirs = np.linalg.norm(colours - colours[~own].mean(axis=0), axis=1)
            k = int(np.argmax(np.where(own, mine - theirs, -np.inf)))
            if (checkers[~own].sum() + checkers[k] > cap
                    or mine[k] < MOVE_RATIO * theirs[k]):
                continue
            group[k] = not g
            moved = True
        if not moved:
            break
    return group


def _logit(p: np.ndarray) -> np.ndarray:
    p = np.clip(p, 1e-4, 1 - 1e-4)
    return np.log(p / (1 - p))


def relative_light(raw: np.ndarray, count: np.ndarray, light: np.ndarray,
                   seen: np.ndarray, margin: float = 0.0,
                   checker_v: float | None = None) -> np.ndarray:
    """The light-side probability of each of the 24 points' strips, with the frame's two
    colour groups taken into account; the bar's strips and empty slots keep the model's.
    `margin`: where the strips start; `checker_v`: a checker's length in v, when known
    (layout.checker_length_v; checker_colours)."""
    light = np.asarray(light, np.float64).copy()
    occupied = np.nonzero((count[:24, 0] < OCCUPIED) & seen[:24])[0]
    if len(occupied) < MIN_SLOTS:
        return light
    likeliest = np.clip(count[occupied, 1:].argmax(axis=1) + 1, 1, STACK_PATCH)
    colours = checker_colours(raw, occupied, margin, likeliest, checker_v)
    group = two_groups(colours)
    if group.all() or not group.any():
        return light
    a, b = colours[group].mean(axis=0), colours[~group].mean(axis=0)
    gap = float(np.linalg.norm(a - b))
    spread = float(np.sqrt(np.concatenate([((colours[group] - a) ** 2).sum(axis=1),
                                           ((colours[~group] - b) ** 2).sum(axis=1)]).mean()))
    if gap < MIN_GAP or gap < MIN_RATIO * spread:
        return light
    # Two groups are two sides only where one side cannot hold all the checkers seen, give or
    # take a miscounted stack (a side alone, split by light and shade, is left to the model).
    checkers = count[occupied] @ np.arange(count.shape[1])  # each stack's expected count
    if float(checkers.sum()) <= SIDE + SLACK:
        return light
    group = within_sides(group, colours, checkers)
    a, b = colours[group].mean(axis=0), colours[~group].mean(axis=0)
    votes = _logit(light[occupied])
    lighter = a[0] - b[0]
    if abs(lighter) >= LIGHTNESS_TIE:
        side = np.sign(lighter)
    else:  # as light as each other (a red and a green side): the model's vote, relatively
        side = np.sign(votes[group].mean() - votes[~group].mean()) or 1.0
    towards = np.where(group, side, -side) * PULL
    light[occupied] = 1.0 / (1.0 + np.exp(-(MODEL_WEIGHT * votes + towards)))
    return light
