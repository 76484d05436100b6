"""Finding the playing surface in an image with no help: ArUco markers, else the board itself.

Two finders look at the board itself, and the point pattern inside each surface (the same
test for both, so their confidences share one scale) chooses: the learned corner finder
(board/corner_finder.py: a small model places the corners, the sides snap to the edges near
them), unless the classical outline below scores clearly higher.

The outline is classical and fast (a few ms at 1280x960): the image is shrunk, turned so the
board's long straight edges run along the axes, and the candidate sides are the long straight
lines that survive a morphological opening (triangles, checkers and grain do not). Every
rectangle those lines make is scored by what a playing surface looks like: points alternating
colour six to a half on both long sides (the 24 teeth), and a frame edge along its border. The
winner's sides are refitted to the line pixels near them, so mild perspective is followed.

Corners come back as the board appears (board-frame.md §1): with the bar upright, top_left is
the image's top-left surface corner; with the bar across the image, the image is read turned a
quarter clockwise (top_left = the bottom-left surface corner).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, Literal

import cv2
import numpy as np

from nardy_pi.vision import geometry as g

if TYPE_CHECKING:  # the model's module loads only when the learned finder runs
    from nardy_pi.vision.board.corner_finder import CornerModel

WORK_SIDE = 320  # the longer side of the shrunken working image, px
MARKER_SIDE = 960  # ArUco markers are looked for at this longer side at most
MIN_SPAN = 0.3  # a surface side spans at least this share of the working image
ASPECT_RANGE = (0.8, 1.9)  # surface width across the bar / height, loose (real boards vary)
PEAKS = 7  # candidate lines kept per axis
# confidence below this: say "not found" rather than guess
MIN_CONFIDENCE = 0.1
#: the outline replaces the learned corners only when its point pattern scores this much
#: more (real photos held out by board, within 3% of the true corners: 41 of 151 this way,
#: 31 taking the higher score, 41 the learned corners alone; held-out renders 31, 32, 31)
OUTLINE_EDGE = 0.2
#: a surface found below this is only a guess, which `analyze` does not read (a guess read
#: gets about half the slots right). bench_find_surface: real photos held out by board, of
#: the 41 finds within 3% of the true corners 20 score 0.5 or more, of the 110 further off
#: 33; held-out renders, all 31 right finds and 12 of the 29 others. Callers that check a
#: find another way (calibrate reads the known position back) may take any.
TRUSTED_CONFIDENCE = 0.5


@dataclass(frozen=True, slots=True)
class SurfaceFound:
    corners: g.Corners  # top_left, top_right, bottom_right, bottom_left, image px
    confidence: float  # 0..1
    source: str  # "markers", "learned" or "outline"
    bar_upright: bool  # the bar runs top to bottom in the image


def find_surface(image: np.ndarray, use_markers: bool = True,
                 learned: CornerModel | Literal[False] | None = None) -> SurfaceFound | None:
    """The playing surface's corners, or None when nothing looks like one. After ArUco
    markers, the learned corner finder and the classical outline both look; the learned
    corners stand unless the outline's point pattern scores OUTLINE_EDGE more. `learned`: a
    CornerModel, None for the shipped one, False for the outline alone."""
    if image is None or image.ndim not in (2, 3) or min(image.shape[:2]) < 32:
        return None
    # one shrink serves both searches: markers stay large enough, the outline needs less
    first = min(1.0, MARKER_SIDE / max(image.shape[:2]))
    shrunk = image if first == 1.0 else cv2.resize(image, None, fx=first, fy=first,
                                                   interpolation=cv2.INTER_AREA)
    if use_markers:
        from nardy_pi.vision.markers import find_marker_corners

        colour = shrunk if shrunk.ndim == 3 else cv2.cvtColor(shrunk, cv2.COLOR_GRAY2BGR)
        marked = find_marker_corners(colour)
        if marked is not None:
            return SurfaceFound(corners=tuple((x / first, y / first) for x, y in marked),
                                confidence=1.0, source="markers", bar_upright=True)
    grey = shrunk if shrunk.ndim == 2 else cv2.cvtColor(shrunk, cv2.COLOR_BGR2GRAY)
    learned_find, outline = _learned(image, grey, first, learned), _outline(grey, first)
    best = learned_find
    if outline is not None and (best is None
                                or outline.confidence > best.confidence + OUTLINE_EDGE):
        best = outline
    return best if best is not None and best.confidence >= MIN_CONFIDENCE else None


def _outline(grey: np.ndarray, first: float) -> SurfaceFound | None:
    """The classical finder on the shrunk grey picture (`first`: its scale)."""
    second = WORK_SIDE / max(grey.shape)
    small = cv2.resize(grey, None, fx=second, fy=second, interpolation=cv2.INTER_AREA)
    scale = first * second
    angle = _dominant_angle(small)
    turned, turn = _rotate(small, angle)
    found = _best_rectangle(turned)
    if found is None:
        return None
    quad, conf, upright = found
    back = cv2.invertAffineTransform(turn)
    pts = np.c_[quad, np.ones(4)] @ back.T / scale
    return SurfaceFound(corners=tuple((float(x), float(y)) for x, y in pts),
                        confidence=float(conf), source="outline", bar_upright=upright)


def _learned(image: np.ndarray, grey: np.ndarray, first: float,
             model: CornerModel | Literal[False] | None) -> SurfaceFound | None:
    """The learned corner finder (board/corner_finder.py), its sides snapped to the edges;
    the bar's direction and the confidence come from the same point-pattern test as the
    outline's, so the two compete on one scale."""
    from nardy_pi.vision.board.corner_finder import learned_corners

    if model is False:
        return None
    got = learned_corners(image, model)
    if got is None:
        return None
    quad = got * first  # picture order, clockwise from its top-left
    if not _plausible(quad, grey.shape):
        return None
    best = None
    for upright in (True, False):
        ordered = quad if upright else quad[[3, 0, 1, 2]]
        score = _quad_pattern(grey, ordered)
        if best is None or score > best[0]:
            best = (score, ordered, upright)
    score, ordered, upright = best
    return SurfaceFound(corners=tuple((float(x) / first, float(y) / first) for x, y in ordered),
                        confidence=min(1.0, score / 0.4), source="learned", bar_upright=upright)


def _plausible(quad: np.ndarray, shape: tuple[int, ...]) -> bool:
    """A convex quadrilateral at least MIN_SPAN of the picture across, mostly in view."""
    q = np.float32(quad)
    if not cv2.isContourConvex(q.reshape(-1, 1, 2)):
        return False
    h, w = shape[:2]
    span = np.ptp(q, axis=0)
    if span[0] < MIN_SPAN * w and span[1] < MIN_SPAN * h:
        return False
    clipped, _ = cv2.intersectConvexConvex(q, np.float32([[0, 0], [w, 0], [w, h], [0, h]]))
    return clipped >= 0.5 * cv2.contourArea(q)


def _quad_pattern(grey: np.ndarray, corners: np.ndarray) -> float:
    """The point-pattern score (_pattern_score) of the surface the corners give, read
    upright: top_left, top_right, bottom_right, bottom_left as the board appears."""
    target = np.float32([[0, 0], [CANON_W - 1, 0], [CANON_W - 1, CANON_H - 1], [0, CANON_H - 1]])
    m = cv2.getPerspectiveTransform(np.float32(corners), target)
    patch = cv2.warpPerspective(cv2.blur(grey, (3, 3)), m, (CANON_W, CANON_H),
                                flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REPLICATE).astype(np.float64)
    seen = cv2.warpPerspective(np.ones_like(grey), m, (CANON_W, CANON_H),
                               flags=cv2.INTER_NEAREST) > 0
    if not seen.any():
        return 0.0
    # outside the picture is not board: flat (no teeth), and it counts against the surface
    patch[~seen] = patch[seen].mean()
    return _pattern_score(patch) * float(seen.mean())


def corner_errors(truth, found) -> np.ndarray:
    """How far found corners lie from the true ones: per corner, as a share of the surface's
    mean diagonal, under whichever of the 8 orderings (turns and mirrors) fits best (a finder
    orders corners as the board appears; labels carry physical corners)."""
    truth, found = np.asarray(truth, np.float64), np.asarray(found, np.float64)
    diag = (np.linalg.norm(truth[2] - truth[0]) + np.linalg.norm(truth[3] - truth[1])) / 2
    errors = [np.linalg.norm(np.roll(f, k, axis=0) - truth, axis=1) / diag
              for f in (found, found[::-1]) for k in range(4)]
    return min(errors, key=lambda e: float(e.max()))


def _dominant_angle(grey: np.ndarray) -> float:
    """The board's turn in degrees (-45..45): the mode of strong gradient directions mod 90."""
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)
    mag = np.hypot(gx, gy)
    strong = mag > np.percentile(mag, 90)
    theta = np.degrees(np.arctan2(gy[strong], gx[strong])) % 90.0
    hist, _ = np.histogram(theta, bins=90, range=(0, 90), weights=mag[strong])
    hist = np.convolve(np.r_[hist[-2:], hist, hist[:2]], np.ones(5) / 5, "valid")
    mode = float(np.argmax(hist)) + 0.5
    return mode if mode < 45 else mode - 90


def _rotate(grey: np.ndarray, angle: float) -> tuple[np.ndarray, np.ndarray]:
    h, w = grey.shape
    m = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    cos, sin = abs(m[0, 0]), abs(m[0, 1])
    nw, nh = int(h * sin + w * cos), int(h * cos + w * sin)
    m[0, 2] += nw / 2 - w / 2
    m[1, 2] += nh / 2 - h / 2
    out = cv2.warpAffine(grey, m, (nw, nh), flags=cv2.INTER_LINEAR, borderValue=0)
    return out, m


def _line_maps(grey: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Pixels on long vertical and long horizontal straight edges."""
    edges = cv2.Canny(cv2.GaussianBlur(grey, (3, 3), 0), 40, 110)
    length = max(12, int(0.1 * max(grey.shape)))
    # widen across the line first, so sides a few degrees off the axis (perspective) survive
    wide_x = cv2.dilate(edges, np.ones((1, 5), np.uint8))
    wide_y = cv2.dilate(edges, np.ones((5, 1), np.uint8))
    vertical = cv2.morphologyEx(wide_x, cv2.MORPH_OPEN, np.ones((length, 1), np.uint8))
    horizontal = cv2.morphologyEx(wide_y, cv2.MORPH_OPEN, np.ones((1, length), np.uint8))
    return vertical > 0, horizontal > 0


def _peaks(profile: np.ndarray, count: int, gap: int) -> list[int]:
    order = np.argsort(profile)[::-1]
    chosen: list[int] = []
    for i in order:
        if profile[i] <= 0:
            break
        if all(abs(int(i) - c) > gap for c in chosen):
            chosen.append(int(i))
        if len(chosen) == count:
            break
    return sorted(chosen)


CANON_W, CANON_H = 96, 80  # a candidate surface is resampled to this size to be scored
SHORTLIST = 30  # candidates (by border support) that get the point-pattern test
CLOSE = 1.0  # scores this close to the best count as a tie (then the inner one wins)
CUT_SIDE = 0.15  # line support credited to an image border standing in for a cut-off side


def _teeth_templates() -> list[tuple[slice, slice, np.ndarray]]:
    """Zero-mean templates of six alternating triangles for each half-row of an upright
    surface, with their place in the canonical patch."""
    out = []
    ys = (np.arange(CANON_H // 2) + 0.5) / CANON_H  # depth into the surface from the edge
    for top in (True, False):
        for left in (True, False):
            x0, x1 = (0.0, 0.46) if left else (0.54, 1.0)
            c0, c1 = int(x0 * CANON_W), int(x1 * CANON_W)
            u = (np.arange(c0, c1) + 0.5) / CANON_W
            k = (u - x0) / (x1 - x0) * 6  # 0..6 across the six points
            centre_off = np.abs(k - np.floor(k) - 0.5)  # 0 at a point's axis, 0.5 between
            sign = np.where(np.floor(k) % 2 == 0, 1.0, -1.0)
            depth = ys / 0.42  # points reach about 0.42 of the surface height
            inside = (centre_off[None, :] < 0.5 * (1 - depth[:, None])) & (depth[:, None] < 1)
            t = np.where(inside, sign[None, :], -0.15 * sign[None, :])
            if not top:
                t = t[::-1]
            t = t - t.mean(axis=1, keepdims=True)
            rows = slice(0, CANON_H // 2) if top else slice(CANON_H - CANON_H // 2, CANON_H)
            out.append((rows, slice(c0, c1), t / np.linalg.norm(t)))
    return out


_TEMPLATES = _teeth_templates()


def _pattern_score(patch: np.ndarray) -> float:
    """How much an upright canonical patch looks like 24 alternating points: 0..1."""
    scores = []
    for rows, cols, t in _TEMPLATES:
        p = patch[rows, cols]
        # rows of t are zero-mean, so light that changes down the board cancels out
        spread = float((p * p).sum() - (p.sum(axis=1) ** 2).sum() / p.shape[1])
        scores.append(abs(float((p * t).sum())) / np.sqrt(spread) if spread > 1e-6 else 0.0)
    scores.sort()
    return float(np.mean(scores[1:]))  # one quarter may be hidden by checkers or a hand


MARGIN = 5  # canonical rows/columns sampled beyond each side (context for later checks)


def _sample(soft: np.ndarray, x0: float, x1: float, y0: float, y1: float,
            upright: bool) -> np.ndarray:
    """The canonical patch of a candidate with MARGIN samples beyond every side (nearest
    samples of a lightly blurred image); outside the image reads as 0."""
    h, w = soft.shape
    if upright:
        n_r, n_c, r0, r1, c0, c1 = CANON_H, CANON_W, y0, y1, x0, x1
    else:  # the canonical patch is the image turned a quarter clockwise
        n_r, n_c, r0, r1, c0, c1 = CANON_W, CANON_H, y1, y0, x0, x1
    dr, dc = (r1 - r0) / (n_r - 1), (c1 - c0) / (n_c - 1)
    rows = np.round(r0 + dr * np.arange(-MARGIN, n_r + MARGIN)).astype(int)
    cols = np.round(c0 + dc * np.arange(-MARGIN, n_c + MARGIN)).astype(int)
    out = soft[np.ix_(np.clip(rows, 0, h - 1), np.clip(cols, 0, w - 1))]
    out[(rows < 0) | (rows >= h), :] = 0
    out[:, (cols < 0) | (cols >= w)] = 0
    return out if upright else out.T


def _scored(soft: np.ndarray, border: float, box: tuple[float, float, float, float],
            upright: bool) -> float:
    ext = _sample(soft, *box, upright)
    patch = ext[MARGIN:-MARGIN, MARGIN:-MARGIN]
    inside = float((patch > 3).mean())  # rotation padding is not board
    return _pattern_score(patch) * (0.5 + 0.5 * min(1.0, border)) * inside


def _coverage(mask: np.ndarray) -> np.ndarray:
    """Cumulative line pixels along axis 0, after widening by 2 px across it."""
    wide = cv2.dilate(mask.astype(np.uint8), np.ones((1, 5), np.uint8))
    return np.vstack([np.zeros((1, mask.shape[1])), np.cumsum(wide, axis=0, dtype=np.float64)])


def _best_rectangle(grey: np.ndarray) -> tuple[np.ndarray, float, bool] | None:
    vert, horiz = _line_maps(grey)
    h, w = grey.shape
    smooth = np.ones(5) / 5  # a slanted side spreads over a few columns
    xs = _peaks(np.convolve(vert.sum(axis=0), smooth, "same"), PEAKS, gap=max(3, w // 40))
    ys = _peaks(np.convolve(horiz.sum(axis=1), smooth, "same"), PEAKS, gap=max(3, h // 40))
    # the image border stands in for a side cut off by the photo
    xs = sorted({*xs, 0, w - 1})
    ys = sorted({*ys, 0, h - 1})
    cov_v = _coverage(vert)  # rows cumulated, per column
    cov_h = _coverage(horiz.T)  # columns cumulated, per row
    px = np.array([(a, b) for a, b in combinations(xs, 2) if b - a >= MIN_SPAN * w])
    py = np.array([(a, b) for a, b in combinations(ys, 2) if b - a >= MIN_SPAN * h])
    if len(px) == 0 or len(py) == 0:
        return None
    x0, x1 = px[:, 0][:, None], px[:, 1][:, None]
    y0, y1 = py[:, 0][None, :], py[:, 1][None, :]

    def side_v(x):  # support of a vertical side at column x between y0 and y1
        cover = (cov_v[y1, x] - cov_v[y0, x]) / (y1 - y0)
        return np.where((x == 0) | (x == w - 1), CUT_SIDE, cover)

    def side_h(y):
        cover = (cov_h[x1, y] - cov_h[x0, y]) / (x1 - x0)
        return np.where((y == 0) | (y == h - 1), CUT_SIDE, cover)

    border = (side_v(x0) + side_v(x1) + side_h(y0) + side_h(y1)) / 4
    aspect = (x1 - x0) / (y1 - y0)
    cands = []
    for upright, a in ((True, aspect), (False, 1 / aspect)):
        ok = (a >= ASPECT_RANGE[0]) & (a <= ASPECT_RANGE[1])
        for i, j in zip(*np.nonzero(ok), strict=True):
            cands.append((float(border[i, j]), int(px[i, 0]), int(px[i, 1]), int(py[j, 0]),
                          int(py[j, 1]), upright))
    if not cands:
        return None
    cands.sort(key=lambda c: -c[0])
    soft = cv2.blur(grey, (3, 3)).astype(np.float64)  # sampled, not resized: much faster
    scored = [(_scored(soft, c[0], c[1:5], c[5]), *c[1:]) for c in cands[:SHORTLIST]]
    top = max(s[0] for s in scored)
    # the frame's outer edge scores nearly as well as the surface inside it: take the inner
    close = [s for s in scored if s[0] >= CLOSE * top]
    score, x0, x1, y0, y1, upright = min(close, key=lambda s: (s[2] - s[1]) * (s[4] - s[3]))
    quad = _refine(vert, horiz, x0, x1, y0, y1)
    if not upright:  # read the image turned a quarter clockwise
        quad = quad[[3, 0, 1, 2]]
    return quad, min(1.0, score / 0.4), upright


def _refine(vert: np.ndarray, horiz: np.ndarray, x0: int, x1: int, y0: int,
            y1: int) -> np.ndarray:
    """Fit each side to the line pixels within a few px of it (mild perspective), then
    intersect the sides. A side with too few line pixels stays where it is."""
    h, w = vert.shape
    tol = max(2, int(0.012 * max(h, w)))

    def fit(mask: np.ndarray, along_x: bool, at: int, lo: int, hi: int) -> tuple[float, float]:
        if along_x:  # a horizontal side y = a*x + b
            ys, xs = np.nonzero(mask[max(0, at - tol):at + tol + 1, lo:hi])
            ys, xs = ys + max(0, at - tol), xs + lo
        else:  # a vertical side x = a*y + b
            ys, xs = np.nonzero(mask[lo:hi, max(0, at - tol):at + tol + 1])
            ys, xs = ys + lo, xs + max(0, at - tol)
        if len(xs) < 0.5 * (hi - lo):
            return (0.0, float(at))
        a, b = np.polyfit(xs, ys, 1) if along_x else np.polyfit(ys, xs, 1)
        if abs(a) > 0.08:  # not a side of this rectangle
            return (0.0, float(at))
        return (float(a), float(b))

    top = fit(horiz, True, y0, x0, x1)
    bottom = fit(horiz, True, y1, x0, x1)
    left = fit(vert, False, x0, y0, y1)
    right = fit(vert, False, x1, y0, y1)

    def meet(hline: tuple[float, float], vline: tuple[float, float]) -> tuple[float, float]:
        a, b = hline  # y = a x + b
        c, d = vline  # x = c y + d
        y = (a * d + b) / (1 - a * c)
        return (c * y + d, y)

    return np.array([meet(top, left), meet(top, right), meet(bottom, right),
                     meet(bottom, left)], dtype=np.float64)
