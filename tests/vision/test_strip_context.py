"""Strips read with their frame's context (board/strips.with_context): each strip beside the
median strip of its kind, so a model sees what an empty point of this board looks like under
this light. A model trained so names it in `<model>.strip.json` ("context": true)."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

from nardy_pi.vision.board.layout import SLOTS, STRIP_H, STRIP_W, SurfaceLayout
from nardy_pi.vision.board.model import MODEL_PATH, StripEnsemble, StripModel, strip_path
from nardy_pi.vision.board.strips import (
    StripCutter,
    model_input,
    normalise,
    point_kinds,
    with_context,
)
from nardy_pi.vision.render import Camera, Scene, render_scene
from nardy_pi.vision.render.styles import STYLES


def _frame(points: tuple[int, ...]):
    shot = render_scene(STYLES["tournament"], Camera(seed=4), Scene(points=points, seed=2))
    cutter = StripCutter(shot.corners, SurfaceLayout(), (640, 480))
    return cutter.cut(shot.image)


def _two_coloured(flipped_right: bool, seed: int = 0) -> np.ndarray:
    """Noisy strips of a board whose points alternate two colours within each quadrant; the
    right quadrants continue the left's alternation across the bar, or flip it."""
    rng = np.random.default_rng(seed)
    x = rng.normal(0, 0.2, (SLOTS, 4, STRIP_H, STRIP_W)).astype(np.float32)
    x[:, 3] = rng.random((SLOTS, STRIP_H, STRIP_W)) < 0.1
    for slot in range(24):
        quadrant, index = divmod(slot, 6)
        colour = (index + (flipped_right and quadrant % 2)) % 2
        x[slot, :3] += np.array([1.0, -0.5, 0.3])[:, None, None] * (1 if colour else -1)
    return x


@pytest.mark.parametrize("flipped", [False, True])
def test_point_kinds_follow_the_colours_across_the_bar(flipped: bool) -> None:
    kinds = point_kinds(_two_coloured(flipped))
    right = [1, 3, 5, 6, 8, 10] if flipped else [1, 3, 5, 7, 9, 11]
    assert sorted(map(sorted, kinds)) == sorted(
        [sorted(set(range(12)) - set(right)), right,
         [r + 12 for r in sorted(set(range(12)) - set(right))], [r + 12 for r in right]])


def test_the_reference_is_the_median_strip_of_its_kind() -> None:
    x = _two_coloured(True)
    out = with_context(x)
    assert out.shape == (SLOTS, 8, STRIP_H, STRIP_W)
    assert np.array_equal(out[:, :4], x)
    kinds = point_kinds(x)
    for kind in kinds:
        for slot in kind:
            assert np.allclose(out[slot, 4:7], np.median(x[kind, :3], axis=0), atol=1e-6)
            assert np.allclose(out[slot, 7], x[kind, 3].mean(axis=0))
    for bar, row in ((24, list(range(12))), (25, list(range(12, 24)))):
        assert np.allclose(out[bar, 4:7], np.median(x[row, :3], axis=0), atol=1e-6)
    with pytest.raises(ValueError, match="one frame's 26 strips"):
        with_context(x[:25])


def test_a_rendered_board_pairs_its_point_colours() -> None:
    """Our first renderer carries the alternation across the bar differently from the random
    boards above: measured, not assumed."""
    kinds = point_kinds(normalise(_frame((0,) * 24)))
    assert [0, 2, 4, 7, 9, 11] in kinds and [1, 3, 5, 6, 8, 10] in kinds


def test_a_checker_on_one_point_barely_moves_the_reference() -> None:
    """One checker on point 1 changes point 1's strip; the median of its kind moves by one
    rank at most (less than half as much), and other kinds' references stay put."""
    empty = model_input(_frame((0,) * 24), context=True)
    one = model_input(_frame((1,) + (0,) * 23), context=True)

    def moved(slot: int, channels: slice) -> float:
        return float(np.abs(one[slot, channels] - empty[slot, channels]).mean())

    own, ref = moved(0, slice(0, 3)), moved(0, slice(4, 7))
    assert own > 0.15 and ref < own / 2, (own, ref)
    assert moved(1, slice(4, 7)) < own / 10 and moved(13, slice(4, 7)) < own / 10
    # the reference of an empty board looks like the point itself, not like its neighbour
    assert np.abs(empty[2, 4:7] - empty[2, :3]).mean() < 0.25
    assert np.abs(empty[3, 4:7] - empty[2, :3]).mean() > 0.5


def test_model_input_is_plain_without_context() -> None:
    strips = _frame((0,) * 24)
    assert np.array_equal(model_input(strips), normalise(strips))


def test_a_model_names_whether_it_reads_context(tmp_path) -> None:
    path = tmp_path / "m.onnx"
    shutil.copy(MODEL_PATH, path)
    assert not StripModel(path).context
    strip_path(path).write_text('{"base_margin_v": 0.0, "context": true}\n')
    model = StripModel(path)
    assert model.context and model.inputs == 8
    strip_path(path).write_text('{"base_margin_v": 0.0, "context": "yes"}\n')
    with pytest.raises(ValueError, match=r"m\.strip\.json.*true or false"):
        StripModel(path)


def test_a_plain_member_of_an_ensemble_reads_only_the_plain_channels(tmp_path) -> None:
    """An ensemble with a context member feeds 8 channels; the plain member keeps its 4 and
    reads exactly what it reads alone."""
    plain = StripModel(MODEL_PATH)
    x = with_context(normalise(_frame((2,) + (0,) * 22 + (-3,))))
    alone = plain.predict(x[:, :4])
    fed_wide = plain.predict(x)
    assert np.allclose(alone.count, fed_wide.count) and np.allclose(alone.light, fed_wide.light)
    path = tmp_path / "c.onnx"
    shutil.copy(MODEL_PATH, path)
    strip_path(path).write_text('{"base_margin_v": 0.0, "context": true}\n')
    assert StripEnsemble([plain, StripModel(path)]).context
    assert not StripEnsemble([plain]).context


def test_export_names_a_context_model(tmp_path) -> None:
    pytest.importorskip("torch", reason="PyTorch is the [train] extra; not installed")
    from nardy_pi.vision.train.board_reader import export
    from nardy_pi.vision.train.strip_net import StripNet, onnx_inputs

    path = tmp_path / "m.onnx"
    export(StripNet((8, 8, 8, 8), inputs=8).eval(), path, 0.04, context=True)
    model = StripModel(path)
    assert model.context and model.base_margin_v == 0.04 and onnx_inputs(path) == 8
    x = with_context(normalise(_frame((0,) * 24)))
    assert model.predict(x).count.shape == (SLOTS, 16)
    with pytest.raises(ValueError, match="4 channels, or 8 in colour"):
        StripNet((8, 8, 8, 8), grey=True, inputs=8)
