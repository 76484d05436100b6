"""Finding the playing surface with a learned model: its four corners, then its sides snapped
to the straight edges near them.

The model (models/surface_corners.onnx, trained by `python -m
nardy_pi.vision.train.surface_corners`) sees the whole picture shrunk into a square canvas
with a margin round it, so a corner a little outside the picture can still be placed. It gives
one heat map per corner, the corners in the picture's own clockwise order from its top-left.
Each corner is the map's expected position; then each
side moves to the strongest straight edge within a few percent of the diagonal (the model
places corners to about 5% of the diagonal; the frame's edge is sharper than that).
"""

from __future__ import annotations

import threading
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

MODEL = Path(__file__).resolve().parent.parent / "models" / "surface_corners.onnx"
CANVAS = 160  # the model's square input, px
INNER = 120  # the picture's longer side inside the canvas (the rest is margin)
STRIDE = 4  # canvas px per heat-map cell
#: how far (share of the diagonal) a side may move to an edge, and the spread of the prior
#: that keeps it near where the model put it (real photos: 0.05 / 0.025 best of 0.05-0.08)
REACH, SPREAD = 0.05, 0.025
#: degrees a side may turn (the corners err independently, so a side can be a few degrees
#: off; real photos within 3%: 26 of 151 with +-3 degrees, 28 with +-6)
TURNS = (-6.0, -4.5, -3.0, -1.5, 0.0, 1.5, 3.0, 4.5, 6.0)
EDGE_SIDE = 640  # the longer side of the picture the edges are looked for in


def to_canvas(image: np.ndarray) -> tuple[np.ndarray, tuple[float, float, float, float]]:
    """The picture shrunk into the canvas, and (x offset, y offset, x scale, y scale) that
    take picture px to canvas px."""
    h, w = image.shape[:2]
    f = INNER / max(h, w)
    nw, nh = max(1, round(w * f)), max(1, round(h * f))
    small = cv2.resize(image, (nw, nh), interpolation=cv2.INTER_AREA)
    if small.ndim == 2:
        small = cv2.cvtColor(small, cv2.COLOR_GRAY2BGR)
    out = np.zeros((CANVAS, CANVAS, 3), np.uint8)
    ox, oy = (CANVAS - nw) // 2, (CANVAS - nh) // 2
    out[oy:oy + nh, ox:ox + nw] = small
    return out, (ox, oy, nw / w, nh / h)


def picture_to_canvas(points: np.ndarray, place: tuple[float, float, float, float]) -> np.ndarray:
    ox, oy, sx, sy = place
    return (np.asarray(points, np.float64) + 0.5) * [sx, sy] - 0.5 + [ox, oy]


def canvas_to_picture(points: np.ndarray, place: tuple[float, float, float, float]) -> np.ndarray:
    ox, oy, sx, sy = place
    return (np.asarray(points, np.float64) - [ox, oy] + 0.5) / [sx, sy] - 0.5


def picture_order(corners) -> tuple[np.ndarray, np.ndarray]:
    """The corners clockwise as the picture shows them, from the one nearest its top-left
    direction, and the indices that order them."""
    c = np.asarray(corners, np.float64)
    centre = c.mean(axis=0)
    angle = np.arctan2(c[:, 1] - centre[1], c[:, 0] - centre[0])  # y down: clockwise
    order = np.argsort(angle)
    off = [abs((a + 3 * np.pi / 4 + np.pi) % (2 * np.pi) - np.pi) for a in angle[order]]
    order = np.roll(order, -int(np.argmin(off)))
    return c[order], order


def expected_positions(heat: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(4, 2) canvas positions (each map's softmax-weighted mean) and each map's peak
    probability."""
    n, gh, gw = heat.shape
    flat = heat.reshape(n, -1).astype(np.float64)
    p = np.exp(flat - flat.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    p = p.reshape(n, gh, gw)
    xs = (np.arange(gw) + 0.5) * STRIDE - 0.5
    ys = (np.arange(gh) + 0.5) * STRIDE - 0.5
    pos = np.stack([(p.sum(axis=1) * xs).sum(axis=1), (p.sum(axis=2) * ys).sum(axis=1)], 1)
    return pos, p.reshape(n, -1).max(axis=1)


class CornerModel:
    """The ONNX model through cv2.dnn (not thread-safe: calls are serialised)."""

    def __init__(self, path: Path = MODEL) -> None:
        if not path.is_file():
            raise FileNotFoundError(f"surface corner model {path.name} is missing: run "
                                    "python -m nardy_pi.vision.train.surface_corners")
        self.net = cv2.dnn.readNetFromONNX(str(path))
        self.lock = threading.Lock()

    def __call__(self, canvas: np.ndarray) -> np.ndarray:
        """Heat maps (4, h, w) for one canvas. The model's second output, whether the bar runs
        up the picture, is not used here: the point pattern (find_surface) decides that, as it
        read held-out photos better (the head: 68% right)."""
        blob = canvas.transpose(2, 0, 1)[None].astype(np.float32) / 255.0 - 0.5
        with self.lock:
            self.net.setInput(np.ascontiguousarray(blob))
            heat = self.net.forward("heat")
        return np.array(heat[0])


@lru_cache(maxsize=1)
def shipped_corner_model() -> CornerModel | None:
    try:
        return CornerModel()
    except (FileNotFoundError, cv2.error):
        return None


def learned_corners(image: np.ndarray, model: CornerModel | None = None) -> np.ndarray | None:
    """(4, 2) picture corners, clockwise from the picture's top-left, their sides snapped to
    the edges; None without a model."""
    model = model or shipped_corner_model()
    if model is None:
        return None
    canvas, place = to_canvas(image)
    pos, _peaks = expected_positions(model(canvas))
    return snap_sides(image, canvas_to_picture(pos, place))


def snap_sides(image: np.ndarray, quad: np.ndarray, reach: float = REACH,
               spread: float = SPREAD, turns: tuple[float, ...] = TURNS) -> np.ndarray:
    """Each side moved (and turned up to 6 degrees) to the strongest straight edge within
    `reach` of the diagonal, weighed by a Gaussian prior of `spread` around where it was;
    the corners are the new sides' crossings."""
    h0, w0 = image.shape[:2]
    f = min(1.0, EDGE_SIDE / max(h0, w0))
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    if f < 1.0:
        grey = cv2.resize(grey, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
    grey = cv2.GaussianBlur(grey, (3, 3), 0).astype(np.float32)
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)
    h, w = grey.shape
    q = (np.asarray(quad, np.float64) + 0.5) * f - 0.5
    diag = 0.5 * (np.linalg.norm(q[2] - q[0]) + np.linalg.norm(q[3] - q[1]))
    along = np.linspace(0.08, 0.92, 40) - 0.5
    offsets = np.linspace(-reach, reach, 41) * diag
    prior = np.exp(-0.5 * (offsets / (spread * diag)) ** 2)
    sides = []
    for i in range(4):
        a, b = q[i], q[(i + 1) % 4]
        mid, length = (a + b) / 2, float(np.linalg.norm(b - a))
        d0 = (b - a) / max(length, 1e-9)
        best = (-1.0, mid, d0)
        for turn in np.radians(turns):
            c, s = np.cos(turn), np.sin(turn)
            d = np.array([d0[0] * c - d0[1] * s, d0[0] * s + d0[1] * c])
            normal = np.array([-d[1], d[0]])
            # every offset at once: (offsets, samples along the side, 2)
            p = np.rint(mid + along[None, :, None] * length * d
                        + offsets[:, None, None] * normal).astype(int)
            ok = (p[..., 0] >= 1) & (p[..., 0] < w - 1) & (p[..., 1] >= 1) & (p[..., 1] < h - 1)
            px, py = np.clip(p[..., 0], 0, w - 1), np.clip(p[..., 1], 0, h - 1)
            g = np.abs(gx[py, px] * normal[0] + gy[py, px] * normal[1])
            seen = ok.mean(axis=1) >= 0.6  # an offset mostly outside the picture is no edge
            score = np.full(len(offsets), -1.0)
            if seen.any():
                rows = np.where(ok[seen], g[seen], np.nan)
                score[seen] = np.nanmedian(rows, axis=1) * prior[seen]
            k = int(np.argmax(score))
            if score[k] > best[0]:
                best = (float(score[k]), mid + offsets[k] * normal, d)
        sides.append((best[1], best[2]))
    out = []
    for i in range(4):
        (p1, d1), (p2, d2) = sides[i - 1], sides[i]
        m = np.array([d1, -d2]).T
        if abs(np.linalg.det(m)) < 1e-6:
            out.append(q[i])
            continue
        t = np.linalg.solve(m, p2 - p1)
        out.append(p1 + t[0] * d1)
    return (np.array(out) + 0.5) / f - 0.5
