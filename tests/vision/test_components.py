"""components_with_stats answers exactly as OpenCV's default labelling, on real masks."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from nardy_pi.vision.components import components_with_stats
from nardy_pi.vision.dice_segment import body_mask, luminance
from nardy_pi.vision.render import Camera, Scene, render_scene
from nardy_pi.vision.render.styles import STYLES
from nardy_pi.vision.start_positions import start_board


def _masks() -> list[np.ndarray]:
    rng = np.random.default_rng(4)
    out = []
    for shape, sigma in (((40, 40), 1.0), ((300, 70), 2.0), ((480, 640), 3.0)):
        noise = cv2.GaussianBlur(rng.random(shape).astype(np.float32), (0, 0), sigma)
        out.append((noise > 0.5).astype(np.uint8))
    shot = render_scene(STYLES["tournament"], Camera(width=1280, height=960, seed=3),
                        Scene(points=start_board("backgammon").points, seed=1))
    out.append(body_mask(luminance(shot.image)))
    out.append(np.zeros((20, 30), np.uint8))
    return out


@pytest.mark.parametrize("connectivity", [4, 8])
def test_same_labels_boxes_areas_and_centroids(connectivity: int) -> None:
    for mask in _masks():
        want = cv2.connectedComponentsWithStats(mask, connectivity=connectivity)
        got = components_with_stats(mask, connectivity)
        assert got[0] == want[0]
        for a, b in zip(got[1:], want[1:], strict=True):
            assert a.dtype == b.dtype and np.array_equal(a, b)
