"""Count checkers per point, on the bar and in the trays, from the classified board raster.

Up to a full row, the occupied length gives the count. Beyond it (stacks of 6-15) the length is
always full, so the count comes from where checker rims show: each count predicts a rim
pattern under each stacking convention (stacking.py) and the best match wins. Colour decides
white or black against classes learned at calibration, so dark-on-dark and light-on-light
depend on the learned difference, not on a fixed threshold.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from nardy_pi.vision import geometry as g
from nardy_pi.vision.stacking import stack_layout, visible_edges

BAND_HALF = 0.3  # half-width of the band sampled along a stack, board units
MAX_STACK = 15
_MAX_SLIDE = 2  # raster pixels the rim profile may slide when matched
_OCCUPIED = 0.45  # share of a band row that must be checker-coloured


@dataclass(frozen=True, slots=True)
class StackReading:
    count: int  # signed: + white, - black
    extent: float  # occupied length from the base, board units


@dataclass(frozen=True, slots=True)
class Census:
    points: tuple[StackReading, ...]
    bar_white: StackReading
    bar_black: StackReading
    off_white: int | None
    off_black: int | None


@dataclass(frozen=True)
class ClassifiedRaster:
    """What the census reads: checker-coloured pixels, grey levels, pixels to ignore."""

    white: np.ndarray  # bool per raster pixel
    black: np.ndarray
    grey: np.ndarray  # float32, lighting-corrected
    unexplained: np.ndarray  # bool: a colour no class explains (rims, glare, dice)
    hidden: np.ndarray  # bool: under a die or the cube, or outside the image
    scale: float
    x0: float
    y0: float

    @property
    def ignore(self) -> np.ndarray:
        return self.unexplained | self.hidden


@dataclass(frozen=True, slots=True)
class Band:
    """The pixels along one stack, row 0 at the base (white, black, grey, ignore, hidden)."""

    white: np.ndarray
    black: np.ndarray
    grey: np.ndarray
    ignore: np.ndarray
    hidden: np.ndarray


def _band(raster: ClassifiedRaster, strip: g.Strip, half: float, length: float) -> Band:
    s = raster.scale
    cx = strip.base[0]
    c0 = round((cx - half - raster.x0) * s)
    c1 = round((cx + half - raster.x0) * s)
    if strip.direction[1] > 0:
        r0 = round((strip.base[1] - raster.y0) * s)
        rows = slice(r0, r0 + round(length * s))
        flip = False
    else:
        r1 = round((strip.base[1] - raster.y0) * s)
        rows = slice(r1 - round(length * s), r1)
        flip = True

    def take(a: np.ndarray) -> np.ndarray:
        out = a[rows, c0:c1]
        return out[::-1] if flip else out

    return Band(take(raster.white), take(raster.black), take(raster.grey), take(raster.ignore),
                take(raster.hidden))


def _row_share(mask: np.ndarray, ignore: np.ndarray, base_rows: int = 0) -> np.ndarray:
    """Share of each row's visible pixels in `mask`. A row hidden (by a die) takes the smaller
    of its nearest visible neighbours: a die resting on a stack must not split it in two, and
    a die just past a stack's end must not lengthen it (a top checker the die hides, whose rim
    frames it, is added back by _hidden_top). A die within `base_rows` of the base takes the
    larger: it rests on the first checker, and only the frame's edge shows before it."""
    seen = (~ignore).sum(axis=1)
    known = seen >= max(1, 0.5 * mask.shape[1])
    share = (mask & ~ignore).sum(axis=1) / np.maximum(seen, 1)
    if not known.any():
        return np.zeros(len(share))
    idx = np.arange(len(share))
    prev_idx = np.maximum.accumulate(np.where(known, idx, -1))
    next_idx = np.minimum.accumulate(np.where(known, idx, len(idx))[::-1])[::-1]
    prev = share[np.clip(prev_idx, 0, None)]
    nxt = share[np.clip(next_idx, None, len(idx) - 1)]
    # A die at the band's start or end has one neighbour only: that one decides.
    prev = np.where(prev_idx >= 0, prev, nxt)
    nxt = np.where(next_idx < len(idx), nxt, prev)
    fill = np.where(prev_idx < base_rows, np.maximum(prev, nxt), np.minimum(prev, nxt))
    return np.where(known, share, fill)


def _extent(occ: np.ndarray, scale: float) -> float:
    """Occupied length from the base: the longest run from the base that is mostly occupied.

    Stacks are contiguous from the base, so short unoccupied stretches inside (the pinch
    between touching checkers, a die resting on one) are bridged, while a checker-coloured
    speck far beyond an empty stretch is not.
    """
    occupied = np.convolve(occ, np.ones(3) / 3, mode="same") > _OCCUPIED
    # Close the short gaps a squeezed stack's rims leave (each under ~0.3 units) without
    # moving the stack's ends.
    k = max(3, int(0.3 * scale) | 1)
    occupied = cv2.morphologyEx(occupied.astype(np.uint8).reshape(-1, 1), cv2.MORPH_CLOSE,
                                np.ones((k, 1), np.uint8)).ravel().astype(bool)
    # Stacks start at the base; a leading gap can only be the first checker hidden under a
    # die the dice reader missed, so it is skipped when judging the share and kept in the
    # length.
    start_window = occupied[: int(1.0 * scale)]
    if not start_window.any():
        return 0.0
    first = int(np.argmax(start_window))
    rest = occupied[first:]
    share = np.cumsum(rest) / np.arange(1, len(rest) + 1)
    ends = np.nonzero(rest & (share >= 0.7))[0]
    return (first + int(ends.max()) + 1) / scale if len(ends) else 0.0


def _rim_profile(grey: np.ndarray, scale: float) -> np.ndarray:
    mid = grey.shape[1] // 2
    half = max(1, int(0.15 * scale))
    profile = grey[:, mid - half : mid + half + 1].mean(axis=1).astype(np.float32)
    k = max(3, int(0.3 * scale) | 1)
    smooth = cv2.blur(profile.reshape(-1, 1), (1, k), borderType=cv2.BORDER_REPLICATE).ravel()
    return np.abs(profile - smooth)


@lru_cache(maxsize=64)
def _templates(length: float, n_rows: int, scale: float, styles: tuple[str, ...],
               first: int) -> tuple[np.ndarray, tuple[int, ...]]:
    """Predicted rim profiles (one row per hypothesis) and the count each row stands for."""
    t = (np.arange(n_rows) + 0.5) / scale
    rows, counts = [], []
    for n in range(first, MAX_STACK + 1):
        for style in styles:
            tpl = np.zeros(n_rows, np.float32)
            for e in visible_edges(n, style, length, g.CHECKER):
                tpl += np.exp(-0.5 * ((t - e) * scale) ** 2)
            rows.append(tpl)
            counts.append(n)
    return np.array(rows), tuple(counts)


def _best_full_count(rims: np.ndarray, visible: np.ndarray, strip: g.Strip, scale: float,
                     styles, first: int) -> int:
    """Among counts from `first` to 15, the one whose predicted rims match best (on the rows
    not hidden by a die). The profile may slide a pixel or two: corners found by markers or
    by hand are never exact, and a small slide should not turn 15 into 14."""
    t = (np.arange(len(rims)) + 0.5) / scale
    window = (t >= 0.15) & (t <= strip.length - 0.15) & visible
    templates, counts = _templates(strip.length, len(rims), scale, tuple(styles), first)
    tpl = templates[:, window]
    tpl = tpl - tpl.mean(axis=1, keepdims=True)
    tpl_norm = np.linalg.norm(tpl, axis=1) + 1e-9
    best = np.full(len(counts), -np.inf)
    for shift in range(-_MAX_SLIDE, _MAX_SLIDE + 1):
        obs = np.roll(rims, shift)[window]
        obs = obs - obs.mean()
        best = np.maximum(best, tpl @ obs / (tpl_norm * (np.linalg.norm(obs) + 1e-9)))
    return counts[int(np.argmax(best))]


def ring_colour(raster: ClassifiedRaster, x: float, y: float) -> tuple[float, float]:
    """White and black shares of the visible ring just around a die at board (x, y): a die
    resting on a checker is framed by that checker's rim all round."""
    s = raster.scale
    r_out = g.CHECKER / 2 + 0.02
    c0, r0 = int((x - r_out - raster.x0) * s), int((y - r_out - raster.y0) * s)
    c1, r1 = int((x + r_out - raster.x0) * s) + 1, int((y + r_out - raster.y0) * s) + 1
    if c0 < 0 or r0 < 0 or r1 > raster.white.shape[0] or c1 > raster.white.shape[1]:
        return 0.0, 0.0
    yy, xx = np.mgrid[r0:r1, c0:c1]
    d = np.hypot((xx + 0.5) / s + raster.x0 - x, (yy + 0.5) / s + raster.y0 - y)
    # The die's own box is "hidden", but its rim ring is what matters here.
    ring = (d >= 0.28) & (d <= r_out) & ~raster.unexplained[r0:r1, c0:c1]
    if ring.sum() < 10:
        return 0.0, 0.0
    total = ring.sum()
    return (float((raster.white[r0:r1, c0:c1] & ring).sum() / total),
            float((raster.black[r0:r1, c0:c1] & ring).sum() / total))


#: share of a die's ring in a checker colour that says the die hides a checker (named styles:
#: dice on a stack's top checker 0.40-0.72, dice beside a stack's end 0.04-0.11)
_HIDDEN_TOP_RING = 0.35


def _under_die(raster: ClassifiedRaster, strip: g.Strip, dice_spots) -> int:
    """A lone checker fully hidden by a die resting on it: +1 white, -1 black, 0 none."""
    for x, y in dice_spots:
        t = (y - strip.base[1]) * strip.direction[1]
        if abs(x - strip.base[0]) < 0.25 and 0.1 < t < g.CHECKER - 0.1:
            white, black = ring_colour(raster, x, y)
            if max(white, black) > _HIDDEN_TOP_RING:
                return 1 if white > black else -1
    return 0



def _hidden_top(raster: ClassifiedRaster, strip: g.Strip, n: int, white: bool,
                dice_spots) -> bool:
    """Does a die rest on one more checker just past a row of `n`? Its body hides that
    checker from the occupied length, but the checker's rim frames the die all round."""
    slot = n * g.CHECKER
    for x, y in dice_spots:
        t = (y - strip.base[1]) * strip.direction[1]
        if abs(x - strip.base[0]) < 0.25 and slot + 0.1 < t < slot + g.CHECKER - 0.1:
            share = ring_colour(raster, x, y)[0 if white else 1]
            if share > _HIDDEN_TOP_RING:
                return True
    return False


def read_stack(raster: ClassifiedRaster, strip: g.Strip, styles,
               dice_spots: tuple[tuple[float, float], ...] = ()) -> StackReading:
    band = _band(raster, strip, BAND_HALF, strip.length)
    white, black, grey, ignore, hidden = (band.white, band.black, band.grey, band.ignore,
                                          band.hidden)
    if white.size == 0:
        return StackReading(0, 0.0)
    is_white = (white & ~ignore).sum() >= (black & ~ignore).sum()
    occ = _row_share(white if is_white else black, ignore, round(g.CHECKER / 2 * raster.scale))
    extent = _extent(occ, raster.scale)
    fit = max(1, round(strip.length / g.CHECKER))
    n = round(extent / g.CHECKER)
    if n >= fit:
        visible = hidden.mean(axis=1) < 0.3
        n = _best_full_count(_rim_profile(grey, raster.scale), visible, strip, raster.scale,
                             styles, fit)
    n = min(n, MAX_STACK)
    if n == 0 and dice_spots:
        lone = _under_die(raster, strip, dice_spots)
        return StackReading(lone, g.CHECKER if lone else 0.0)
    if 0 < n < fit and dice_spots and _hidden_top(raster, strip, n, is_white, dice_spots):
        n += 1
        extent = max(extent, n * g.CHECKER)
    return StackReading(n if is_white else -n, extent)


def read_tray(raster: ClassifiedRaster, colour: str) -> int:
    strip = g.tray_strip(colour)
    band = _band(raster, strip, strip.width / 2 - 0.2, strip.length)
    white, black, ignore = band.white, band.black, band.ignore
    occ = _row_share(white if colour == "white" else black, ignore)
    occupied = np.convolve(occ, np.ones(3) / 3, mode="same") > _OCCUPIED
    if not occupied.any():
        return 0
    end = int(np.nonzero(occupied)[0].max()) + 1
    return min(MAX_STACK, round(end / raster.scale / g.OFF_THICKNESS))


def take_census(raster: ClassifiedRaster, trays: bool, styles,
                dice_spots: tuple[tuple[float, float], ...] = ()) -> Census:
    """`dice_spots`: board positions of dice found, so a checker hidden under one counts."""
    points = tuple(read_stack(raster, g.point_strip(p), styles, dice_spots) for p in range(1, 25))
    bar_w = read_stack(raster, g.bar_strip("white"), styles, dice_spots)
    bar_b = read_stack(raster, g.bar_strip("black"), styles, dice_spots)
    # Bar strips are fixed to a colour; a checker of the other colour there is not counted.
    bar_w = bar_w if bar_w.count >= 0 else StackReading(0, 0.0)
    bar_b = bar_b if bar_b.count <= 0 else StackReading(0, 0.0)
    return Census(
        points=points, bar_white=bar_w, bar_black=bar_b,
        off_white=read_tray(raster, "white") if trays else None,
        off_black=read_tray(raster, "black") if trays else None,
    )


#: a die on a checker is framed by it: at least this share of its ring in checker colour
#: (named styles: dice on checkers 0.19-0.82; dice just past a stack read one too long 0.04-0.11)
_ON_CHECKER_RING = 0.15
#: how far across a stack a die's centre may lie and still rest on it (a die half over the
#: rim tips off; the renders' dice on checkers lie within 0.21)
_ON_CHECKER_ACROSS = 0.35


def die_on_checker(census: Census, raster: ClassifiedRaster, x: float, y: float) -> bool:
    """Does a die at board (x, y) rest on a checker? It lies over a stack the census found,
    and checker colour frames it: a die just past a stack's end, that the census counted as
    one more checker, has board all round it."""
    return (checker_at(census, x, y, across=_ON_CHECKER_ACROSS)
            and max(ring_colour(raster, x, y)) >= _ON_CHECKER_RING)


def checker_at(census: Census, x: float, y: float, across: float = g.CHECKER / 2) -> bool:
    """Is board spot (x, y) on a checker the census found, within `across` of a stack's line?"""
    def on(strip: g.Strip, reading: StackReading) -> bool:
        if reading.count == 0 or abs(x - strip.base[0]) > across:
            return False
        t = (y - strip.base[1]) * strip.direction[1]
        return 0.0 <= t <= max(reading.extent, _layout_extent(abs(reading.count), strip))

    for p in range(1, 25):
        if on(g.point_strip(p), census.points[p - 1]):
            return True
    return on(g.bar_strip("white"), census.bar_white) or on(g.bar_strip("black"), census.bar_black)


def _layout_extent(count: int, strip: g.Strip) -> float:
    layout = stack_layout(count, "rows", strip.length, g.CHECKER)
    return max((p.offset for p in layout), default=-g.CHECKER) + g.CHECKER


def stack_region(census: Census, shape: tuple[int, int], scale: float, x0: float, y0: float,
                 trays: bool) -> np.ndarray:
    """Where checkers can be seen given the census: each stack from its base to just past its
    end, and the trays. Checker colour anywhere else is something else (a dark sleeve)."""
    out = np.zeros(shape, np.uint8)
    stacks = [(g.point_strip(p), census.points[p - 1]) for p in range(1, 25)]
    stacks += [(g.bar_strip("white"), census.bar_white), (g.bar_strip("black"), census.bar_black)]
    for strip, reading in stacks:
        if reading.count == 0:
            continue
        end = strip.base[1] + strip.direction[1] * (reading.extent + 0.15)
        lo, hi = sorted((strip.base[1], end))
        cx = strip.base[0]
        c0, c1 = round((cx - 0.5 - x0) * scale), round((cx + 0.5 - x0) * scale)
        out[max(0, round((lo - y0) * scale)) : round((hi - y0) * scale), max(0, c0) : c1] = 1
    if trays:
        c0, c1 = round((g.TRAY_X0 - x0) * scale), round((g.TRAY_X1 - x0) * scale)
        out[:, c0:c1] = 1
    return out.astype(bool)
