"""The strip model's data recipe: labelled strips cut from rendered frames and real photos.

A frame source yields `Frame`s (image, surface corners, layout, per-slot truth); `strips_of`
cuts and normalises them exactly as the reader does at run time (board/strips.py), after a
frame-level photometric shake-up (gains, gamma, hue, greyscale, glare that saturates, blur,
noise, JPEG), a picture that sometimes ends at the top or bottom surface edge (`edge_cut`:
cropped photos, rotated copies with filled corners) and a corner jitter like a hand-clicked or
found surface.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from nardy_pi.vision.board.layout import SLOTS, STRIP_H, STRIP_W, SurfaceLayout
from nardy_pi.vision.board.strips import (
    StripCutter,
    Strips,
    map_points,
    model_input,
    surface_homography,
)

OCCLUDED_SHARE = 0.12  # a strip this much covered by an occluder is "occluded"
COUNT_UNSURE_SHARE = 0.03  # beyond this much cover the count is not trained on


@dataclass(frozen=True)
class Frame:
    image: np.ndarray
    corners: np.ndarray  # 4 x 2 TL, TR, BR, BL (may lie partly outside the image)
    layout: SurfaceLayout
    counts: np.ndarray  # SLOTS signed counts (+ light, - dark); bar slots carry their colour
    occluder: np.ndarray | None = None  # bool image mask of hands and other objects
    known: np.ndarray | None = None  # SLOTS bool: labels exist (real photos may lack some)
    #: K x 5 (x0, y0, x1, y1 image px, +1 light / -1 dark): the checkers boxed in a photo
    checkers: np.ndarray | None = None


_FIELDS = ("x", "count", "colour", "occluded", "count_weight", "group")


@dataclass
class StripSet:
    x: np.ndarray  # N x C x H x W float16 (C: 4, or 8 with context)
    count: np.ndarray  # N int64 0..15
    colour: np.ndarray  # N int64: 0 light, 1 dark, -1 empty
    occluded: np.ndarray  # N float32 0/1
    count_weight: np.ndarray  # N float32: 0 where the count is not trustworthy
    group: np.ndarray  # N int64: source board / style id (for grouped folds)

    @staticmethod
    def empty(channels: int = 4) -> StripSet:
        return StripSet(np.zeros((0, channels, STRIP_H, STRIP_W), np.float16), *(
            np.zeros(0, t) for t in (np.int64, np.int64, np.float32, np.float32, np.int64)))

    def __len__(self) -> int:
        return len(self.count)

    def save(self, path) -> None:
        """One .npy per field in the directory `path` (`load` maps them instead of reading a
        base's gigabytes into memory)."""
        path = Path(path)
        path.mkdir(parents=True, exist_ok=True)
        for f in _FIELDS:
            np.save(path / f"{f}.npy", getattr(self, f))

    @staticmethod
    def load(path) -> StripSet:
        """A saved set, its strips mapped from disk read-only: `concat` with `keeps` then reads
        only the strips it keeps."""
        path = Path(path)
        return StripSet(*(np.load(path / f"{f}.npy", mmap_mode="r") for f in _FIELDS))

    @staticmethod
    def concat(parts: list[StripSet], keeps: list[np.ndarray] | None = None) -> StripSet:
        """The parts one after the other; with `keeps` (a bool mask per part), only the
        strips kept, written straight into the result (a base's strips fill gigabytes: no
        concatenated copy is made before the selection)."""
        if keeps is None:
            keeps = [np.ones(len(p), bool) for p in parts]
        pairs = [(p, k) for p, k in zip(parts, keeps, strict=True) if k.any()]
        total = sum(int(k.sum()) for _, k in pairs)
        template = pairs[0][0] if pairs else StripSet.empty()
        out = StripSet(*(np.empty((total, *getattr(template, f).shape[1:]),
                                  getattr(template, f).dtype) for f in _FIELDS))
        at = 0
        for part, keep in pairs:
            n = int(keep.sum())
            whole = bool(keep.all())
            for f in _FIELDS:
                values = getattr(part, f)
                getattr(out, f)[at:at + n] = values if whole else values[keep]
            at += n
        return out


def shake(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Photometric variety beyond any renderer's: what real cameras and rooms do."""
    img = image.astype(np.float32)
    if rng.random() < 0.15:
        img = np.repeat(img.mean(axis=2, keepdims=True), 3, axis=2)
    elif rng.random() < 0.25:
        img = img[..., rng.permutation(3)]
    if rng.random() < 0.3:  # hue rotation
        hsv = cv2.cvtColor(np.clip(img, 0, 255).astype(np.uint8), cv2.COLOR_BGR2HSV)
        hsv[..., 0] = (hsv[..., 0].astype(int) + int(rng.integers(0, 180))) % 180
        img = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR).astype(np.float32)
    img *= rng.uniform(0.75, 1.25, 3) * rng.uniform(0.55, 1.5)
    gamma = rng.uniform(0.7, 1.5)
    img = 255.0 * (np.clip(img, 0, None) / 255.0) ** gamma
    h, w = img.shape[:2]
    if rng.random() < 0.35:  # glare: a bright blob that saturates
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        r = rng.uniform(0.05, 0.25) * w
        gx = np.exp(-((np.arange(w) - cx) ** 2) / (2 * r * r)).astype(np.float32)
        gy = np.exp(-((np.arange(h) - cy) ** 2) / (2 * r * r)).astype(np.float32)
        img += np.float32(rng.uniform(80, 300)) * np.outer(gy, gx)[..., None]
    if rng.random() < 0.4:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.4, 1.6))
    img += rng.normal(0, rng.uniform(0, 6), img.shape)
    out = np.clip(img, 0, 255).astype(np.uint8)
    if rng.random() < 0.7:
        _ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(50, 96))])
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out


#: corner jitter of a shaken copy, as a share of the surface's size (per corner, per axis)
CORNER_JITTER = 0.008


def jitter_corners(corners: np.ndarray, rng: np.random.Generator,
                   share: float = CORNER_JITTER) -> np.ndarray:
    size = np.ptp(corners, axis=0).max()
    return corners + rng.normal(0, share * size, corners.shape)


def _crop_to_surface(frame: Frame) -> Frame:
    """Only the surface and a margin matter; shaking the whole frame would be wasted work."""
    h, w = frame.image.shape[:2]
    c = np.asarray(frame.corners, np.float64)
    pad = 0.08 * np.ptp(c, axis=0).max()
    x0, y0 = (max(0, int(v - pad)) for v in c.min(0))
    x1, y1 = min(w, int(c[:, 0].max() + pad)), min(h, int(c[:, 1].max() + pad))
    if x1 - x0 < 32 or y1 - y0 < 32:
        return frame
    occ = None if frame.occluder is None else frame.occluder[y0:y1, x0:x1]
    boxes = None if frame.checkers is None else frame.checkers - [x0, y0, x0, y0, 0]
    return Frame(frame.image[y0:y1, x0:x1], c - [x0, y0], frame.layout, frame.counts, occ,
                 frame.known, boxes)


#: how far inside the surface edge (in v) the picture may end; negative: outside it. A checker
#: at the base keeps at least half of itself, so its count still stands.
EDGE_CUT_DEPTH = (-0.02, 0.04)
#: the same across (in u) for the picture ending along the left or right surface edge: the
#: outermost points' checkers are cut lengthwise and each keeps at least about half its width
#: (a point is about 0.077 u wide)
SIDE_CUT_DEPTH = (-0.01, 0.035)


def edge_cut(image: np.ndarray, corners: np.ndarray, rng: np.random.Generator, share: float,
             sides: float = 0.0) -> tuple[np.ndarray, np.ndarray | None]:
    """In `share` of the copies, end the picture along the top or bottom surface edge, cutting
    the checkers at the base in half: a photo cropped there, or rotated with its corners
    filled. In `sides` of the copies (of those not cut so), end it along the left or right
    edge instead, the line a little askew (a turned copy's filled corner): the outermost
    points' stacks are cut along their length. Returns the image and, when the cut stands for
    the end of the picture, a mask of the pixels lost (they read as unknown); otherwise they
    are filled with one flat colour and stay known. No cut draws nothing from `rng`."""
    if share > 0.0 and rng.random() < share:
        depth = rng.uniform(*EDGE_CUT_DEPTH)
        line, beyond = (1.0 - depth, 1.6) if rng.random() < 0.5 else (depth, -0.6)
        uv = np.array([[-0.5, line], [1.5, line], [1.5, beyond], [-0.5, beyond]])
    elif sides > 0.0 and rng.random() < sides:
        # the depth at v = -0.5 and 1.5, so along the surface it stays between them
        near, far = rng.uniform(*SIDE_CUT_DEPTH, size=2)
        if rng.random() < 0.5:
            uv = np.array([[near, -0.5], [far, 1.5], [-0.6, 1.5], [-0.6, -0.5]])
        else:
            uv = np.array([[1.0 - near, -0.5], [1.0 - far, 1.5], [1.6, 1.5], [1.6, -0.5]])
    else:
        return image, None
    poly = map_points(surface_homography(corners), uv)
    mask = np.zeros(image.shape[:2], np.uint8)
    cv2.fillPoly(mask, [np.round(poly).astype(np.int32)], 255)
    out = image.copy()
    if rng.random() < 0.5:
        out[mask > 0] = 0
        return out, mask
    out[mask > 0] = rng.integers(0, 256, 3).astype(np.uint8)
    return out, None


#: how far inside the surface edge (in v) a near wall's top may stand (wall_cut); a checker at
#: the base keeps more than half of itself
WALL_DEPTH = (0.005, 0.04)


def wall_cut(image: np.ndarray, corners: np.ndarray, rng: np.random.Generator,
             share: float) -> tuple[np.ndarray, np.ndarray]:
    """In `share` of the copies, a near wall hides a band at the top or bottom surface edge
    and the corners mark the wall's top, not the surface edge behind it: a deep case seen at a
    slant, marked by eye (image012's bottom row). The checkers at that base show only their
    far part, right where the strips start; their counts stand. Returns the image and the
    corners as marked; no cut draws nothing from `rng`."""
    if share <= 0.0 or rng.random() >= share:
        return image, corners
    depth = rng.uniform(*WALL_DEPTH)
    bottom = rng.random() < 0.5
    line, beyond = (1.0 - depth, 1.6) if bottom else (depth, -0.6)
    h = surface_homography(corners)
    band = map_points(h, np.array([[-0.5, line], [1.5, line], [1.5, beyond], [-0.5, beyond]]))
    out = image.copy()
    cv2.fillPoly(out, [np.round(band).astype(np.int32)],
                 [int(c) for c in rng.integers(0, 256, 3)])
    top_v, bottom_v = (0.0, line) if bottom else (line, 1.0)
    marked = map_points(h, np.array([[0.0, top_v], [1.0, top_v], [1.0, bottom_v],
                                     [0.0, bottom_v]]))
    return out, marked


@dataclass(frozen=True)
class CopyCuts:
    """The shares of shaken copies that `edge_cut` ends at the top or bottom (`edge`) or along
    a side (`side`), and that `wall_cut` hides behind a near wall (`wall`)."""

    edge: float = 0.0
    side: float = 0.0
    wall: float = 0.0


NO_CUTS = CopyCuts()


def _cut_mask(cutter: StripCutter, mask: np.ndarray) -> np.ndarray:
    """SLOTS x STRIP_H x STRIP_W bool: an image mask (bool or 0/255) cut as the strips are."""
    planes = np.repeat((np.asarray(mask) > 0).astype(np.uint8)[..., None] * 255, 3, axis=2)
    return cutter.cut(planes).raw[..., 0] > 127


@dataclass(frozen=True)
class Cut:
    """One copy of a frame cut into strips as the reader would: `frame` cropped to the
    surface (its layout with the model's margin), the `cutter` of the (jittered) corners,
    and the `strips` of the (shaken) picture."""

    frame: Frame
    cutter: StripCutter
    strips: Strips


def cut_copy(frame: Frame, rng: np.random.Generator | None, jitter: float = CORNER_JITTER,
             margin: float = 0.0, cuts: CopyCuts = NO_CUTS) -> Cut:
    """A copy of `frame` cut into strips; shaken, perhaps edge-cut, wall-cut and jittered
    unless `rng` is None."""
    frame = _crop_to_surface(frame)
    if margin:
        frame = replace(frame, layout=replace(frame.layout, base_margin_v=margin))
    image, corners = frame.image, np.asarray(frame.corners, np.float64)
    lost = None
    if rng is not None:
        image = shake(image, rng)
        image, lost = edge_cut(image, corners, rng, cuts.edge, cuts.side)  # before the jitter
        image, corners = wall_cut(image, corners, rng, cuts.wall)
        corners = jitter_corners(corners, rng, jitter)
    cutter = StripCutter(corners, frame.layout, (image.shape[1], image.shape[0]))
    strips = cutter.cut(image)
    if lost is not None:  # the picture ends there: unknown, as outside the image
        gone = _cut_mask(cutter, lost)
        strips = Strips(strips.raw, strips.unknown | gone, strips.visible)
    return Cut(frame, cutter, strips)


def labelled(cut: Cut, group: int, context: bool = False, counts: np.ndarray | None = None,
             only: np.ndarray | None = None) -> StripSet:
    """The cut's strips with their labels (`counts` instead of the frame's when given), the
    slots in `only` (a SLOTS bool mask) or all that are labelled and mostly in view."""
    frame, cutter = cut.frame, cut.cutter
    x = model_input(cut.strips, context)
    counts = np.asarray(frame.counts if counts is None else counts, np.int64)
    cover = np.zeros(SLOTS)
    if frame.occluder is not None and frame.occluder.any():
        h, w = frame.image.shape[:2]
        true_cut = StripCutter(frame.corners, frame.layout, (w, h))
        cover = _cut_mask(true_cut, frame.occluder).reshape(SLOTS, -1).mean(1)
    known = np.ones(SLOTS, bool) if frame.known is None else np.asarray(frame.known, bool)
    keep = known & (cutter.visible > 0.5)
    if only is not None:
        keep &= only
    occluded = (cover > OCCLUDED_SHARE).astype(np.float32)
    weight = ((cover <= COUNT_UNSURE_SHARE) & (cutter.visible > 0.9)).astype(np.float32)
    colour = np.where(counts > 0, 0, np.where(counts < 0, 1, -1))
    return StripSet(x[keep].astype(np.float16), np.minimum(np.abs(counts), 15)[keep],
                    colour[keep], occluded[keep], weight[keep],
                    np.full(int(keep.sum()), group, np.int64))


def strips_of(frame: Frame, rng: np.random.Generator | None, group: int,
              jitter: float = CORNER_JITTER, margin: float = 0.0,
              cuts: CopyCuts = NO_CUTS, context: bool = False) -> StripSet:
    """`margin`: the points' strips start this far outside the surface edge (the model's
    SurfaceLayout.base_margin_v); `cuts`: how many shaken copies are cut (CopyCuts);
    `context`: each strip with its frame's reference (strips.with_context)."""
    return labelled(cut_copy(frame, rng, jitter, margin, cuts), group, context)


def collect(frames: Iterator[tuple[Frame, int]], rng: np.random.Generator,
            copies: int = 1, jitter: float = CORNER_JITTER, margin: float = 0.0,
            cuts: CopyCuts = NO_CUTS, frame_count: int | None = None,
            context: bool = False) -> StripSet:
    """Strips of every frame, `copies` shaken versions each (the first one unshaken when
    copies > 1, so plain frames are seen too); `margin`, `cuts`, `context` as in
    `strips_of`.
    `frame_count`, when known, lets the strips be written into one array as they come (a
    base's renders fill gigabytes: no list of pieces beside their concatenation)."""
    grown = _Growing(frame_count * copies * SLOTS, 8 if context else 4) if frame_count else None
    parts = []
    for n, (frame, group) in enumerate(frames, start=1):
        if n % 100 == 0:
            print(f"  {n} frames", flush=True)
        for k in range(copies):
            part = strips_of(frame, None if (k == 0 and copies > 1) else rng, group, jitter,
                             margin, cuts, context)
            if grown is not None and grown.fits(part):
                grown.add(part)
            else:
                parts.append(part)
    if grown is None:
        return StripSet.concat(parts)
    return StripSet.concat([grown.done(), *parts]) if parts else grown.done()


class _Growing:
    """A StripSet written into arrays allocated once for `capacity` strips."""

    def __init__(self, capacity: int, channels: int = 4) -> None:
        shape = StripSet.empty(channels)  # each field's per-strip shape and dtype
        self.data = StripSet(*(np.empty((capacity, *getattr(shape, f).shape[1:]),
                                        getattr(shape, f).dtype) for f in _FIELDS))
        self.n = 0

    def fits(self, part: StripSet) -> bool:
        return self.n + len(part) <= len(self.data)

    def add(self, part: StripSet) -> None:
        for f in _FIELDS:
            getattr(self.data, f)[self.n:self.n + len(part)] = getattr(part, f)
        self.n += len(part)

    def done(self) -> StripSet:
        """The strips written (views: the unused tail is never copied)."""
        return StripSet(*(getattr(self.data, f)[:self.n] for f in _FIELDS))
