"""Real checkers moved on real boards: new training strips cut from the photos themselves.

The photos show mostly starting positions: stacks of 2, 3 and 5 at the base, few single
checkers and fewer away from the base, and those are what the reader misses on boards it
never saw. Each photo's boxed checkers are placed in its strips (`place_checkers`); a copy
of the photo is then edited strip by strip with the photo's own pixels, under its own light
(`edit_strips`):
- a single checker of the row is pasted onto an empty point, at the base or further along;
- a stack is cut short after its k-th checker, the rest taken from an empty point of the
  same colour in the same row (points alternate colour by number on every board);
- a checker of the stack's side is pasted just past the stack's last one.
Only strips whose boxes agree with their label are edited (count and side); a pasted
checker must show whole and stand out from what it covers. An edited copy keeps its clean
strips, edited or not.

Tried as `board_reader --photo-pastes N` and not adopted: every recipe read the held-out
photos worse, mostly by phantoms on bare ornamented points (bench/bench_board_reader.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from nardy_pi.vision.board.layout import STRIP_H, STRIP_W, SurfaceLayout
from nardy_pi.vision.board.strips import Strips, map_points
from nardy_pi.vision.train.strip_data import (
    CORNER_JITTER,
    NO_CUTS,
    CopyCuts,
    Frame,
    StripSet,
    cut_copy,
    labelled,
)

LIGHT_CLASS, DARK_CLASS = 4, 2  # the upstream labels' checker classes (light_p, dark_p)
FEATHER = 2.0  # strip pixels over which a paste blends into the strip beneath
PASTE_CONTRAST = 25.0  # mean level difference a pasted checker must make
FAR_REACH = 4.0  # a moved single lands up to this many checker lengths from the base


def read_checker_boxes(path: Path, width: int, height: int) -> np.ndarray:
    """K x 5 (x0, y0, x1, y1 in image px, +1 light / -1 dark) from an upstream label file
    (darknet boxes, or polygons whose extent is taken)."""
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        parts = line.split()
        if not parts or int(parts[0]) not in (LIGHT_CLASS, DARK_CLASS):
            continue
        side = 1.0 if int(parts[0]) == LIGHT_CLASS else -1.0
        v = np.asarray(parts[1:], float)
        if len(v) == 4:
            cx, cy, w, h = v
            x0, x1, y0, y1 = cx - w / 2, cx + w / 2, cy - h / 2, cy + h / 2
        elif len(v) >= 6 and len(v) % 2 == 0:
            x0, y0 = v.reshape(-1, 2).min(0)
            x1, y1 = v.reshape(-1, 2).max(0)
        else:
            continue
        rows.append([x0 * width, y0 * height, x1 * width, y1 * height, side])
    return np.asarray(rows, float).reshape(-1, 5)


@dataclass(frozen=True, slots=True)
class Placed:
    """A boxed checker in its point's strip, in strip pixels (row along from the base)."""

    row: float
    col: float
    row_radius: float
    col_radius: float
    side: int  # +1 light, -1 dark


def _strip_px(layout: SurfaceLayout, slot: int, u: np.ndarray, v: np.ndarray
              ) -> tuple[np.ndarray, np.ndarray]:
    uc, half, base, far = layout.slot_span(slot)
    return ((v - base) / (far - base) * STRIP_H, (u - (uc - half)) / (2 * half) * STRIP_W)


def place_checkers(h_surface: np.ndarray, layout: SurfaceLayout, boxes: np.ndarray
                   ) -> dict[int, list[Placed]]:
    """Each point slot's boxed checkers, nearest the base first (bar checkers left out)."""
    if not len(boxes):
        return {}
    h_inv = np.linalg.inv(h_surface)
    placed: dict[int, list[Placed]] = {}
    for x0, y0, x1, y1, side in boxes:
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        probe = np.array([[cx, cy], [x0, cy], [x1, cy], [cx, y0], [cx, y1]])
        uv = map_points(h_inv, probe)
        at = layout.slot_at(*uv[0])
        if at is None or at[0] >= 24:
            continue
        slot = at[0]
        rows, cols = _strip_px(layout, slot, uv[:, 0], uv[:, 1])
        placed.setdefault(slot, []).append(Placed(
            float(rows[0]), float(cols[0]), float(np.ptp(rows)) / 2, float(np.ptp(cols)) / 2,
            int(side)))
    for stack in placed.values():
        stack.sort(key=lambda p: p.row)
    return placed


def boxes_agree(stack: list[Placed], count: int) -> bool:
    """A point's boxed checkers are as many as its label says, all of its side."""
    return len(stack) == abs(count) and all(p.side == np.sign(count) for p in stack)


def _ellipse_alpha(row: float, col: float, rr: float, rc: float) -> np.ndarray:
    """STRIP_H x STRIP_W weights: 1 inside the ellipse, falling to 0 over FEATHER pixels."""
    ys, xs = np.mgrid[0:STRIP_H, 0:STRIP_W].astype(np.float32) + 0.5
    d = np.sqrt(((ys - row) / max(rr, 1.0)) ** 2 + ((xs - col) / max(rc, 1.0)) ** 2)
    edge = FEATHER / max(min(rr, rc), 1.0)
    return np.clip((1.0 - d) / edge + 0.5, 0.0, 1.0)


def _rows_alpha(cut_row: float) -> np.ndarray:
    """STRIP_H x 1 weights: 0 before `cut_row`, 1 after it, blended over FEATHER pixels."""
    rows = np.arange(STRIP_H, dtype=np.float32) + 0.5
    return np.clip((rows - cut_row) / (2 * FEATHER) + 0.5, 0.0, 1.0)[:, None]


def _shifted(strip: np.ndarray, drow: int) -> np.ndarray:
    """The strip moved `drow` rows along (edge rows repeated)."""
    idx = np.clip(np.arange(STRIP_H) - drow, 0, STRIP_H - 1)
    return strip[idx]


class _Editor:
    def __init__(self, strips: Strips, counts: np.ndarray) -> None:
        # pastes and donors are taken from the copy as cut, never from an edited strip
        self.original = strips.raw.astype(np.float32), strips.unknown
        self.raw = self.original[0].copy()
        self.unknown = strips.unknown.copy()
        self.counts = np.asarray(counts, np.int64).copy()
        self.edited = np.zeros(len(counts), bool)

    def blend(self, slot: int, src: np.ndarray, src_unknown: np.ndarray, alpha: np.ndarray
              ) -> None:
        a = alpha[..., None]
        self.raw[slot] = self.raw[slot] * (1 - a) + src * a
        self.unknown[slot] = np.where(alpha > 0.5, src_unknown, self.unknown[slot])
        self.edited[slot] = True

    def paste(self, slot: int, source: tuple[int, Placed], row: float) -> bool:
        """The checker `source` (its slot, its place) pasted with its centre at `row`, when
        it shows whole and stands out from what it covers (a checker that looks like the
        board, pasted and labelled, teaches the model to see checkers in bare boards)."""
        from_slot, p = source
        if (p.row - p.row_radius < 0 or p.row + p.row_radius > STRIP_H
                or p.col - p.col_radius < -1 or p.col + p.col_radius > STRIP_W + 1):
            return False
        drow = round(row - p.row)
        src = _shifted(self.original[0][from_slot], drow)
        src_unknown = _shifted(self.original[1][from_slot], drow)
        alpha = _ellipse_alpha(p.row + drow, p.col, p.row_radius, p.col_radius)
        inside = alpha > 0.5
        if src_unknown[inside].mean() > 0.02:
            return False
        if np.abs(src[inside] - self.raw[slot][inside]).mean() < PASTE_CONTRAST:
            return False
        self.blend(slot, src, src_unknown, alpha)
        return True

    def strips(self, visible: np.ndarray) -> Strips:
        return Strips(np.clip(np.round(self.raw), 0, 255).astype(np.uint8), self.unknown, visible)


def _row_of(slot: int) -> int:
    return 0 if slot < 12 else 1


def edit_strips(strips: Strips, counts: np.ndarray, clean: np.ndarray,
                placed: dict[int, list[Placed]], rng: np.random.Generator,
                share: float = 0.6) -> tuple[Strips, np.ndarray, np.ndarray]:
    """Edit about `share` of the clean point strips (a SLOTS bool mask: labelled, in view,
    boxes agreeing with the count) with the photo's own checkers and empty points. Returns
    the edited strips (visible from `strips`), their counts and a mask of the slots edited."""
    ed = _Editor(strips, counts)
    checkers = {row: [(s, p) for s, stack in placed.items() if clean[s] and _row_of(s) == row
                      for p in stack] for row in (0, 1)}
    firsts = {row: [stack[0].row for s, stack in placed.items()
                    if clean[s] and _row_of(s) == row and stack] for row in (0, 1)}
    for slot in np.nonzero(clean[:24])[0]:
        if rng.random() >= share:
            continue
        row = _row_of(slot)
        n = int(counts[slot])
        stack = placed.get(slot, [])
        empties = [s for s in range(row * 12, row * 12 + 12)
                   if s != slot and clean[s] and counts[s] == 0 and s % 2 == slot % 2]
        if n == 0:
            if not checkers[row] or not firsts[row]:
                continue
            source = checkers[row][rng.integers(len(checkers[row]))]
            p = source[1]
            at = float(rng.choice(firsts[row]))
            if rng.random() < 0.5:  # away from the base, as loose checkers lie
                at += rng.uniform(0.5, FAR_REACH) * 2 * p.row_radius
            if at + p.row_radius > STRIP_H:
                continue
            if ed.paste(slot, source, at):
                ed.counts[slot] = p.side
            continue
        if abs(n) >= 2 and empties and rng.random() < 0.5:
            k = int(rng.integers(1, abs(n)))
            cut_row = (stack[k - 1].row + stack[k - 1].row_radius
                       + stack[k].row - stack[k].row_radius) / 2
            donor = empties[rng.integers(len(empties))]
            ed.blend(slot, ed.original[0][donor], ed.original[1][donor], np.broadcast_to(
                _rows_alpha(cut_row), (STRIP_H, STRIP_W)))
            ed.counts[slot] = int(np.sign(n)) * k
            continue
        same = [c for c in checkers[row] if c[1].side == np.sign(n)]
        if not same or abs(n) >= 15:
            continue
        source = same[rng.integers(len(same))]
        last = stack[-1]
        step = (last.row - stack[-2].row) if len(stack) >= 2 else 2 * last.row_radius
        at = last.row + max(step, 1.2 * source[1].row_radius)
        if at + source[1].row_radius > STRIP_H:
            continue
        if ed.paste(slot, source, at):
            ed.counts[slot] = n + int(np.sign(n))
    return ed.strips(strips.visible), ed.counts, ed.edited


def pasted_strips_of(frame: Frame, rng: np.random.Generator, group: int,
                     jitter: float = CORNER_JITTER, margin: float = 0.0,
                     cuts: CopyCuts = NO_CUTS, context: bool = False) -> StripSet:
    """One shaken copy of a photo frame, edited: its clean point strips, edited or not, with
    their counts after the edits (none without the photo's boxes)."""
    cut = cut_copy(frame, rng, jitter, margin, cuts)
    boxes = cut.frame.checkers
    if boxes is None or not len(boxes):
        return labelled(cut, group, context, only=np.zeros(len(frame.counts), bool))
    counts = np.asarray(cut.frame.counts, np.int64)
    known = (np.ones(len(counts), bool) if cut.frame.known is None
             else np.asarray(cut.frame.known, bool))
    placed = place_checkers(cut.cutter.h_surface, cut.frame.layout, boxes)
    clean = known & (cut.cutter.visible > 0.9)
    clean[24:] = False
    for slot in range(24):
        clean[slot] &= boxes_agree(placed.get(slot, []), int(counts[slot]))
    strips, new_counts, edited = edit_strips(cut.strips, counts, clean, placed, rng)
    # the copy's unedited clean strips too: edits make checkers, and with only them the
    # photo part's empty points grow scarce
    return labelled(replace(cut, strips=strips), group, context, new_counts,
                    only=edited | clean)


def collect_pasted(frames: Iterable[tuple[Frame, int]], rng: np.random.Generator, copies: int,
                   jitter: float = CORNER_JITTER, margin: float = 0.0,
                   cuts: CopyCuts = NO_CUTS, context: bool = False) -> StripSet:
    """`copies` edited copies of every frame (`pasted_strips_of`)."""
    parts = [pasted_strips_of(frame, rng, group, jitter, margin, cuts, context)
             for frame, group in frames for _ in range(copies)]
    return StripSet.concat(parts) if parts else StripSet.empty(8 if context else 4)
