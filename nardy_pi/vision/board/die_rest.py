"""Does a die rest on a checker? The learned reader's answer, from the image around the die.

The strip model counts a die lying just past a stack's end, or alone on the bar, as one more
checker, so the count alone puts every such die on a stack. A die resting on a checker is
framed by that checker all round; one beside a stack has board around it. So the ring just
outside the die is sampled and each sample goes to the nearer of two references measured in
the same frame: checkers of the stack's colour (away from the die) and empty board (the empty
points of the die's row, the empty bar). Without both references, or where they look alike
(black on black), the count decides, as before.
"""

from __future__ import annotations

import numpy as np

from nardy_pi.vision.board.layout import BAR_LOWER, SurfaceLayout
from nardy_pi.vision.board.strips import map_points
from nardy_pi.vision.lab import bgr_to_lab

#: ring radii around the die's centre, in checker diameters: just outside the die (half its
#: diagonal is about 0.35), inside a checker it rests on. With ON_SHARE, chosen on the named
#: renderer styles read by the learned reader (bench_dice_board's scenes): on_checker recall
#: 30 -> 27 of 34, precision 64% -> 82% (the count alone: 30 of 47 said)
RING = (0.36, 0.42, 0.48)
#: share of the ring nearer checker than board that says "on a checker"
ON_SHARE = 0.25
#: references closer than this (CIELAB) cannot tell checker from board: the count decides
MIN_CONTRAST = 8.0
#: a checker this close to the die (in diameters) may be under it: not a reference
NEAR_DIE = 0.7
STRIP_CHECKERS = 5  # a point's length holds five checkers in a row


def ring_on_checker(image: np.ndarray, layout: SurfaceLayout, h_surface: np.ndarray,
                    counts, slot: int, u: float, v: float) -> bool | None:
    """True / False when the image tells whether a die at surface (u, v) over `slot`'s
    stack rests on a checker; None when it cannot (the caller keeps the count's answer)."""
    d_v = layout.point_length_v / STRIP_CHECKERS
    sign = np.sign(counts[slot] or 0)
    checkers, boards = [], []
    for s, c in enumerate(counts):
        if c is None:
            continue
        uc, d_u, base, step = _strip(layout, s)
        if c == 0:
            # board: the empty points of the die's row; for a die on the bar, the empty bar too
            if (s < 24 and (slot >= 24 or (s < 12) == (slot < 12))) or (s >= 24 and slot >= 24):
                boards += [(uc, base + step * (k + 0.5) * d_v) for k in range(2)]
        elif np.sign(c) == sign:  # the first two checkers of every stack of the die's colour
            for k in range(min(abs(c), 2)):
                cu, cv = uc, base + step * (k + 0.5) * d_v
                if np.hypot((cu - u) / d_u, (cv - v) / d_v) > NEAR_DIE:
                    checkers.append((cu, cv))
    d_u = _strip(layout, slot)[1]
    checker = _disc_colours(image, h_surface, checkers, d_u, d_v)
    board = _disc_colours(image, h_surface, boards, d_u, d_v)
    if checker is None or board is None:
        return None
    checker_ref = np.median(checker, axis=0)
    board_refs = np.median(board.reshape(-1, len(_DISC), 3), axis=1)  # one per spot
    if np.linalg.norm(board_refs - checker_ref, axis=1).min() < MIN_CONTRAST:
        return None
    angles = np.linspace(0, 2 * np.pi, 32, endpoint=False)
    ring = [(u + r * d_u * np.cos(a), v + r * d_v * np.sin(a)) for r in RING for a in angles]
    samples = _lab_at(image, h_surface, ring)
    if samples is None:
        return None
    to_checker = np.linalg.norm(samples - checker_ref, axis=1)
    to_board = np.linalg.norm(samples[:, None, :] - board_refs[None], axis=2).min(axis=1)
    return bool(np.mean(to_checker < to_board) >= ON_SHARE)


def _strip(layout: SurfaceLayout, slot: int) -> tuple[float, float, float, float]:
    """(u centre, checker diameter in u, v of the base, +1 / -1 along) of a slot's stack."""
    if slot < 24:
        u0, u1 = layout.point_u(slot + 1)
        top = slot >= 12
        return (u0 + u1) / 2, 0.9 * (u1 - u0), 0.0 if top else 1.0, 1.0 if top else -1.0
    return ((layout.bar_u0 + layout.bar_u1) / 2, 0.9 * layout.pitch, 0.5,
            1.0 if slot == BAR_LOWER else -1.0)


_DISC = [(0.0, 0.0)] + [(0.25 * np.cos(a), 0.25 * np.sin(a))
                        for a in np.linspace(0, 2 * np.pi, 8, endpoint=False)]


def _disc_colours(image: np.ndarray, h_surface: np.ndarray, centres, d_u: float,
                  d_v: float) -> np.ndarray | None:
    """CIELAB samples (9 a centre) of a small disc, a quarter diameter across, around each
    surface centre; None when there are none or they are mostly out of the image."""
    if not centres:
        return None
    spots = [(cu + ou * d_u, cv + ov * d_v) for cu, cv in centres for ou, ov in _DISC]
    return _lab_at(image, h_surface, spots, whole=True)


def _lab_at(image: np.ndarray, h_surface: np.ndarray, spots,
            whole: bool = False) -> np.ndarray | None:
    """CIELAB (float) of the pixels at surface points, those inside the image only (`whole`:
    every point, those outside clamped to the edge, so discs keep their nine samples)."""
    xy = np.rint(map_points(h_surface, np.asarray(spots, np.float64))).astype(int)
    h, w = image.shape[:2]
    inside = (xy[:, 0] >= 0) & (xy[:, 0] < w) & (xy[:, 1] >= 0) & (xy[:, 1] < h)
    if inside.sum() < 0.5 * len(xy):
        return None
    xy = np.clip(xy, 0, [w - 1, h - 1]) if whole else xy[inside]
    bgr = image[xy[:, 1], xy[:, 0]].reshape(-1, 1, 3)
    lab = bgr_to_lab(bgr.astype(np.float32) / 255.0)
    return lab.reshape(-1, 3)
