"""A pinhole camera over a 3-D board: board units (x right, y down), height z above the surface.

The camera looks at the board centre from a tilt of 0-35 degrees, so raised things (the
frame, checkers, dice) move against the surface as they would in a photo, not a flat warp.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from nardy_pi.vision.render.randomised.layout import BoardLayout


def _rx(a: float) -> np.ndarray:
    c, s = np.cos(a), np.sin(a)
    return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])


def _rz(a: float) -> np.ndarray:
    c, s = np.cos(a), np.sin(a)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


@dataclass(frozen=True)
class Camera:
    k: np.ndarray  # 3x3 intrinsics
    r: np.ndarray  # 3x3 rotation, world -> camera
    t: np.ndarray  # 3 translation
    origin: np.ndarray  # board point at the world origin (surface centre)
    size: tuple[int, int]  # (width, height)
    tilt_deg: float
    roll_deg: float

    def project(self, xyz: np.ndarray) -> np.ndarray:
        """N x 3 board points (x, y, height) -> N x 2 image pixels."""
        p = np.asarray(xyz, np.float64).reshape(-1, 3)
        world = np.column_stack([p[:, 0] - self.origin[0], p[:, 1] - self.origin[1], -p[:, 2]])
        cam = world @ self.r.T + self.t
        img = cam @ self.k.T
        return img[:, :2] / img[:, 2:3]

    def depth(self, xyz: np.ndarray) -> np.ndarray:
        """Distance along the optical axis (larger = farther)."""
        p = np.asarray(xyz, np.float64).reshape(-1, 3)
        world = np.column_stack([p[:, 0] - self.origin[0], p[:, 1] - self.origin[1], -p[:, 2]])
        return (world @ self.r.T + self.t)[:, 2]

    def centre_world(self) -> np.ndarray:
        """Camera centre in board coordinates (x, y, height)."""
        c = -self.r.T @ self.t
        return np.array([c[0] + self.origin[0], c[1] + self.origin[1], -c[2]])

    def homography(self, height: float = 0.0) -> np.ndarray:
        """3x3 map from board (x, y) on the plane at `height` to image pixels."""
        offset = np.array([-self.origin[0], -self.origin[1], -height])
        m = np.column_stack([self.r[:, 0], self.r[:, 1], self.r @ offset + self.t])
        h = self.k @ m
        return h / h[2, 2]


def place_camera(
    layout: BoardLayout, size: tuple[int, int], rng: np.random.Generator, *,
    tilt_deg: float, roll_deg: float, azimuth_deg: float, fill: float, distance: float,
    cut: float, cut_edge: int,
) -> Camera:
    """A camera `distance` board-heights away, tilted toward `azimuth_deg`, the board box
    filling `fill` of the image, and `cut` of the surface pushed past edge `cut_edge`
    (0 top, 1 right, 2 bottom, 3 left)."""
    w_img, h_img = size
    az, tilt = np.radians(azimuth_deg), np.radians(tilt_deg)
    r = _rz(np.radians(roll_deg)) @ _rz(-az) @ _rx(tilt) @ _rz(az)
    origin = np.array([layout.width / 2, layout.height / 2])
    dist = distance * max(layout.width, layout.height)
    t = np.array([0.0, 0.0, dist])
    unit = Camera(np.eye(3), r, t, origin, size, tilt_deg, roll_deg)
    x0, y0, x1, y1 = layout.extent()
    box = unit.project(np.array([[x0, y0, 0], [x1, y0, 0], [x1, y1, 0], [x0, y1, 0]]))
    bw, bh = np.ptp(box[:, 0]), np.ptp(box[:, 1])
    f = fill * min(w_img / bw, h_img / bh)
    surf = unit.project(np.array([[0, 0, 0], [layout.width, 0, 0],
                                  [layout.width, layout.height, 0], [0, layout.height, 0]])) * f
    box = box * f
    # Centre the board box, with a random shift inside the slack the fill leaves.
    cx = w_img / 2 - (box[:, 0].min() + box[:, 0].max()) / 2
    cy = h_img / 2 - (box[:, 1].min() + box[:, 1].max()) / 2
    slack_x = max(0.0, (w_img - np.ptp(box[:, 0])) / 2)
    slack_y = max(0.0, (h_img - np.ptp(box[:, 1])) / 2)
    cx += rng.uniform(-0.8, 0.8) * slack_x
    cy += rng.uniform(-0.8, 0.8) * slack_y
    if cut > 0:  # push the surface past one image edge by `cut` of its extent
        sx, sy = surf[:, 0] + cx, surf[:, 1] + cy
        if cut_edge == 0:
            cy += -sy.min() - cut * np.ptp(sy)
        elif cut_edge == 1:
            cx += w_img - sx.max() + cut * np.ptp(sx)
        elif cut_edge == 2:
            cy += h_img - sy.max() + cut * np.ptp(sy)
        else:
            cx += -sx.min() - cut * np.ptp(sx)
    k = np.array([[f, 0, cx], [0, f, cy], [0, 0, 1]])
    return Camera(k, r, t, origin, size, tilt_deg, roll_deg)
