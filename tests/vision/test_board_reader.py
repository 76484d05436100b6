"""The second-generation board reader's parts: layout, strips, decoding, the shipped model."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from nardy_pi.rules.position import Position
from nardy_pi.vision.board.decode import (
    MAX,
    bar_distributions,
    decode,
    signed_distribution,
    with_side_bars,
)
from nardy_pi.vision.board.layout import (
    BAR_LOWER,
    BAR_UPPER,
    SLOTS,
    STRIP_H,
    STRIP_W,
    SurfaceLayout,
)
from nardy_pi.vision.board.model import MODEL_PATH, StripModel
from nardy_pi.vision.board.reader import SEEN_SHARE, BoardReader
from nardy_pi.vision.board.strips import StripCutter, normalise
from nardy_pi.vision.render import Camera, Scene, render_scene
from nardy_pi.vision.render.styles import STYLES
from tests.vision.scenes import points


def test_layout_tiles_the_surface_with_a_measured_bar() -> None:
    layout = SurfaceLayout(0.47, 0.53)  # a narrow bar: 0.77 point pitches
    assert layout.bar_points == pytest.approx(0.06 / layout.pitch)
    assert layout.point_u(1)[1] == pytest.approx(1.0) and layout.point_u(12)[0] == 0.0
    assert layout.point_u(7)[1] == pytest.approx(0.47) and layout.point_u(19)[0] == 0.53
    widths = [b - a for a, b in map(layout.point_u, range(1, 25))]
    assert max(widths) - min(widths) < 1e-9
    assert layout.slot_at(0.99, 0.95) == (0, pytest.approx(0.05))  # point 1, near its base
    assert layout.slot_at(0.5, 0.7)[0] == BAR_LOWER and layout.slot_at(0.5, 0.2)[0] == BAR_UPPER
    with pytest.raises(ValueError, match="not a bar"):
        SurfaceLayout(0.6, 0.5)


def test_decoding_keeps_fifteen_a_side() -> None:
    # Every slot unsure between its truth and one checker more of the same colour: the
    # 15-a-side rule settles it.
    truth = [0] * SLOTS
    truth[5], truth[7], truth[12], truth[23] = 5, 3, 5, 2
    truth[0], truth[11], truth[16], truth[18] = -2, -5, -3, -5
    probs = np.full((SLOTS, 2 * MAX + 1), 1e-9)
    for s, c in enumerate(truth):
        probs[s, c + MAX] = 0.55
        probs[s, c + MAX + (1 if c >= 0 else -1)] = 0.45
    probs /= probs.sum(axis=1, keepdims=True)
    out = decode(probs, np.ones(SLOTS, bool))
    assert list(out.counts) == truth
    assert 0 < out.board_confidence < 1 and len(out.confidence) == SLOTS
    # An unseen slot is None and may hold what the others miss.
    seen = np.ones(SLOTS, bool)
    seen[3] = False
    assert decode(probs, seen).counts[3] is None


def test_the_bars_halves_become_each_sides_total() -> None:
    # One white checker in the upper half, two black in the lower: white's bar total is +1
    # and black's -2, whichever half they lie in; the points are left as read.
    probs = np.full((SLOTS, 2 * MAX + 1), 1e-9)
    probs[:, MAX] = 1.0
    probs[BAR_UPPER] = 1e-9
    probs[BAR_UPPER, MAX + 1] = 1.0
    probs[BAR_LOWER] = 1e-9
    probs[BAR_LOWER, MAX - 2] = 1.0
    probs /= probs.sum(axis=1, keepdims=True)
    sides = with_side_bars(probs)
    assert int(np.argmax(sides[BAR_LOWER])) - MAX == 1  # white's row
    assert int(np.argmax(sides[BAR_UPPER])) - MAX == -2  # black's row
    assert np.array_equal(sides[:24], probs[:24])
    assert np.allclose(sides.sum(axis=1), 1.0)


def test_a_side_many_short_has_borne_off_and_is_not_made_up() -> None:
    # A bear-off board: two light checkers and one dark. The model all but rules out a tall
    # stack (1e-5), which is still likelier than the floor. Charging for all 27 missing
    # checkers would pile 15 on each occupied point; only a few missing are charged for.
    truth = [0] * SLOTS
    truth[0], truth[23] = 2, -1
    probs = np.full((SLOTS, 2 * MAX + 1), 1e-9)
    for s, c in enumerate(truth):
        probs[s, c + MAX] = 0.95
        probs[s, MAX + (MAX if c >= 0 else -MAX)] = 1e-5
    probs /= probs.sum(axis=1, keepdims=True)
    assert list(decode(probs, np.ones(SLOTS, bool)).counts) == truth
    # A side one short still takes the checker the model was unsure of.
    probs[5] = 1e-9
    probs[5, MAX + 12], probs[5, MAX + 13] = 0.55, 0.45
    assert decode(probs, np.ones(SLOTS, bool)).counts[5] == 13


def test_a_prior_on_empty_points_weighs_against_a_spread_count() -> None:
    # A point the model reads as one checker (0.45) rather than empty (0.3): one checker by
    # the model's odds, empty at three times them (0.9 against 0.45).
    probs = np.full((SLOTS, 2 * MAX + 1), 1e-9)
    probs[:, MAX] = 1.0
    probs[4, MAX] = 0.3
    probs[4, MAX + 1 : MAX + 3] = [0.45, 0.25]
    probs /= probs.sum(axis=1, keepdims=True)
    seen = np.ones(SLOTS, bool)
    assert decode(probs, seen).counts[4] == 1
    weighted = decode(probs, seen, empty_weight=3.0)
    assert weighted.counts[4] == 0
    # the confidences stay the model's own
    assert weighted.confidence[4] == pytest.approx(probs[4, MAX])
    # a point the model is sure of keeps its checkers
    probs[4, MAX], probs[4, MAX + 1] = 0.05, 0.9
    assert decode(probs, seen, empty_weight=3.0).counts[4] == 1


def test_the_first_look_decodes_with_its_prior_on_empty_points(monkeypatch) -> None:
    from nardy_pi.vision.board import first_look
    from nardy_pi.vision.board.frame_reading import EMPTY_WEIGHT

    seen_weights: list[float] = []
    real = BoardReader.reading_from

    def spy(self, pred, empty_weight=1.0):
        seen_weights.append(empty_weight)
        return real(self, pred, empty_weight)

    monkeypatch.setattr(BoardReader, "reading_from", spy)
    shot = render_scene(STYLES["wood"], Camera(seed=4), Scene(points=points(p6=5), seed=1))
    first_look.read_unseen_board(shot.image, shot.corners)
    assert seen_weights == [EMPTY_WEIGHT] and EMPTY_WEIGHT > 1.0


def test_signed_and_bar_distributions() -> None:
    count = np.zeros((SLOTS, MAX + 1))
    count[:, 0] = 1.0
    count[BAR_LOWER] = 0.0
    count[BAR_LOWER, 2] = 1.0
    light = np.full(SLOTS, 0.5)
    light[BAR_LOWER] = 1.0  # two light checkers in the lower half
    probs = signed_distribution(count, light)
    assert np.allclose(probs.sum(axis=1), 1.0)
    white, black = bar_distributions(probs)
    assert white[MAX + 2] == pytest.approx(1.0) and black[MAX] == pytest.approx(1.0)


def test_a_surface_partly_outside_the_image_leaves_those_points_unseen() -> None:
    shot = render_scene(STYLES["wood"], Camera(seed=4), Scene(points=points(p6=5), seed=1))
    corners = np.array(shot.corners)
    corners[:, 0] += 0.35 * 640  # slide the board right: the right-hand points leave
    cutter = StripCutter(corners, SurfaceLayout(), (640, 480))
    seen = cutter.visible >= SEEN_SHARE
    assert not seen[0] and not seen[23] and seen[11] and seen[12]  # point 1 and 24 out
    x = normalise(cutter.cut(shot.image))
    assert x.shape == (SLOTS, 4, 128, 32)
    assert x[0, 3].mean() > 0.5  # unknown-mask channel marks the outside
    assert np.isfinite(x).all()


@pytest.mark.parametrize("scale", [3, 4, 5])
def test_a_big_frame_is_shrunk_by_whole_steps_and_cut_as_a_small_one(scale: int) -> None:
    """A frame `scale` times bigger is area-shrunk by a whole number on a crop of whole steps
    (OpenCV's fast path) and gives the strips of the small frame, up to resampling."""
    shot = render_scene(STYLES["wood"], Camera(seed=4), Scene(points=points(p6=5), seed=1))
    big = cv2.resize(shot.image, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
    corners = np.array(shot.corners) * scale
    cutter = StripCutter(corners, SurfaceLayout(), (640 * scale, 480 * scale))
    x0, y0, x1, y1 = cutter.crop
    assert cutter.step >= 2 and cutter.factor == 1.0 / cutter.step
    assert (x1 - x0) % cutter.step == 0 and (y1 - y0) % cutter.step == 0
    assert x0 >= 0 and y0 >= 0 and x1 <= 640 * scale and y1 <= 480 * scale
    small = StripCutter(shot.corners, SurfaceLayout(), (640, 480)).cut(shot.image).raw
    got = cutter.cut(big).raw
    assert got.shape == small.shape
    assert np.abs(got.astype(int) - small).mean() < 3  # corners 8 px off: about 29


def test_whole_steps_grow_a_span_or_shrink_it_at_the_image_edge() -> None:
    from nardy_pi.vision.board.strips import _whole_steps

    assert _whole_steps(10, 21, 2, 100) == (10, 22)  # grown
    assert _whole_steps(10, 100, 3, 100) == (10, 100)  # already whole
    assert _whole_steps(88, 100, 5, 100) == (85, 100)  # grown backwards at the edge
    assert _whole_steps(0, 7, 2, 7) == (0, 6)  # the whole image, odd: shrunk


def test_saturated_pixels_are_unknown_not_a_colour() -> None:
    shot = render_scene(STYLES["wood"], Camera(seed=4), Scene(points=points(p6=5), seed=1))
    img = shot.image.copy()
    img[:, :320] = 255  # glare over the left half
    cutter = StripCutter(shot.corners, SurfaceLayout(), (640, 480))
    x = normalise(cutter.cut(img))
    left = 11  # point 12, far left
    assert x[left, 3].mean() > 0.9 and np.abs(x[left, :3]).max() == 0.0


def test_the_shipped_model_loads_and_reads_strips() -> None:
    assert MODEL_PATH.is_file() and MODEL_PATH.stat().st_size < 2 << 20
    shot = render_scene(STYLES["tournament"], Camera(seed=5),
                        Scene(points=points(p6=5, p13=-4), seed=2))
    cutter = StripCutter(shot.corners, SurfaceLayout(), (640, 480))
    pred = StripModel().predict(normalise(cutter.cut(shot.image)))
    assert pred.count.shape == (SLOTS, 16) and np.allclose(pred.count.sum(1), 1.0, atol=1e-4)
    assert pred.count[5].argmax() == 5 and pred.count[12].argmax() == 4
    assert pred.light[5] > 0.5 > pred.light[12]
    assert pred.embedding.shape == (SLOTS, 64)


def test_torch_and_cv2_dnn_agree() -> None:
    torch = pytest.importorskip("torch", reason="PyTorch is the [train] extra; not installed")
    from nardy_pi.vision.board.heads import Heads
    from nardy_pi.vision.train.board_reader import export
    from nardy_pi.vision.train.strip_net import StripNet

    torch.manual_seed(0)
    net = StripNet().eval()
    with torch.no_grad():  # non-trivial batch-norm statistics, as after training
        for m in net.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                m.running_mean.uniform_(-0.5, 0.5)
                m.running_var.uniform_(0.5, 2.0)
    x = np.random.default_rng(0).normal(size=(7, 4, 128, 32)).astype(np.float32)
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "m.onnx"
        export(net, path)
        model = StripModel(path)
        got = model.raw(x)
        heads = Heads.from_model(model)  # from the file export writes beside the model
    assert np.allclose(heads.count_w, net.count.weight.detach().numpy(), atol=1e-6)
    with torch.no_grad():
        want = [t.numpy() for t in net(torch.from_numpy(x))]
    for a, b in zip(want, got, strict=True):
        assert np.abs(a - b).max() < 1e-4


def test_fine_tuning_starts_from_the_shipped_model_exactly() -> None:
    """`--init`: the exported model loaded back into torch computes what cv2.dnn computes."""
    torch = pytest.importorskip("torch", reason="PyTorch is the [train] extra; not installed")
    from nardy_pi.vision.board.model import MODEL_PATH
    from nardy_pi.vision.train.strip_net import StripNet, load_onnx

    net = load_onnx(StripNet(), MODEL_PATH).eval()
    x = np.random.default_rng(1).normal(size=(5, 4, 128, 32)).astype(np.float32)
    with torch.no_grad():
        want = [t.numpy() for t in net(torch.from_numpy(x))]
    for a, b in zip(want, StripModel(MODEL_PATH).raw(x), strict=True):
        assert np.abs(a - b).max() < 1e-4
    with pytest.raises(ValueError, match="not a strip model"):
        load_onnx(StripNet(), MODEL_PATH.parent / "dice_check.onnx")


def test_a_wider_model_fine_tunes_at_its_own_widths(tmp_path) -> None:
    """`--widths` makes a wider base; `--init` rebuilds the twin from the file's widths."""
    torch = pytest.importorskip("torch", reason="PyTorch is the [train] extra; not installed")
    from nardy_pi.vision.train.board_reader import export
    from nardy_pi.vision.train.strip_net import StripNet, load_onnx, onnx_widths

    torch.manual_seed(2)
    path = tmp_path / "wide.onnx"
    export(StripNet((8, 24, 16, 40)).eval(), path)
    assert onnx_widths(path) == (8, 24, 16, 40)
    twin = load_onnx(StripNet(onnx_widths(path)), path).eval()
    x = np.random.default_rng(3).normal(size=(3, 4, 128, 32)).astype(np.float32)
    with torch.no_grad():
        want = twin(torch.from_numpy(x))[0].numpy()
    assert np.abs(want - StripModel(path).raw(x)[0]).max() < 1e-4
    with pytest.raises(ValueError, match="not a strip model"):
        load_onnx(StripNet(), path)



def test_a_grey_model_reads_by_shape_and_fine_tunes_as_grey(tmp_path) -> None:
    """`--grey`: the exported graph averages the colour channels itself, so cv2.dnn gives the
    same outputs for a strip and its colour-swapped copy; `--init` knows a grey base."""
    torch = pytest.importorskip("torch", reason="PyTorch is the [train] extra; not installed")
    from nardy_pi.vision.train.board_reader import export
    from nardy_pi.vision.train.strip_net import StripNet, load_onnx, onnx_grey, onnx_widths

    torch.manual_seed(4)
    path = tmp_path / "grey.onnx"
    export(StripNet((8, 16, 24, 32), grey=True).eval(), path)
    assert onnx_grey(path) and onnx_widths(path) == (8, 16, 24, 32)
    assert not onnx_grey(MODEL_PATH)
    x = np.random.default_rng(5).normal(size=(3, 4, 128, 32)).astype(np.float32)
    swapped = x[:, [2, 0, 1, 3]]
    model = StripModel(path)
    plain, other = model.raw(x), model.raw(swapped)
    assert np.abs(plain[0] - other[0]).max() < 1e-4
    colour = StripModel(MODEL_PATH)  # a colour model does see the swap
    assert np.abs(colour.raw(x)[0] - colour.raw(swapped)[0]).max() > 1e-2
    twin = load_onnx(StripNet(onnx_widths(path), grey=True), path).eval()
    with torch.no_grad():
        want = twin(torch.from_numpy(x))[0].numpy()
    assert np.abs(want - plain[0]).max() < 1e-4
    assert not twin.grey.weight.requires_grad  # fine-tuning keeps the averaging fixed
    with pytest.raises(ValueError, match="grey strip model"):
        load_onnx(StripNet(onnx_widths(path)), path)
    # `--colour`: the same function in a colour net, whose first convolution can learn colour
    coloured = load_onnx(StripNet(onnx_widths(path)), path, in_colour=True).eval()
    assert coloured.grey is None
    with torch.no_grad():
        again = coloured(torch.from_numpy(x))[0].numpy()
        moved = coloured(torch.from_numpy(np.ascontiguousarray(swapped)))[0].numpy()
    assert np.abs(again - plain[0]).max() < 1e-4
    assert np.abs(moved - plain[0]).max() < 1e-4  # not yet fine-tuned: still colour-blind
    with pytest.raises(ValueError, match="colour strip model"):
        load_onnx(StripNet(grey=True), MODEL_PATH)

def test_the_photos_recipe_needs_a_base_model(capsys) -> None:
    from nardy_pi.vision.train.board_reader import main

    with pytest.raises(SystemExit) as stop:
        main(["--recipe", "photos"])
    assert stop.value.code == 2
    assert "--init BASE.onnx" in capsys.readouterr().err


def test_nudged_placements_move_the_surface_by_a_share_of_its_size() -> None:
    from nardy_pi.vision.board.reader import nudged

    corners = np.array([[100.0, 50.0], [700.0, 60.0], [690.0, 550.0], [110.0, 540.0]])
    bigger, smaller = nudged(corners, 0.02)
    centre = corners.mean(axis=0)
    assert np.allclose(bigger.mean(axis=0), centre) and np.allclose(smaller.mean(axis=0), centre)
    assert np.allclose(bigger - centre, (corners - centre) * 1.02)
    assert np.allclose(smaller - centre, (corners - centre) * 0.98)


def test_a_steady_reading_averages_the_nudged_readings() -> None:
    """`steady` keeps the chosen layout and reads it at each nudged placement: its outputs
    are still distributions, the reader is the same, and a clean render reads the same."""
    from nardy_pi.vision.board.reader import fit_reader

    style = next(iter(STYLES.values()))
    frame = render_scene(style, Camera(width=800, height=600, perspective=0.02, seed=2),
                         Scene(points=Position.start("backgammon").points, seed=6))
    corners = np.asarray(frame.corners, np.float64)
    reader, once, strips = fit_reader(frame.image, corners)
    same, steady, _ = fit_reader(frame.image, corners, steady=True)
    # the chosen layout's strips as cut, and its predictions its plain and mirrored reading
    assert np.array_equal(strips.raw, reader.cutter.cut(frame.image).raw)
    x = normalise(strips)
    mirrored = reader.model.predict_mirrored(x)
    assert np.allclose(once.count, mirrored.count, atol=1e-5)
    assert np.allclose(once.light, mirrored.light, atol=1e-5)
    assert same.cutter.layout == reader.cutter.layout
    assert np.allclose(steady.count.sum(axis=1), 1.0)
    assert not np.allclose(steady.count, once.count)  # the other placements were read
    assert reader.reading_from(steady).counts[:24] == Position.start("backgammon").points


def test_the_first_look_pair_ships_and_averages_both() -> None:
    """analyze's first look reads with its own pair of models (the first on Lite0's front
    end): their probabilities averaged, the embedding the first member's; both read strips
    that start outside the surface edge, the camera loop's model strips cut at the edge."""
    from nardy_pi.vision.board.layout import FIRST_LOOK_MARGIN_V
    from nardy_pi.vision.board.model import (
        FIRST_MODEL_PATH,
        LITE_MODEL_PATH,
        SECOND_MODEL_PATH,
        StripEnsemble,
        first_look_model,
        shipped_model,
    )

    for path in (LITE_MODEL_PATH, FIRST_MODEL_PATH, SECOND_MODEL_PATH):
        assert path.is_file() and path.stat().st_size < 2 << 20
    both = first_look_model()
    assert [m.path for m in both.models] == [LITE_MODEL_PATH, SECOND_MODEL_PATH]
    assert both.base_margin_v == FIRST_LOOK_MARGIN_V > 0.0
    assert shipped_model().base_margin_v == 0.0
    shot = render_scene(STYLES["tournament"], Camera(seed=5),
                        Scene(points=points(p6=5, p13=-4), seed=2))
    layout = SurfaceLayout(base_margin_v=both.base_margin_v)
    x = normalise(StripCutter(shot.corners, layout, (640, 480)).cut(shot.image))
    a, b = (StripModel(p).predict_mirrored(x) for p in (LITE_MODEL_PATH, SECOND_MODEL_PATH))
    mean = both.predict_mirrored(x)
    assert not np.allclose(a.count, b.count, atol=1e-3)  # two models, not one twice
    assert np.allclose(mean.count, (a.count + b.count) / 2, atol=1e-6)
    assert np.allclose(mean.light, (a.light + b.light) / 2, atol=1e-6)
    assert np.allclose(mean.embedding, a.embedding)
    assert mean.count[5].argmax() == 5 and mean.count[12].argmax() == 4
    with pytest.raises(ValueError, match="at least one"):
        StripEnsemble([])


def test_the_first_look_pair_picks_the_bar_with_its_second_member_alone() -> None:
    """The costly Lite0 member reads one layout, not every bar candidate: the second member
    (the scout) picks it, then the pair reads it, plain and mirrored."""
    from nardy_pi.vision.board.model import StripEnsemble, average, first_look_model
    from nardy_pi.vision.board.reader import fit_reader
    from nardy_pi.vision.render.randomised import render_random

    pair = first_look_model()
    assert pair.scout is pair.models[1]
    shot = render_random(30002, split="heldout", size=(640, 480), occluder=False)
    corners = np.asarray(shot.truth.corners, dtype=np.float64)
    fitted = fit_reader(shot.image, corners, pair)
    alone = fit_reader(shot.image, corners, pair.scout)
    assert fitted.reader.cutter.layout == alone.reader.cutter.layout
    x = normalise(fitted.strips)
    want = average([pair.predict(x), pair.predict(x[..., ::-1])])
    points = slice(0, BAR_LOWER)
    assert np.allclose(fitted.predictions.count[points], want.count[points], atol=1e-6)
    # the bar halves are the bar reader's alone, plain and mirrored
    bar = x[[BAR_LOWER, BAR_UPPER]]
    read = average([pair.bar.predict(bar), pair.bar.predict(bar[..., ::-1])])
    assert np.allclose(fitted.predictions.count[[BAR_LOWER, BAR_UPPER]], read.count, atol=1e-6)
    assert np.allclose(fitted.predictions.light[[BAR_LOWER, BAR_UPPER]], read.light, atol=1e-6)
    whole = StripEnsemble(pair.models)  # no scout: the pair reads every candidate
    assert whole.scout is whole
    with pytest.raises(ValueError, match="no member 2"):
        StripEnsemble(pair.models, scout=2)


@pytest.mark.parametrize(("seed", "bar"), [(30014, (1, 0)), (30044, (1, 0)), (30056, (0, 2)),
                                         (30005, (0, 3)), (30002, (0, 0))])
def test_the_first_look_reads_bar_checkers_anywhere_along_the_bar(seed, bar) -> None:
    """Real players leave a hit checker on the middle of the bar or far along it; the first
    look's bar reader learned both (renders with loose_bar, --bar-labels). Looks never trained
    on, a checker left loose along the bar in the first four."""
    from nardy_pi.vision.board.first_look import read_unseen_board
    from nardy_pi.vision.board.model import BAR_MODEL_PATH, first_look_model
    from nardy_pi.vision.render.randomised import render_random

    assert first_look_model().bar.path == BAR_MODEL_PATH
    assert BAR_MODEL_PATH.stat().st_size < 2 << 20
    shot = render_random(seed, split="heldout", size=(640, 480), dice="none", cube="none",
                         occluder=False, loose_bar=True)
    assert (shot.truth.bar_white, shot.truth.bar_black) == bar
    obs = read_unseen_board(shot.image, np.asarray(shot.truth.corners)).observation
    assert (obs.bar_white, obs.bar_black) == bar


def test_a_bar_reader_reads_the_strips_its_ensemble_reads() -> None:
    from nardy_pi.vision.board.model import StripEnsemble, first_look_model, shipped_model

    pair = first_look_model()
    with pytest.raises(ValueError, match="same strips"):  # cut at the edge, not outside it
        StripEnsemble(pair.models, scout=1, bar=shipped_model())
    assert StripEnsemble(pair.models).bar is None


def test_the_camera_pair_asks_the_second_model_only_where_the_first_is_unsure() -> None:
    """The camera's pair: the plain first member (Lite0's costs too much a frame) and the
    first look's second opinion where it is unsure."""
    from nardy_pi.vision.board.model import (
        FIRST_MODEL_PATH,
        SecondOpinionWhereUnsure,
        StripEnsemble,
        camera_pair,
        first_look_model,
    )
    from nardy_pi.vision.render.randomised import iter_session

    cascade = camera_pair()
    first, second = cascade.first, cascade.second
    assert first.path == FIRST_MODEL_PATH and second is first_look_model().models[1]
    # a start position in a look never trained on: the first model is unsure of a few strips
    frame = next(iter_session(30000, 0, "heldout", (640, 480)))
    layout = SurfaceLayout(base_margin_v=cascade.base_margin_v)
    x = normalise(StripCutter(frame.truth.corners, layout, (640, 480)).cut(frame.image))
    a, b, got = first.predict(x), second.predict(x), cascade.predict(x)
    unsure = cascade.unsure(a)
    assert unsure.any() and not unsure.all()
    assert np.allclose(got.count[~unsure], a.count[~unsure])
    assert np.allclose(got.occluded[~unsure], a.occluded[~unsure])
    assert np.allclose(got.count[unsure], (a.count[unsure] + b.count[unsure]) / 2, atol=1e-6)
    assert np.allclose(got.light[unsure], (a.light[unsure] + b.light[unsure]) / 2, atol=1e-6)
    assert np.allclose(got.embedding, a.embedding)
    # sure means a signed count at SURE or more and no occluder in sight
    sure = signed_distribution(a.count, a.light).max(axis=1)
    assert ((sure >= cascade.SURE) & (a.occluded < cascade.LOOK_OCCLUDED))[~unsure].all()
    with pytest.raises(ValueError, match="a pair"):
        SecondOpinionWhereUnsure(StripEnsemble([first]))


def test_colour_needs_a_base_to_fine_tune(capsys) -> None:
    from nardy_pi.vision.train.board_reader import main

    with pytest.raises(SystemExit) as stop:
        main(["--colour"])
    assert stop.value.code == 2
    assert "give the base with --init" in capsys.readouterr().err


def test_a_training_set_keeps_a_share_of_empty_strips_as_drawn_over_all_parts() -> None:
    from nardy_pi.vision.train.board_reader import finish
    from nardy_pi.vision.train.strip_data import StripSet

    rng = np.random.default_rng(1)

    def part(n: int) -> StripSet:
        return StripSet(rng.random((n, 4, 8, 4)).astype(np.float16), rng.integers(0, 3, n),
                        rng.integers(-1, 2, n), (rng.random(n) < 0.2).astype(np.float32),
                        rng.random(n).astype(np.float32), rng.integers(0, 5, n))

    parts = [part(50), part(0), part(30)]
    got = finish(parts, np.random.default_rng(7), 0.5)
    # The same selection as one draw over the concatenation (how the shipped models' data
    # was made before the parts were filtered one by one).
    whole = [np.concatenate([getattr(p, f) for p in parts])
             for f in ("x", "count", "colour", "occluded", "count_weight", "group")]
    empty = (whole[1] == 0) & (whole[3] == 0)
    keep = ~empty | (np.random.default_rng(7).random(80) < 0.5)
    assert 0 < (~keep).sum() < empty.sum()
    for name, values in zip(("x", "count", "colour", "occluded", "count_weight", "group"),
                            whole, strict=True):
        np.testing.assert_array_equal(getattr(got, name), values[keep])
    assert len(StripSet.concat([])) == 0


def test_strips_written_as_they_come_equal_the_pieces_joined() -> None:
    from nardy_pi.vision.train.render_frames import classic_frames
    from nardy_pi.vision.train.strip_data import collect

    def strips(frame_count: int | None):
        return collect(classic_frames(3, 5), np.random.default_rng(2), copies=2,
                       frame_count=frame_count)

    joined = strips(None)
    for count in (3, 2, 10):  # exact, too few (the rest joined after), more than come
        written = strips(count)
        for name in ("x", "count", "colour", "occluded", "count_weight", "group"):
            np.testing.assert_array_equal(getattr(written, name), getattr(joined, name))
    assert len(joined) > 100


def test_a_saved_training_set_maps_back_from_disk_and_selects_the_same(tmp_path) -> None:
    """A base's rendered strips are saved one field per file and mapped back, so taking the
    training set from them never holds the whole render in memory."""
    from nardy_pi.vision.train.board_reader import finish
    from nardy_pi.vision.train.render_frames import classic_frames
    from nardy_pi.vision.train.strip_data import StripSet, collect

    made = collect(classic_frames(2, 5), np.random.default_rng(2), copies=1, frame_count=2,
                   context=True)
    assert made.x.shape[1:] == (8, STRIP_H, STRIP_W)
    made.save(tmp_path / "part")
    back = StripSet.load(tmp_path / "part")
    assert isinstance(back.x, np.memmap)
    for name in ("x", "count", "colour", "occluded", "count_weight", "group"):
        np.testing.assert_array_equal(getattr(back, name), getattr(made, name))
    kept = finish([back], np.random.default_rng(3), 0.5)
    want = finish([made], np.random.default_rng(3), 0.5)
    np.testing.assert_array_equal(kept.x, want.x)
    assert not isinstance(kept.x, np.memmap) and 0 < len(kept) < len(made)
