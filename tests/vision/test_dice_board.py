"""The learned board dice finder (vision/dice_board.py, the default for board observations) on
rendered boards through the whole Observer, and the cube and verdict helpers.

The shipped models read every re-roll case except `cocked` right on the wood style, a look
they were never trained on; cocked dice are still often missed and some values misread on
other looks (bench/bench_dice_board.py prints the figures), so only the wood style and the
centred cube are held to it here."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from nardy_pi.vision import geometry as g
from nardy_pi.vision.calibrate import calibrate
from nardy_pi.vision.cube import cube_place, cube_value
from nardy_pi.vision.dice_board import (
    SMALL_DIE,
    BoardDiceFinder,
    checked,
    reading,
    turns,
    with_small_dice,
)
from nardy_pi.vision.dice_crops import (
    CLASSES,
    COCKED,
    CROP_DIE_PX,
    CROP_PX,
    cell_to_image,
    cut_crops,
    foreshortening,
    image_to_cell,
)
from nardy_pi.vision.observe import Observer
from nardy_pi.vision.overlay import die_verdict
from nardy_pi.vision.render import Camera, Scene, render_scene
from nardy_pi.vision.render.scene import CubePlacement, DiePlacement
from nardy_pi.vision.render.styles import STYLES
from nardy_pi.vision.roll import judge_roll
from nardy_pi.vision.start_positions import start_board
from nardy_pi.vision.types import DieOnBoard

START = start_board("backgammon")
_SIX = g.point_strip(6)  # five white checkers from the bottom edge
_ON_CHECKER = (_SIX.base[0], _SIX.base[1] + _SIX.direction[1] * 1.5 * g.CHECKER)
CASES: dict[str, tuple[DiePlacement, ...]] = {
    "valid": (DiePlacement(5, 9.0, 5.4), DiePlacement(2, 11.2, 5.7, angle_deg=25)),
    "off_board": (DiePlacement(3, 9.0, 5.5), DiePlacement(6, -1.5, 6.0)),
    "split_halves": (DiePlacement(3, 9.0, 5.5), DiePlacement(4, 3.0, 5.3)),
    "cocked": (DiePlacement(3, 9.0, 5.5), DiePlacement(1, 11.0, 5.3, flat=False)),
    "on_checker": (DiePlacement(3, 9.0, 5.5), DiePlacement(4, *_ON_CHECKER, on_checker=True)),
    "missing_die": (DiePlacement(6, 9.5, 5.5),),
    "extra_die": (DiePlacement(1, 8.5, 5.5), DiePlacement(2, 10.0, 5.2),
                  DiePlacement(3, 11.5, 5.7)),
}


@cache
def _observer(style: str) -> tuple[Observer, Camera]:
    camera = Camera(width=640, height=480, seed=len(style))
    shot = render_scene(STYLES[style], camera, Scene(points=START.points, seed=0))
    cal = calibrate(shot.image, np.array(shot.corners), START)
    return Observer(cal, BoardDiceFinder()), camera


@pytest.mark.parametrize("style", ["wood"])
def test_every_reason_but_cocked_on_an_unseen_style(style: str) -> None:
    observer, camera = _observer(style)
    wrong = []
    for i, (case, dice) in enumerate(CASES.items()):
        if case == "cocked":
            continue
        scene = Scene(points=START.points, dice=dice, seed=10 + i)
        shot = render_scene(STYLES[style], camera, scene)
        obs = observer.observe(shot.image).observation
        truth = shot.truth["roll"]
        if (obs.roll.valid, sorted(obs.roll.reasons)) != (truth["valid"], sorted(truth["reasons"])):
            wrong.append((case, obs.roll.reasons, truth["reasons"]))
        if case == "valid":
            assert sorted(d.value for d in obs.dice) == [2, 5], style
    assert not wrong, wrong


@pytest.mark.parametrize(("face", "place"), [(64, "center")])
def test_the_cube_is_read_and_placed_and_never_taken_for_a_die(face: int, place: str) -> None:
    observer, camera = _observer("wood")
    scene = Scene(points=START.points, dice=CASES["valid"], cube=CubePlacement(face, place),
                  seed=3)
    obs = observer.observe(render_scene(STYLES["wood"], camera, scene).image).observation
    assert obs.cube is not None
    assert (obs.cube.value, obs.cube.position) == (1 if place == "center" else face, place)
    assert len(obs.dice) == 2 and obs.roll.valid


def test_cube_place_and_value_from_the_board_spot() -> None:
    assert cube_place(6.5, 5.5) == "center"
    assert cube_place(6.5, -0.42) == "top"
    assert cube_place(6.5, 11.42) == "bottom"
    assert cube_place(3.0, 2.0) == "top"  # owned, lying in its owner's half
    assert cube_place(-3.5, 5.0) == "off"
    assert cube_value(64, "center") == 1 and cube_value(64, "top") == 64


def test_one_die_found_says_missing_die_and_each_die_has_its_verdict() -> None:
    flat = DieOnBoard(3, (10.0, 10.0), True, True, "right", False)
    off = DieOnBoard(5, (10.0, 10.0), True, False, None, False)
    assert judge_roll((flat,)).reasons == ("missing_die",)
    assert judge_roll((flat, off)).reasons == ("off_board",)
    assert die_verdict(off, ("off_board",)) == "off board"
    assert die_verdict(flat, ()) == "ok"
    assert die_verdict(flat, ("split_halves",)) == "split"


def test_proposal_cells_map_back_to_image_pixels() -> None:
    xy = np.array([[12.3, 455.0], [0.0, 0.0]])
    assert np.allclose(cell_to_image(image_to_cell(xy, 0.37), 0.37), xy)


def test_a_board_never_calibrated_gets_its_dice_from_the_learned_finder_too() -> None:
    """analyze without --calibration (vision/board/first_look.py): the die size comes from the
    corners alone."""
    from nardy_pi.vision.board.first_look import read_unseen_board

    camera = Camera(width=640, height=480, seed=len("wood"))
    shot = render_scene(STYLES["wood"], camera, Scene(points=START.points, dice=CASES["valid"],
                                                      seed=10))
    look = read_unseen_board(shot.image, np.array(shot.corners), BoardDiceFinder())
    assert sorted(d.value for d in look.observation.dice) == [2, 5]
    assert look.observation.roll.valid


class _CornerNet:
    """A check net stand-in: a crop whose top-left pixel is bright holds a die showing 3 (or,
    with `cube`, the cube showing 2); any other crop holds nothing. Counts the crops read."""

    def __init__(self, cube: bool = False) -> None:
        self.cls = CLASSES.index("cube2" if cube else "die3")
        self.read = 0

    def check_probabilities(self, crops: np.ndarray, fine: bool = False) -> np.ndarray:
        self.read += len(crops)
        out = np.full((len(crops), len(CLASSES)), 0.01)
        bright = crops[:, 0, 0, 0] > 128
        out[bright, self.cls] = 1.0
        out[~bright, 0] = 1.0
        return out / out.sum(axis=1, keepdims=True)


def _crops(bright_corner: list[bool]) -> np.ndarray:
    crops = np.zeros((len(bright_corner), CROP_PX, CROP_PX, 3), np.uint8)
    crops[np.array(bright_corner), 0, 0] = 255
    return crops


def test_a_likely_die_is_read_in_all_eight_turns_and_the_readings_averaged() -> None:
    net = _CornerNet()
    probs = checked(net, _crops([True, False]))  # type: ignore[arg-type]
    # Only the first crop may hold a die, so only it is read again, in its eight turns; the
    # bright corner stays top-left in two of them (as it is, and transposed). The upright
    # reading is reused, so seven more crops are read.
    assert net.read == 2 + 7
    upright = net.check_probabilities(_crops([True]))[0]
    nothing = net.check_probabilities(_crops([False]))[0]
    assert np.allclose(probs[0], (2 * upright + 6 * nothing) / 8)
    assert np.allclose(probs[1], nothing)


def test_a_crop_the_upright_reading_calls_the_cube_keeps_that_reading() -> None:
    net = _CornerNet(cube=True)
    probs = checked(net, _crops([True]))  # type: ignore[arg-type]
    assert net.read == 1 + 7
    assert int(probs[0].argmax()) == CLASSES.index("cube2")
    assert np.allclose(probs[0], net.check_probabilities(_crops([True]))[0])


class _SixOrCubeNet(_CornerNet):
    """Upright (bright top-left pixel) a crop reads as the cube's 64; turned (the bright pixel
    in another corner) as a die showing 6."""

    def check_probabilities(self, crops: np.ndarray, fine: bool = False) -> np.ndarray:
        self.read += len(crops)
        out = np.full((len(crops), len(CLASSES)), 0.01)
        upright = crops[:, 0, 0, 0] > 128
        turned = ~upright & (crops.reshape(len(crops), -1).max(axis=1) > 128)
        out[upright, CLASSES.index("cube64")] = 1.0
        out[turned, CLASSES.index("die6")] = 1.0
        out[~upright & ~turned, 0] = 1.0
        return out / out.sum(axis=1, keepdims=True)


def test_a_crop_whose_turns_read_as_a_die_is_a_die_though_upright_it_looks_like_the_cube(
        ) -> None:
    probs = checked(_SixOrCubeNet(), _crops([True]))  # type: ignore[arg-type]
    assert int(probs[0].argmax()) == CLASSES.index("die6")


class _ScreenAndFineNet:
    """Plain and fine check stand-ins. The plain net gives a bright-cornered crop a 10% chance
    of a die showing 3, any other crop 1%; the fine net reads any crop with a bright pixel as
    surely a die showing 5. Counts the crops each reads."""

    has_fine = True

    def __init__(self) -> None:
        self.read = {False: 0, True: 0}

    def check_probabilities(self, crops: np.ndarray, fine: bool = False) -> np.ndarray:
        self.read[fine] += len(crops)
        out = np.zeros((len(crops), len(CLASSES)))
        if fine:
            bright = crops.reshape(len(crops), -1).max(axis=1) > 128
            out[bright, CLASSES.index("die5")] = 1.0
            out[~bright, 0] = 1.0
            return out
        chance = np.where(crops[:, 0, 0, 0] > 128, 0.1, 0.01)
        out[:, CLASSES.index("die3")] = chance
        out[:, 0] = 1.0 - chance
        return out


def test_a_still_read_takes_the_fine_net_for_what_the_plain_net_lets_through() -> None:
    crops = _crops([True, False])
    net = _ScreenAndFineNet()
    probs = checked(net, crops, fine=True)  # type: ignore[arg-type]
    # The plain net screens both; only the first reaches _FINE_FROM, so only it is read by the
    # fine net, which is sure of a die: upright and in its seven other turns.
    assert net.read == {False: 2, True: 1 + 7}
    assert int(probs[0].argmax()) == CLASSES.index("die5")
    assert probs[1, 0] == pytest.approx(0.99)
    camera = _ScreenAndFineNet()
    probs = checked(camera, crops)  # type: ignore[arg-type]
    assert camera.read == {False: 2, True: 0}
    assert int(probs[0].argmax()) == 0 and probs[0, CLASSES.index("die3")] == pytest.approx(0.1)


def test_the_shipped_fine_net_reads_the_check_nets_crops_and_classes() -> None:
    from nardy_pi.vision.dice_net import FINE_MODEL, default_nets

    nets = default_nets()
    assert nets.has_fine and nets.fine_path == FINE_MODEL
    crops = np.random.default_rng(3).integers(0, 256, (5, CROP_PX, CROP_PX, 3), np.uint8)
    probs = nets.check_probabilities(crops, fine=True)
    assert probs.shape == (5, len(CLASSES)) and np.allclose(probs.sum(axis=1), 1.0)
    assert not np.allclose(probs, nets.check_probabilities(crops))


def test_a_fine_read_needs_a_fine_net() -> None:
    from nardy_pi.vision.dice_net import HEAT_MODEL, load_nets

    plain = load_nets()
    assert not plain.has_fine
    with pytest.raises(ValueError, match="no fine check net"):
        plain.check_probabilities(_crops([True]), fine=True)
    with pytest.raises(FileNotFoundError, match="--fine --write"):
        load_nets(fine_path=HEAT_MODEL.with_name("absent_fine.onnx"))


def test_the_turns_are_the_eight_symmetries_of_the_square() -> None:
    crop = np.arange(CROP_PX * CROP_PX * 3, dtype=np.uint8).reshape(1, CROP_PX, CROP_PX, 3)
    got = turns(crop)
    assert len(got) == 8 and np.array_equal(got[0], crop)
    assert len({t.tobytes() for t in got}) == 8


def test_foreshortening_is_one_seen_from_above_and_the_squash_of_a_tilted_view() -> None:
    above = g.board_to_image_homography(g.surface_corners() * 40 + 20)
    assert foreshortening(above) == pytest.approx(1.0)
    squashed = g.board_to_image_homography(g.surface_corners() * [40, 28] + 20)
    assert foreshortening(squashed) == pytest.approx(0.7)


def _probs(**named: float) -> np.ndarray:
    p = np.array([named.get(c, 0.0) for c in CLASSES])
    return p / p.sum()


def test_a_tilted_view_reads_a_die_cocked_only_when_cocked_clearly_wins() -> None:
    """From a tilted camera a flat die shows its side faces: the cocked class may narrowly
    lead its face there, which reads as the face; seen from above, the likeliest class."""
    narrow = _probs(none=0.1, die4=0.35, die5=0.1, cocked=0.45)
    assert reading(narrow, view=1.0) == COCKED
    assert reading(narrow, view=0.95) == COCKED
    assert reading(narrow, view=0.75) == 4
    clear = _probs(none=0.05, die4=0.1, cocked=0.85)
    assert reading(clear, view=0.75) == COCKED
    cube = _probs(none=0.1, cube8=0.6, cocked=0.3)
    assert reading(cube, view=0.75) == CLASSES.index("cube8")


def test_peaks_refine_to_the_centroid_of_their_neighbourhood_inside_the_map() -> None:
    """Sub-cell peak positions, all peaks at once: a peak at the map's edge or corner takes
    only the cells that exist (the padding beyond weighs nothing)."""
    from nardy_pi.vision.dice_board import _refine

    rng = np.random.default_rng(5)
    logits = rng.normal(0, 3, (2, 7, 9)).astype(np.float32)
    peaks = [(0, 0, 0), (1, 6, 8), (0, 3, 4), (1, 0, 5), (0, 6, 0)]
    got = _refine(logits, *(np.array(v) for v in zip(*peaks, strict=True)))
    for (c, y, x), (gx, gy) in zip(peaks, got, strict=True):
        ys, xs = np.mgrid[max(y - 1, 0):min(y + 2, 7), max(x - 1, 0):min(x + 2, 9)]
        w = 1.0 / (1.0 + np.exp(-logits[c][ys, xs].astype(np.float64)))
        assert gx == pytest.approx((w * xs).sum() / w.sum(), abs=1e-12)
        assert gy == pytest.approx((w * ys).sum() / w.sum(), abs=1e-12)
        assert abs(gx - x) <= 1 and abs(gy - y) <= 1


class _FillNet:
    """A check net stand-in: a crop holds a die showing 4 as surely as the die's own place in
    the middle of the crop is bright. Counts the crops read."""

    def __init__(self) -> None:
        self.read = 0

    def check_probabilities(self, crops: np.ndarray, fine: bool = False) -> np.ndarray:
        self.read += len(crops)
        lo, hi = round((CROP_PX - CROP_DIE_PX) / 2), round((CROP_PX + CROP_DIE_PX) / 2)
        fill = (crops[:, lo:hi, lo:hi, 0] > 128).mean(axis=(1, 2))
        out = np.zeros((len(crops), len(CLASSES)))
        out[:, CLASSES.index("die4")] = fill
        out[:, 0] = 1.0 - fill
        return out


def test_a_die_half_the_nominal_size_is_read_again_at_its_size() -> None:
    die_px = 40.0
    image = np.zeros((200, 400, 3), np.uint8)
    small, whole = 20, 40  # sides in pixels: half the nominal die, and a nominal one
    image[90:90 + small, 90:90 + small] = 255
    image[80:80 + whole, 280:280 + whole] = 255
    centres = np.array([[100.0, 100.0], [300.0, 100.0], [200.0, 30.0]])  # small, whole, bare
    net = _FillNet()
    probs = checked(net, cut_crops(image, die_px, centres))  # type: ignore[arg-type]
    assert probs[0, 0] > 0.5 and probs[1, 0] < 0.05  # at the nominal size: small unsure
    read_before = net.read
    again, sides = with_small_dice(net, image, die_px, centres,  # type: ignore[arg-type]
                                   probs)
    # The small die now reads as a die, at its own size; the nominal die, already sure, keeps
    # its reading; bare board stays bare.
    assert int(again[0].argmax()) == CLASSES.index("die4") and again[0, 0] < 0.05
    assert sides.tolist() == [die_px * SMALL_DIE, die_px, die_px]
    assert np.array_equal(again[1], probs[1]) and again[2, 0] > 0.95
    # Only the proposal that may be a die but is not sure is cut again (bare board the first
    # reading is sure of is not): read upright, and, likely a die, in its seven other turns.
    assert net.read - read_before == 1 + 7


def test_a_smaller_reading_that_is_not_sure_leaves_the_first_one_standing() -> None:
    die_px = 40.0
    image = np.zeros((120, 120, 3), np.uint8)
    image[50:62, 50:70] = 255  # a bright patch that fills the small die's place only in part
    centres = np.array([[60.0, 56.0]])
    net = _FillNet()
    probs = checked(net, cut_crops(image, die_px, centres))  # type: ignore[arg-type]
    again, sides = with_small_dice(net, image, die_px, centres,  # type: ignore[arg-type]
                                   probs)
    assert np.array_equal(again, probs) and sides.tolist() == [die_px]


def test_analyze_checks_likely_dice_with_the_fine_net_and_the_camera_once_it_is_still(
        tmp_path, monkeypatch, capsys) -> None:
    """A still (analyze) can afford the fine check; a camera's frames keep the plain one until
    the scene holds still."""
    import json

    import cv2

    from nardy_pi.cli.main import main
    from nardy_pi.vision.dice_net import DiceNets
    from nardy_pi.vision.observe import default_dice_finder

    reads: list[bool] = []
    real = DiceNets.check_probabilities

    def spy(self, crops, fine=False):
        reads.append(fine)
        return real(self, crops, fine)

    monkeypatch.setattr(DiceNets, "check_probabilities", spy)
    observer, camera = _observer("wood")
    shot = render_scene(STYLES["wood"], camera, Scene(points=START.points, dice=CASES["valid"],
                                                      seed=10))
    image = tmp_path / "dice.png"
    cv2.imwrite(str(image), shot.image)
    corners = ";".join(f"{x:.2f},{y:.2f}" for x, y in shot.corners)
    assert main(["analyze", str(image), "--corners", corners, "--json"]) == 0
    assert sorted(d["value"] for d in json.loads(capsys.readouterr().out)["dice"]) == [2, 5]
    assert any(reads)  # some crop was read by the fine net
    reads.clear()
    finder = default_dice_finder()
    assert isinstance(finder, BoardDiceFinder) and not finder.fine
    camera_observer = Observer(observer.cal, finder)
    obs = camera_observer.observe(shot.image)  # the same frame, as the camera's first look
    assert sorted(d.value for d in obs.observation.dice) == [2, 5]
    assert reads and not any(reads)
    # the scene holds still: the camera's next frame is searched as analyze reads
    reads.clear()
    obs = camera_observer.observe(shot.image)
    assert sorted(d.value for d in obs.observation.dice) == [2, 5]
    assert any(reads)
