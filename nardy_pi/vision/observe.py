"""One frame + a calibration -> an Observation (board-frame.md §3)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import cv2
import numpy as np

from nardy_pi.vision import geometry as g
from nardy_pi.vision.appearance import UNEXPLAINED_DISTANCE
from nardy_pi.vision.calibrate import board_grid
from nardy_pi.vision.calibration import Calibration
from nardy_pi.vision.census import (
    Census,
    ClassifiedRaster,
    die_on_checker,
    stack_region,
    take_census,
)
from nardy_pi.vision.cube import CubeFound, cube_from_seen, find_cube
from nardy_pi.vision.lighting import correct, gain_map
from nardy_pi.vision.occlusion import expected_labels, occlusion_mask
from nardy_pi.vision.rectify import RASTER_X0, RASTER_Y0, Raster, rectify
from nardy_pi.vision.roll import judge_roll
from nardy_pi.vision.still import StillFrames
from nardy_pi.vision.types import DieOnBoard, DieReading, Observation

if TYPE_CHECKING:
    from nardy_pi.vision.board.confirmed import ConfirmedFrames

DIE_SIZE_RANGE = (0.2, 1.3)  # board units: a die box with its side face and perspective
DiceFinder = Callable[[np.ndarray], Sequence[DieReading]]


def default_dice_finder(learned: bool = True, fine: bool = False) -> DiceFinder | None:
    """The dice reader for board observations: the learned board finder (vision/dice_board.py,
    dice and the cube) when its models load, else (or with `learned=False`) the plain-table
    reader (vision/dice.py), which `nardy-pi dice` uses on a table.

    The learned finder finds and reads more dice than the plain-table reader both on real
    board photos (held out by board) and on rendered boards in looks it never saw
    (bench/bench_dice_board.py). A finder with `uses_board` is called with the board->image
    homography and returns dice_board.BoardDice. `fine`: a still read (analyze), which takes
    the fine check net for the likely dice (dice_board._FINE_FROM); a camera's frames do not
    (the frame budget), except once a scene holds still (Observer's `fine_when_settled`)."""
    if learned:
        try:
            from nardy_pi.vision.dice_board import BoardDiceFinder
            from nardy_pi.vision.dice_net import default_nets

            default_nets()
            return BoardDiceFinder(fine=fine)
        except (ImportError, FileNotFoundError, cv2.error):
            pass
    try:
        from nardy_pi.vision.dice import PlainDiceFinder
    except ImportError:
        return None
    return PlainDiceFinder()


@dataclass(frozen=True, slots=True)
class Seen:
    """An Observation plus what the overlay draws."""

    observation: Observation
    census: Census | None  # None with the learned reader
    raster: Raster
    homography: np.ndarray  # board -> image, for this frame's size
    occlusion: np.ndarray  # bool raster mask
    dice_boxes: tuple[tuple[float, float, float, float], ...] = field(default=())
    cube_box: tuple[float, float, float, float] | None = None


class Observer:
    """Holds what one calibration precomputes (lighting map, lookup table, grids)."""

    def __init__(self, calibration: Calibration, dice_finder: DiceFinder | None = None,
                 accepted_dice_counts: tuple[int, ...] = (2,), reuse_unchanged: bool = True,
                 fine_when_settled: bool = True) -> None:
        """`reuse_unchanged`: a still camera's frames are not searched for dice again while
        nothing in them changes (vision/still.py), and the learned reader reads again only
        the strips that changed (board/reuse.py); off: everything, every frame.
        `fine_when_settled` (with `reuse_unchanged`): once a scene holds still, it is searched
        once more with the dice finder's still read (its fine check net, as `analyze` reads),
        which a moving scene's frames have no time for."""
        self.cal = calibration
        self.reuse_unchanged = reuse_unchanged
        self._still = StillFrames() if reuse_unchanged else None
        self._dice_seen: tuple | None = None  # the last search's dice, cube and hidden pixels
        self._fine_seen = False  # the last search was the settled scene's still read
        self._reads_still = fine_when_settled and getattr(dice_finder, "reads_still", False)
        self.dice_finder = dice_finder
        self.accepted = accepted_dice_counts
        self._cache: dict[tuple[int, int], tuple] = {}
        #: the learned reader's last clean frame (embeddings, reading, seen slots)
        self._last_learned: tuple | None = None
        self.confirmed: ConfirmedFrames | None = None  # the learned reader's pool
        from nardy_pi.vision.board.adapt import PAIR

        #: the first look's pair reads this board (board/adapt.py), not the camera model
        self._reads_with_pair = (calibration.learned is not None
                                 and calibration.learned.strips == PAIR)
        if calibration.reader == "learned":
            from nardy_pi.vision.board.confirmed import ConfirmedFrames
            from nardy_pi.vision.board.heads import Heads
            from nardy_pi.vision.board.model import shipped_model

            check_learned(calibration)
            learned = calibration.learned
            assert learned is not None
            if not self._reads_with_pair:
                # the camera model's heads learn this board from confirmed plays; the first
                # look's pair reads every board alike and has nothing to learn
                self.confirmed = ConfirmedFrames(learned.heads
                                                 or Heads.from_model(shipped_model()))
            self._learned_for_size(*calibration.image_size)  # a bad placement fails at start
            return
        assert calibration.colours is not None, "a colour calibration has colour classes"
        names = calibration.colours.names
        self._white, self._black = names.index("white"), names.index("black")
        alike = calibration.colours.alike()
        # Row 255 (no expectation) accepts every label.
        self._alike = np.ones((256, len(names)), bool)
        self._alike[: len(names)] = alike

    def _frame_scale(self, width: int, height: int) -> np.ndarray:
        cw, ch = self.cal.image_size
        if abs(width / cw - height / ch) > 0.02 * width / cw:
            raise ValueError(
                f"image is {width}x{height} but the calibration was made at {cw}x{ch} "
                "with another aspect ratio; calibrate again"
            )
        return np.diag([width / cw, height / ch, 1.0])

    def _for_size(self, width: int, height: int) -> tuple:
        key = (width, height)
        if key not in self._cache:
            s = self._frame_scale(width, height)
            h = s @ self.cal.homography
            probe = rectify(np.zeros((height, width, 3), np.uint8), h, self.cal.scale)
            gmap = gain_map(self.cal.gain, probe.image.shape[:2], self.cal.scale)
            x, y = board_grid(probe)
            # Just inside the surface: its edge mixes frame, rims and field.
            surface = (x > 0.05) & (x < g.SURFACE_WIDTH - 0.05) & (y > 0.05) & (
                y < g.SURFACE_HEIGHT - 0.05)
            names = self.cal.colours.names
            expected = expected_labels(self.cal.point_classes, names, probe.image.shape[:2],
                                       self.cal.scale, RASTER_X0, RASTER_Y0)
            self._cache[key] = (h, gmap, surface, probe.valid, expected)
        return self._cache[key]

    def observe(self, image: np.ndarray) -> Seen:
        if self.cal.reader == "learned":
            return self._observe_learned(image)
        height, width = image.shape[:2]
        h, gmap, surface, valid, expected = self._for_size(width, height)
        raster = rectify(image, h, self.cal.scale, valid)
        corrected = correct(raster.image, gmap)
        labels, distance = self.cal.colours.classify(corrected)
        h_inv = np.linalg.inv(h)
        readings, cube, ignore = self._dice_and_cube(image, h, h_inv, labels.shape)
        grey = cv2.cvtColor(corrected, cv2.COLOR_BGR2GRAY).astype(np.float32)
        classified = ClassifiedRaster(
            white=labels == self._white, black=labels == self._black, grey=grey,
            unexplained=distance > UNEXPLAINED_DISTANCE,
            hidden=ignore | ~raster.valid, scale=self.cal.scale, x0=RASTER_X0, y0=RASTER_Y0,
        )
        spots = tuple(
            (float(bx), float(by))
            for bx, by in g.apply_homography(h_inv, np.array([d.center for d in readings]))
        ) if readings else ()
        census = take_census(classified, self.cal.trays, self.cal.stack_styles, spots)
        occlusion = self._occlusion(classified, labels, distance, expected, census,
                                    surface & raster.valid, ignore)
        dice = tuple(_place_die(d, h_inv, census, classified) for d in readings)
        obs = Observation(
            points=tuple(r.count for r in census.points),
            bar_white=census.bar_white.count,
            bar_black=-census.bar_black.count,
            off_white=census.off_white,
            off_black=census.off_black,
            dice=dice,
            cube=None if cube is None else cube.reading,
            roll=judge_roll(dice, self.accepted),
            occluded=bool(occlusion.any()),
        )
        return Seen(obs, census, raster, h, occlusion, tuple(d.box for d in readings),
                    None if cube is None else cube.box)


    def _learned_for_size(self, width: int, height: int) -> tuple:
        """Learned reader: the board homography, raster validity and strip reader for one
        frame size (the calibration's corners scaled to it)."""
        from nardy_pi.vision.board.reader import BoardReader

        key = (width, height)
        if key not in self._cache:
            s = self._frame_scale(width, height)
            h = s @ self.cal.homography
            probe = rectify(np.zeros((height, width, 3), np.uint8), h, self.cal.scale)
            corners = g.apply_homography(s, np.asarray(self.cal.corners, np.float64))
            learned = self.cal.learned
            assert learned is not None
            if self._reads_with_pair:
                from nardy_pi.vision.board.model import camera_pair

                model, prototypes, heads = camera_pair(), None, None
            else:
                # A size first seen after some plays reads with what they taught.
                taught = self.confirmed is not None and len(self.confirmed) > 0
                model, prototypes = None, learned.prototypes  # None: the camera model
                heads = self.confirmed.heads if taught else learned.heads  # type: ignore[union-attr]
            reader = BoardReader(corners, learned.layout, (width, height), model,
                                 prototypes=prototypes, heads=heads, reuse=self.reuse_unchanged)
            self._cache[key] = (h, probe.valid, reader)
        return self._cache[key]

    def _observe_learned(self, image: np.ndarray) -> Seen:
        """The strip models at the calibration's layout: the first look's pair as it reads a
        board never seen, or the camera model adapted to this board; dice and cube as for the
        colour reader; occlusion from the models' occluder head."""
        from nardy_pi.vision.board.first_look import observation_from_reading
        from nardy_pi.vision.board.frame_reading import frame_reading

        height, width = image.shape[:2]
        h, valid, reader = self._learned_for_size(width, height)
        raster = rectify(image, h, self.cal.scale, valid)  # the watcher's motion test uses it
        h_inv = np.linalg.inv(h)
        readings, cube, _hidden = self._dice_and_cube(image, h, h_inv, raster.valid.shape)
        strips, pred = reader.cut_and_predict(image)
        if self._reads_with_pair:
            reading = frame_reading(reader, pred, strips)
        else:
            reading = reader.reading_from(pred)
        obs = observation_from_reading(reading, readings, self.accepted,
                                       None if cube is None else cube.reading, image=image)
        self._last_learned = None if obs.occluded else (pred.embedding, reading, reader.seen)
        return Seen(obs, None, raster, h, np.zeros(raster.valid.shape, bool),
                    tuple(d.box for d in readings), None if cube is None else cube.box)

    def confirm(self, points: Sequence[int], bar: tuple[int, int]) -> bool:
        """The position the last observed frame showed, as the referee confirmed it (a
        legal play it accepted): the learned reader learns this board from its strips
        (board/confirmed.py). False when nothing was learned: the colour reader, the first
        look's pair, a covered frame, or a reading too far from the position."""
        from nardy_pi.vision.board.confirmed import confirmed_slots

        last, self._last_learned = self._last_learned, None
        if self.confirmed is None or last is None:
            return False
        embedding, reading, seen = last
        counts, labelled = confirmed_slots(points, bar)
        if not self.confirmed.add(embedding, reading.counts, counts, labelled & seen):
            return False
        for entry in self._cache.values():
            entry[2].heads = self.confirmed.heads
        return True

    def _dice_and_cube(self, image: np.ndarray, h: np.ndarray, h_inv: np.ndarray,
                       shape: tuple[int, int]) -> tuple[list[DieReading], CubeFound | None,
                                                        np.ndarray]:
        """Dice (sized like dice on this board), the cube, and the raster pixels they hide;
        a still frame keeps the last search's (vision/still.py), and a scene that holds still
        is searched once with the finder's still read (then again at each refresh)."""
        if self._still is None:
            return self._search_dice(image, h, h_inv, shape)
        changed = self._still.changed(image)
        settled = self._reads_still and self._still.settled
        if self._dice_seen is None or (changed and not settled):
            self._dice_seen = self._search_dice(image, h, h_inv, shape)
            self._fine_seen = False
        elif settled and (changed or not self._fine_seen):
            self._dice_seen = self._search_dice(image, h, h_inv, shape, fine=True)
            self._fine_seen = True
        readings, cube, hidden = self._dice_seen
        return list(readings), cube, hidden.copy()

    def _search_dice(self, image: np.ndarray, h: np.ndarray, h_inv: np.ndarray,
                     shape: tuple[int, int], fine: bool = False
                     ) -> tuple[list[DieReading], CubeFound | None, np.ndarray]:
        cube: CubeFound | None
        if getattr(self.dice_finder, "uses_board", False):
            # only a finder that `reads_still` is asked for its still read
            still = {"fine": True} if fine else {}
            found = self.dice_finder(image, h, **still)  # type: ignore[call-arg]
            readings, cube = list(found.dice), cube_from_seen(found.cube, h_inv)
        else:
            if getattr(self.dice_finder, "takes_box_filter", False):
                # Blobs not sized like a die (stacks, light points) go before pips are sought.
                found = self.dice_finder(image, keep_box=lambda box: _box_die_sized(box, h_inv))
            else:
                found = self.dice_finder(image) if self.dice_finder else []
            readings = [d for d in found if _die_sized(d, h_inv)]
            cube = find_cube(image, h)
            if cube is not None:
                readings = [d for d in readings if not _inside(d.center, cube.box)]
        hidden = np.zeros(shape, bool)
        for d in readings:
            _paint_box(hidden, d.box, h_inv, self.cal.scale)
        if cube is not None:
            _paint_box(hidden, cube.box, h_inv, self.cal.scale)
        return readings, cube, hidden

    def _occlusion(self, classified: ClassifiedRaster, labels: np.ndarray,
                   distance: np.ndarray, expected: np.ndarray, census: Census,
                   region: np.ndarray, hidden: np.ndarray) -> np.ndarray:
        # A known colour out of place: not what the empty board shows there, and not a
        # checker where the census found a stack (a dark sleeve looks like black checkers).
        checker = classified.white | classified.black
        allowed = stack_region(census, labels.shape, self.cal.scale, RASTER_X0, RASTER_Y0,
                               self.cal.trays)
        misplaced = (expected != 255) & ~self._alike[expected, labels] & ~checker
        misplaced |= checker & ~allowed
        return occlusion_mask(distance, region, hidden, self.cal.scale, misplaced)


def check_learned(cal: Calibration) -> None:
    """Heads and prototypes belong to the strip model that fitted them; another model needs a new
    calibration (its embeddings mean something else)."""
    from nardy_pi.vision.board.adapt import model_digest

    if cal.learned is None:
        raise ValueError("the calibration names the learned reader but has no learned section")
    fitted = cal.learned.heads is not None or cal.learned.prototypes is not None
    if fitted and cal.learned.model != model_digest():
        raise ValueError("the calibration was fitted to another strip model than the one "
                         "installed; calibrate again")


def _inside(p: tuple[float, float], box: tuple[float, float, float, float]) -> bool:
    return box[0] <= p[0] <= box[2] and box[1] <= p[1] <= box[3]


def _die_sized(d: DieReading, h_inv: np.ndarray) -> bool:
    """The finder works without the board; the board's scale rules out blobs that are far
    larger or smaller than a die (a stack of checkers, a glint)."""
    return _box_die_sized(d.box, h_inv)


def _box_die_sized(box: tuple[float, float, float, float], h_inv: np.ndarray) -> bool:
    x0, y0, x1, y1 = box
    board = g.apply_homography(h_inv, np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]))
    size = float(np.max(board.max(axis=0) - board.min(axis=0)))
    return DIE_SIZE_RANGE[0] <= size <= DIE_SIZE_RANGE[1]


def _paint_box(mask: np.ndarray, box, h_inv: np.ndarray, scale: float) -> None:
    x0, y0, x1, y1 = box
    pad = 0.15 * max(x1 - x0, y1 - y0)
    corners = np.array([[x0 - pad, y0 - pad], [x1 + pad, y0 - pad], [x1 + pad, y1 + pad],
                        [x0 - pad, y1 + pad]])
    board = g.apply_homography(h_inv, corners)
    px = (board - np.array([RASTER_X0, RASTER_Y0])) * scale
    cv2.fillConvexPoly(mask.view(np.uint8), np.round(px).astype(np.int32), 1)


def _place_die(d: DieReading, h_inv: np.ndarray, census: Census,
               classified: ClassifiedRaster) -> DieOnBoard:
    bx, by = g.apply_homography(h_inv, np.array([d.center]))[0]
    on_board = g.inside_surface(float(bx), float(by))
    return DieOnBoard(
        value=d.value if d.flat else None,
        center=(float(d.center[0]), float(d.center[1])),
        flat=d.flat,
        on_board=on_board,
        half=g.half_of(float(bx)) if on_board else None,
        on_checker=on_board and die_on_checker(census, classified, float(bx), float(by)),
    )
