"""Our CIELAB conversion gives what OpenCV's COLOR_BGR2LAB gives, on both of its scales."""

from __future__ import annotations

import cv2
import numpy as np

from nardy_pi.vision.lab import bgr_to_lab


def _colours() -> np.ndarray:
    rng = np.random.default_rng(3)
    corners = np.array([[b, g, r] for b in (0, 255) for g in (0, 255) for r in (0, 255)])
    greys = np.repeat(np.arange(256)[:, None], 3, axis=1)
    return np.concatenate([rng.integers(0, 256, (20000, 3)), corners, greys]).astype(
        np.uint8).reshape(-1, 1, 3)


def test_8_bit_colours_match_opencv_within_its_rounding() -> None:
    bgr = _colours()
    ours, theirs = bgr_to_lab(bgr), cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB)
    assert ours.dtype == np.uint8 and ours.shape == bgr.shape
    diff = np.abs(ours.astype(int) - theirs.astype(int))
    assert diff.max() <= 2  # OpenCV's 8-bit path is fixed-point
    assert (diff == 0).mean() > 0.85


def test_float_colours_match_opencv() -> None:
    bgr = _colours().astype(np.float32) / 255.0
    ours, theirs = bgr_to_lab(bgr), cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB)
    assert ours.dtype == np.float32
    np.testing.assert_allclose(ours, theirs, atol=0.5)


def test_white_black_and_pure_red() -> None:
    lab = bgr_to_lab(np.array([[[255, 255, 255], [0, 0, 0], [0, 0, 255]]], np.float32) / 255)
    np.testing.assert_allclose(lab[0, 0], [100, 0, 0], atol=0.01)
    np.testing.assert_allclose(lab[0, 1], [0, 0, 0], atol=0.01)
    np.testing.assert_allclose(lab[0, 2], [53.24, 80.09, 67.20], atol=0.05)
