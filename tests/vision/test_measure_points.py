"""The points' length is measured from the image (issue 15: calibration "measures bar width,
point pitch and length"), on randomised boards in styles never trained on."""

from __future__ import annotations

import numpy as np
import pytest

from nardy_pi.vision.board.layout import SurfaceLayout
from nardy_pi.vision.board.measure import measure_point_length, with_measured_length

pytest.importorskip("nardy_pi.vision.render.randomised")


def test_point_length_is_measured_on_held_out_styles() -> None:
    from nardy_pi.vision.render.randomised import render_random

    errors, unmeasured = [], 0
    for k in range(16):
        r = render_random(7000 + k, split="heldout", size=(640, 480))
        t = r.truth
        layout = SurfaceLayout(float(t.bar_u[0]), float(t.bar_u[1]))
        length = measure_point_length(r.image, t.corners, layout)
        if length is None:
            unmeasured += 1
            continue
        errors.append(abs(length - t.point_length_v))
        # The measured length is what a calibration or a first look then carries.
        assert with_measured_length(layout, r.image, t.corners).point_length_v == length
    assert unmeasured <= 3
    assert np.mean(np.array(errors) <= 0.02) >= 0.9, errors


def test_a_surface_with_no_points_painted_gives_no_length() -> None:
    image = np.full((480, 640, 3), 140, np.uint8)
    image += np.random.default_rng(1).integers(0, 6, image.shape, dtype=np.uint8)
    corners = [(40, 30), (600, 30), (600, 450), (40, 450)]
    layout = SurfaceLayout()
    assert measure_point_length(image, corners, layout) is None
    assert with_measured_length(layout, image, corners) == layout
