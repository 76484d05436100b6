"""Cut each slot's strip straight out of the camera frame (no full-frame warp or resize) and
normalise it for the model.

A strip is STRIP_W x STRIP_H pixels, base at row 0. Exposure and white balance are divided out
per frame over all strips together, so light and dark stay relative to this board; saturated
pixels and pixels outside the image are marked unknown (channel 3) instead of being clipped
into some colour.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from nardy_pi.vision.board.layout import SLOTS, STRIP_H, STRIP_W, SurfaceLayout

SATURATED = 250  # any channel at or above this level carries no colour information
_UNIT_SQUARE = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
_STRIP_PX = np.array([[0, 0], [STRIP_W, 0], [STRIP_W, STRIP_H], [0, STRIP_H]], np.float32)
_OVERSAMPLE = 1.3  # frame pixels per strip pixel kept before area-averaging a big frame


@dataclass(frozen=True, slots=True)
class Strips:
    raw: np.ndarray  # SLOTS x STRIP_H x STRIP_W x 3, BGR uint8 as sampled
    unknown: np.ndarray  # SLOTS x STRIP_H x STRIP_W bool: outside the image or saturated
    visible: np.ndarray  # SLOTS float: share of each strip inside the image


def surface_homography(corners) -> np.ndarray:
    """Unit square (u, v) -> image pixels, from the TL, TR, BR, BL corners."""
    dst = np.asarray(corners, np.float64).reshape(4, 2)
    if not np.isfinite(dst).all():
        raise ValueError("corners must be finite numbers")
    area = 0.5 * abs(float(np.dot(dst[:, 0], np.roll(dst[:, 1], 1))
                           - np.dot(dst[:, 1], np.roll(dst[:, 0], 1))))
    if area < 100.0:
        raise ValueError("the four corners enclose almost no area; check their order and values")
    return cv2.getPerspectiveTransform(_UNIT_SQUARE, dst.astype(np.float32))


def map_points(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    pts = np.asarray(pts, np.float64).reshape(-1, 2)
    out = np.hstack([pts, np.ones((len(pts), 1))]) @ np.asarray(h, np.float64).T
    return out[:, :2] / out[:, 2:3]


def _strip_maps(h_surface: np.ndarray, layout: SurfaceLayout) -> list[np.ndarray]:
    """Per slot: strip pixel -> image pixel homography."""
    maps = []
    for slot in range(SLOTS):
        quad = map_points(h_surface, layout.slot_quad(slot)).astype(np.float32)
        maps.append(cv2.getPerspectiveTransform(_STRIP_PX, quad))
    return maps


def _whole_steps(a0: int, a1: int, step: int, limit: int) -> tuple[int, int]:
    """The span a0..a1 grown (or, at the image's edges, shrunk) to a whole number of steps."""
    n = -(-(a1 - a0) // step) * step
    if a0 + n <= limit:
        return a0, a0 + n
    if a1 - n >= 0:
        return a1 - n, a1
    return a0, a0 + (a1 - a0) // step * step


def _remap_tables(maps: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Every slot's strip pixel -> frame pixel, stacked slot after slot, as fixed-point tables
    for one cv2.remap (26 warpPerspective calls cost twice the time: 640x480, 1.4 -> 0.7 ms
    a frame with the unknown mask)."""
    ys, xs = np.mgrid[0:STRIP_H, 0:STRIP_W]
    grid = np.stack([xs.ravel(), ys.ravel(), np.ones(xs.size)]).astype(np.float64)
    q = np.asarray(maps, np.float64) @ grid  # SLOTS x 3 x H*W
    map_x = (q[:, 0] / q[:, 2]).astype(np.float32).reshape(SLOTS * STRIP_H, STRIP_W)
    map_y = (q[:, 1] / q[:, 2]).astype(np.float32).reshape(SLOTS * STRIP_H, STRIP_W)
    return cv2.convertMaps(map_x, map_y, cv2.CV_16SC2)


class StripCutter:
    """Precomputes the per-slot maps for one surface placement and frame size."""

    def __init__(self, corners, layout: SurfaceLayout, frame_size: tuple[int, int]) -> None:
        self.layout = layout
        self.h_surface = surface_homography(corners)
        self.frame_size = frame_size  # width, height
        maps = _strip_maps(self.h_surface, layout)
        w, h = frame_size
        quads = np.array([map_points(m, _STRIP_PX) for m in maps])  # SLOTS x 4 x 2
        # Strips whose corners all lie in the frame are wholly inside it (they are convex);
        # only the others need a per-pixel look.
        self.outside = np.zeros((SLOTS, STRIP_H, STRIP_W), bool)
        inside = ((quads[..., 0] >= 0) & (quads[..., 0] < w) & (quads[..., 1] >= 0)
                  & (quads[..., 1] < h)).all(axis=1)
        if not inside.all():
            ys, xs = np.mgrid[0:STRIP_H, 0:STRIP_W]
            grid = np.stack([xs.ravel() + 0.5, ys.ravel() + 0.5], 1)
            for slot in np.nonzero(~inside)[0]:
                p = map_points(maps[slot], grid)
                ok = (p[:, 0] >= 0) & (p[:, 0] < w) & (p[:, 1] >= 0) & (p[:, 1] < h)
                self.outside[slot] = ~ok.reshape(STRIP_H, STRIP_W)
        self.visible = 1.0 - self.outside.reshape(SLOTS, -1).mean(1)
        lo, hi = quads.reshape(-1, 2).min(0), quads.reshape(-1, 2).max(0)
        x0, y0 = max(0, int(lo[0]) - 2), max(0, int(lo[1]) - 2)
        x1, y1 = min(w, int(hi[0]) + 3), min(h, int(hi[1]) + 3)
        if x1 <= x0 or y1 <= y0 or not self.visible.any():
            raise ValueError("the playing surface lies outside the image")
        # Frame pixels per strip pixel, across the strips: a big frame is area-averaged
        # first so that sampling does not alias thin rims.
        density = np.linalg.norm(quads[:, 1] - quads[:, 0], axis=1) / STRIP_W
        factor = min(1.0, _OVERSAMPLE / max(1e-6, float(np.median(density))))
        self.factor = factor if factor < 0.8 else 1.0
        self.step = 0  # frame pixels per resized pixel, when a whole number
        if self.factor <= 0.5:
            # Shrunk by a whole number, on a crop of whole steps, OpenCV's area resize takes
            # its fast path (1280x960: 4.1 -> 0.2 ms); a little more detail is kept.
            self.step = int(1.0 / self.factor)
            self.factor = 1.0 / self.step
            x0, x1 = _whole_steps(x0, x1, self.step, w)
            y0, y1 = _whole_steps(y0, y1, self.step, h)
        self.crop = (x0, y0, x1, y1)
        shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64)
        scale = np.diag([self.factor, self.factor, 1.0])
        self._remap = _remap_tables([scale @ shift @ m for m in maps])

    def cut(self, image: np.ndarray) -> Strips:
        h, w = image.shape[:2]
        if (w, h) != self.frame_size:
            raise ValueError(f"frame is {w}x{h}, the strips were laid out for "
                             f"{self.frame_size[0]}x{self.frame_size[1]}")
        x0, y0, x1, y1 = self.crop
        part = image[y0:y1, x0:x1]
        if self.step:
            part = cv2.resize(part, ((x1 - x0) // self.step, (y1 - y0) // self.step),
                              interpolation=cv2.INTER_AREA)
        elif self.factor < 1.0:
            part = cv2.resize(part, None, fx=self.factor, fy=self.factor,
                              interpolation=cv2.INTER_AREA)
        raw = cv2.remap(part, *self._remap, cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_REPLICATE).reshape(SLOTS, STRIP_H, STRIP_W, 3)
        b, g, r = cv2.split(raw.reshape(SLOTS * STRIP_H, STRIP_W, 3))
        brightest = cv2.max(cv2.max(b, g), r).reshape(SLOTS, STRIP_H, STRIP_W)
        unknown = self.outside | (brightest >= SATURATED)
        return Strips(raw, unknown, self.visible)


def cached_cutter(corners, layout: SurfaceLayout, frame_size: tuple[int, int]) -> StripCutter:
    """A StripCutter shared by every reader of one placement (a fixed camera re-reads the
    same corners and, mostly, the same measured bars every frame). Cutters are not changed
    after they are built."""
    key = tuple(float(v) for v in np.asarray(corners, np.float64).ravel())
    return _cutter(key, layout, (int(frame_size[0]), int(frame_size[1])))


@lru_cache(maxsize=32)
def _cutter(corners: tuple[float, ...], layout: SurfaceLayout,
            frame_size: tuple[int, int]) -> StripCutter:
    return StripCutter(np.array(corners, np.float64).reshape(-1, 2), layout, frame_size)


def normalise(strips: Strips) -> np.ndarray:
    """SLOTS x 4 x STRIP_H x STRIP_W float32: BGR divided by this frame's own level and
    spread (over every known strip pixel), plus the unknown mask; unknown pixels read 0."""
    flat = strips.raw.reshape(-1, 1, 3)
    known = (~strips.unknown).reshape(-1, 1).astype(np.uint8)
    if int(known.sum()) < 64:
        mean, std = np.full(3, 128.0), np.full(3, 64.0)
    else:
        mean, std = (v.ravel() for v in cv2.meanStdDev(flat, mask=known))
    scale = 1.0 / (std + 4.0)
    planes = cv2.split(strips.raw.reshape(SLOTS * STRIP_H, STRIP_W, 3))
    keep = (~strips.unknown).reshape(SLOTS * STRIP_H, STRIP_W).astype(np.float32)
    out = np.empty((SLOTS, 4, STRIP_H, STRIP_W), np.float32)
    for c in range(3):
        x = planes[c].astype(np.float32)
        x -= float(mean[c])
        x *= float(scale[c])
        x *= keep
        out[:, c] = x.reshape(SLOTS, STRIP_H, STRIP_W)
    out[:, 3] = strips.unknown
    return out


#: the two quadrants of each row, in slot order: points 1..6 and 7..12 along the bottom edge,
#: 13..18 and 19..24 along the top
_ROWS = ((tuple(range(0, 6)), tuple(range(6, 12))), (tuple(range(12, 18)), tuple(range(18, 24))))
_BARS = {24: 0, 25: 1}  # each bar half and the row it lies along


def _colour_distance(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.abs(a - b).mean())


def _median(x: np.ndarray) -> np.ndarray:
    """Per-pixel median over the first axis (np.sort along it is faster than np.median)."""
    n = len(x)
    ordered = np.sort(x, axis=0)
    return ordered[n // 2] if n % 2 else ordered[n // 2 - 1:n // 2 + 1].mean(axis=0)


def point_kinds(x: np.ndarray) -> list[list[int]]:
    """The four kinds of point of one frame: each row's points of one colour. Points alternate
    colour within a quadrant on every board, but whether the alternation carries across the
    bar differs between boards, so it is measured: the quadrants' halves are paired the way
    their median strips look most alike."""
    kinds = []
    for left, right in _ROWS:
        halves = [[list(q[p::2]) for p in (0, 1)] for q in (left, right)]
        # a coarse look is enough to pair the colours
        med = [[_median(x[h, :3, ::4, ::4]) for h in q] for q in halves]
        straight = (_colour_distance(med[0][0], med[1][0])
                    + _colour_distance(med[0][1], med[1][1]))
        crossed = (_colour_distance(med[0][0], med[1][1])
                   + _colour_distance(med[0][1], med[1][0]))
        other = (0, 1) if straight <= crossed else (1, 0)
        kinds += [halves[0][0] + halves[1][other[0]], halves[0][1] + halves[1][other[1]]]
    return kinds


def with_context(x: np.ndarray) -> np.ndarray:
    """SLOTS x 4 x H x W normalised strips of one frame -> SLOTS x 8 x H x W: each strip with
    a reference beside it, the per-pixel median of the strips of its kind in this frame
    (`point_kinds`; a bar half: every point of its row) and their share of unknown pixels.
    Most points of a kind are empty at most heights, so the median shows this board's empty
    point under this light: a checker that looks like its point, or a point that looks like a
    checker, is told apart against it."""
    if len(x) != SLOTS:
        raise ValueError(f"context needs one frame's {SLOTS} strips, not {len(x)}")
    out = np.empty((SLOTS, 8, *x.shape[2:]), np.float32)
    out[:, :4] = x
    groups = [(kind, kind) for kind in point_kinds(x)]
    groups += [([bar], list(_ROWS[row][0] + _ROWS[row][1])) for bar, row in _BARS.items()]
    for slots, ref in groups:
        out[slots, 4:7] = _median(x[ref, :3])
        out[slots, 7] = x[ref, 3].mean(axis=0)
    return out


def model_input(strips: Strips, context: bool = False) -> np.ndarray:
    """The strips as a model reads them: normalised, with each one's context when the model
    was trained with it (`StripModel.context`)."""
    x = normalise(strips)
    return with_context(x) if context else x
