"""One randomised picture of a board, with its truth: style, camera, scene, photo."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Literal

import cv2
import numpy as np

from nardy_pi.vision.render.randomised import textures
from nardy_pi.vision.render.randomised.camera import Camera, place_camera
from nardy_pi.vision.render.randomised.checkers import CheckerPainter
from nardy_pi.vision.render.randomised.dice import DIE_FACE_VALUES, Box3D
from nardy_pi.vision.render.randomised.dice_scene import (
    CUBE_POSITIONS,
    CubeSpec,
    DicePlacer,
    as_spec,
    roll_specs,
)
from nardy_pi.vision.render.randomised.layout import BoardLayout
from nardy_pi.vision.render.randomised.occluders import OCCLUDERS, draw_occluders
from nardy_pi.vision.render.randomised.photometric import Photo, apply_photo
from nardy_pi.vision.render.randomised.position import (
    BACKGAMMON_START,
    BoardPosition,
    random_position,
)
from nardy_pi.vision.render.randomised.stacks import PlacedChecker, place_checkers
from nardy_pi.vision.render.randomised.style import Style
from nardy_pi.vision.render.randomised.styles_heldout import HELDOUT_STYLES
from nardy_pi.vision.render.randomised.styles_train import sample_train_style
from nardy_pi.vision.render.randomised.surface import draw_top_view
from nardy_pi.vision.render.randomised.truth import (
    CheckerTruth,
    CubeTruth,
    DieTruth,
    RandomRender,
    RenderTruth,
)

Split = Literal["train", "heldout"]
_SPLIT_STREAM = {"train": 0, "heldout": 1}


def pick_style(rng: np.random.Generator, split: Split) -> Style:
    if split == "train":
        return sample_train_style(rng)
    if split == "heldout":
        names = sorted(HELDOUT_STYLES)
        return HELDOUT_STYLES[names[int(rng.integers(len(names)))]]
    raise ValueError(f"split must be 'train' or 'heldout', got {split!r}")


def _random_camera(rng: np.random.Generator, layout: BoardLayout, size: tuple[int, int],
                   tilt_deg: float | None = None, quarter_turns: float = 0.1) -> Camera:
    """Tilt 0-35 degrees from any side, roll within 8 degrees (and, `quarter_turns` of the
    time, a quarter or half turn more, as photos are often taken), board filling 55-100%
    of the picture, a fifth of the time 2-10% of the surface cut off."""
    cut = float(rng.uniform(0.02, 0.10)) if rng.random() < 0.2 else 0.0
    tilt = float(35.0 * rng.random() ** 1.2)
    return place_camera(
        layout, size, rng,
        tilt_deg=tilt if tilt_deg is None else float(tilt_deg),
        roll_deg=float(rng.uniform(-8, 8)) + (90.0 * int(rng.choice([1, 2, 3]))
                                               if rng.random() < quarter_turns else 0.0),
        azimuth_deg=float(rng.choice([0, 90, 180, 270]) + rng.normal(0, 25)),
        fill=float(rng.uniform(0.55, 1.0)),
        distance=float(rng.uniform(1.0, 3.0)),
        cut=cut, cut_edge=int(rng.integers(4)),
    )


def _px_per_unit(cam: Camera, layout: BoardLayout) -> float:
    """Canvas resolution for the top view: about the board's mean image scale
    (pixels per board unit), so the near side is barely magnified and nothing is wasted."""
    x0, y0, x1, y1 = layout.extent()
    scales = []
    for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1)):
        p = cam.project(np.array([[x, y, 0], [x + 1, y, 0], [x, y + 1, 0]]))
        scales += [float(np.linalg.norm(p[1] - p[0])), float(np.linalg.norm(p[2] - p[0]))]
    return max(1.0, min(1.05 * float(np.mean(scales)), max(scales)))


def _table(style: Style, size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    w, h = size
    sw, sh = max(8, w // 4), max(8, h // 4)
    kind = {"wood": "wood", "cloth": "felt"}.get(style.table_material, "painted")
    field = textures.material_field(kind, sh, sw, sw / 20.0, rng)
    small = np.clip(np.asarray(style.table, np.float32) * (1 + 1.5 * field[..., None]), 0, 255)
    return cv2.resize(small.astype(np.uint8), (w, h), interpolation=cv2.INTER_LINEAR)


def _quad(cam: Camera, a, b, za: float, zb: float) -> np.ndarray:
    return cam.project(np.array([[a[0], a[1], za], [b[0], b[1], za],
                                 [b[0], b[1], zb], [a[0], a[1], zb]]))


def _fill(img: np.ndarray, pts: np.ndarray, colour) -> None:
    cv2.fillPoly(img, [np.round(pts * 16).astype(np.int32)],
                 [float(c) for c in colour], cv2.LINE_AA, 4)


def _walls(img: np.ndarray, cam: Camera, layout: BoardLayout, style: Style) -> None:
    """The frame stands `frame_height` above the surface: its inner walls show on the far
    side, its top hides a strip of the surface on the near side; the box's outer walls show
    on the near side."""
    eye = cam.centre_world()[:2]
    fh = layout.frame_height
    frame = np.asarray(style.frame, np.float32)
    w, h = layout.width, layout.height
    edges = [((0, 0), (w, 0), (0, 1)), ((w, 0), (w, h), (-1, 0)),
             ((w, h), (0, h), (0, -1)), ((0, h), (0, 0), (1, 0))]
    for a, b, inward in edges:
        mid = (np.asarray(a) + np.asarray(b)) / 2
        faces_eye = float(np.dot(eye - mid, inward)) > 0
        colour = frame * (0.55 if faces_eye else 1.0)
        _fill(img, _quad(cam, a, b, 0.0, fh), colour)
    x0, y0, x1, y1 = layout.extent()
    box_h = fh - layout.table_z
    outer = [((x0, y0), (x1, y0), (0, -1)), ((x1, y0), (x1, y1), (1, 0)),
             ((x1, y1), (x0, y1), (0, 1)), ((x0, y1), (x0, y0), (-1, 0))]
    for a, b, outward in outer:
        mid = (np.asarray(a) + np.asarray(b)) / 2
        if float(np.dot(eye - mid, outward)) > 0:
            _fill(img, _quad(cam, a, b, fh - box_h, fh), frame * 0.45)


def _cast_shadows(img: np.ndarray, cam: Camera, polys: list[np.ndarray],
                  darkness: float) -> None:
    """Darken the board under the soft shadows of checkers and dice (board-unit polygons on
    the surface), drawn at quarter size."""
    if not polys or darkness <= 0:
        return
    h, w = img.shape[:2]
    q = 4
    mask = np.zeros((h // q + 1, w // q + 1), np.uint8)
    h0 = np.diag([1 / q, 1 / q, 1]) @ cam.homography(0.0)
    pts = cv2.perspectiveTransform(np.vstack(polys).reshape(-1, 1, 2).astype(np.float64), h0)
    pts = pts.reshape(-1, 2)
    split = np.cumsum([len(p) for p in polys])[:-1]
    cv2.fillPoly(mask, [np.round(p * 16).astype(np.int32) for p in np.split(pts, split)], 255,
                 cv2.LINE_AA, 4)
    mask = cv2.GaussianBlur(mask, (0, 0), 0.8)
    pad = 4
    x0 = max(0, int(pts[:, 0].min()) - pad) * q
    y0 = max(0, int(pts[:, 1].min()) - pad) * q
    x1 = min(w, (int(pts[:, 0].max()) + pad) * q)
    y1 = min(h, (int(pts[:, 1].max()) + pad) * q)
    if x1 <= x0 or y1 <= y0:
        return
    full = cv2.resize(mask, (w // q * q + q, h // q * q + q), interpolation=cv2.INTER_LINEAR)
    shade = 255 - (full[y0:y1, x0:x1].astype(np.float32) * darkness).astype(np.uint8)
    roi = img[y0:y1, x0:x1]
    roi[:] = cv2.multiply(roi, cv2.merge([shade, shade, shade]), scale=1 / 255.0)


def _visibility(cam: Camera, layout: BoardLayout, size: tuple[int, int],
                occluder: np.ndarray | None) -> tuple[tuple[bool, ...], tuple[float, ...]]:
    """Share of each point's area (its column from base to tip) inside the image and not
    under an occluder, from a 5 x 9 grid of samples per point, all projected at once."""
    w, h = size
    gu, gv = np.meshgrid(np.linspace(0.1, 0.9, 5), np.linspace(0.05, 0.95, 9))
    pts = []
    for point in range(1, 25):
        x0, x1 = layout.point_x(point)
        _cx, base, sign = layout.point_base(point)
        pts.append(np.column_stack([x0 + gu.ravel() * (x1 - x0),
                                    base + sign * gv.ravel() * layout.point_length,
                                    np.zeros(gu.size)]))
    p = cam.project(np.vstack(pts))
    inside = (p[:, 0] >= 0) & (p[:, 0] < w) & (p[:, 1] >= 0) & (p[:, 1] < h)
    if occluder is not None:
        px = np.clip(p[:, 0].astype(int), 0, w - 1)
        py = np.clip(p[:, 1].astype(int), 0, h - 1)
        inside &= ~occluder[py, px]
    fractions = inside.reshape(24, -1).mean(axis=1)
    return tuple(bool(f >= 0.5) for f in fractions), tuple(float(f) for f in fractions)


def _draw_scene(img: np.ndarray, cam: Camera, painter: CheckerPainter,
                checkers: list[PlacedChecker], boxes: list[Box3D], light: np.ndarray) -> list:
    """Checkers, dice and cube far to near (painter's order by their top centres); returns
    each box's image silhouette."""
    eye = cam.centre_world()
    items = [(float(np.linalg.norm(painter.top_centre(c) - eye)), 0, i)
             for i, c in enumerate(checkers)]
    items += [(float(np.linalg.norm(b.centre + np.array([0, 0, b.side / 2]) - eye)), 1, i)
              for i, b in enumerate(boxes)]
    hulls: list = [None] * len(boxes)
    for _dist, kind, i in sorted(items, key=lambda t: -t[0]):
        if kind == 0:
            painter.draw(img, cam, checkers[i])
        else:
            hulls[i] = boxes[i].draw(img, cam, light)
    return hulls


def _box_shadow(box: Box3D, light_dir: np.ndarray, floor: float) -> np.ndarray:
    pts = box.outline()
    flat = pts[:, :2] + light_dir * np.maximum(pts[:, 2:3] - floor, 0)
    return cv2.convexHull(flat.astype(np.float32)).reshape(-1, 2)


def _occluder_kinds(occluder, rng: np.random.Generator) -> list[str]:
    """None: sometimes (15%); True: one at random; False: none; or named kinds."""
    if isinstance(occluder, str):
        return [occluder]
    if isinstance(occluder, list | tuple):
        return [str(k) for k in occluder]
    want = rng.random() < 0.15 if occluder is None else bool(occluder)
    if not want:
        return []
    kinds = [str(rng.choice(OCCLUDERS, p=[0.6, 0.12, 0.14, 0.14]))]
    if kinds[0] == "hand" and rng.random() < 0.2:
        kinds.append("hand")
    return kinds


def _cube_choice(cube, rng: np.random.Generator) -> CubeSpec | None:
    if cube is None or cube == "none":
        return None
    if isinstance(cube, CubeSpec):
        return cube
    if cube == "random":
        if rng.random() < 0.4:
            return None
        return CubeSpec(str(rng.choice(CUBE_POSITIONS, p=[0.4, 0.25, 0.25, 0.1])))
    if cube in CUBE_POSITIONS:
        return CubeSpec(str(cube))
    raise ValueError(f"cube must be 'random', 'none', a position or a CubeSpec, got {cube!r}")


def _box_truth(cam: Camera, box: Box3D, hull: np.ndarray) -> tuple[tuple, tuple, tuple]:
    """Image centre of the up face, the body's bounding box and the up face's corners."""
    face = box.face_quad(box.up_index())
    top = cam.project(face.mean(axis=0)[None])[0]
    quad = tuple((float(x), float(y)) for x, y in cam.project(face))
    box2d = (float(hull[:, 0].min()), float(hull[:, 1].min()), float(hull[:, 0].max()),
             float(hull[:, 1].max()))
    return (float(top[0]), float(top[1])), box2d, quad


def _under(mask: np.ndarray, point: tuple[float, float]) -> bool:
    x, y = int(point[0]), int(point[1])
    return bool(0 <= y < mask.shape[0] and 0 <= x < mask.shape[1] and mask[y, x])


def _checker_truth(cam: Camera, painter: CheckerPainter, layout: BoardLayout,
                   c: PlacedChecker) -> CheckerTruth:
    top = painter.top_centre(c)
    p = cam.project(np.array([top, top + np.array([painter.r, 0, 0])]))
    return CheckerTruth(point=c.point, white=c.white, center=(float(p[0, 0]), float(p[0, 1])),
                        radius_px=float(np.linalg.norm(p[1] - p[0])),
                        height=float(top[2] / max(layout.thickness, 1e-6)))


CLEAN_PHOTO = Photo(exposure=1.0, white_balance=(1.0, 1.0, 1.0), vignette=0.0,
                    lamp=(0.5, 0.5, 0.0), shadow=0.0, glare=(0.0, 0.0, 0.0, 0.0), blur=0.0,
                    noise=0.0, jpeg=None, grey=False)


def render_random(
    seed: int,
    split: Split = "train",
    size: tuple[int, int] = (1280, 960),
    *,
    position: BoardPosition | Sequence[int] | None = None,
    dice: str | Sequence = "random",
    occluder: bool | str | Sequence[str] | None = None,
    cube: str | CubeSpec | None = "random",
    style: Style | None = None,
    tilt_deg: float | None = None,
    clean: bool = False,
    scene_seed: int | None = None,
    loose_stacks: bool = False,
    loose_bar: bool = False,
) -> RandomRender:
    """A domain-randomised board photo and its truth; the same arguments give the same image.

    `position`: a BoardPosition or 24 signed counts (the rest borne off); by default a random
    legal-looking one. `dice`: "none", "random" (a throw from dice_scene.ROLLS) or a list of
    DieSpec / case names (dice_scene.DICE_CASES). `cube`: "random", "none", a position
    ("center", "top", "bottom", "off") or a CubeSpec. `style` forces a board set (e.g. one of
    HELDOUT_STYLES). `occluder`: None (sometimes), True / False, or occluder kinds
    (occluders.OCCLUDERS: "hand", "phone", "cup", "dice_cup"). `tilt_deg` forces the camera
    tilt; `clean` turns off the photo effects (exposure, glare, blur, noise, JPEG, greyscale).
    `loose_stacks` leaves some short stacks away from their point's base, as players do
    (stacks.LOOSE_BASE); off, every stack starts at its base. `loose_bar` puts bar checkers
    anywhere along their half (stacks.LOOSE_BAR); off, near the middle.
    Dice, cube and occluder draw from their own random streams, so the board is the same with
    or without them.

    `scene_seed` splits the seed in two: `seed` fixes the board set, its textures, the camera
    and the lamp; `scene_seed` the random position, dice, cube, occluder and a small change
    of light (exposure, white balance, glare strength), as consecutive frames of one game.
    """
    if split not in _SPLIT_STREAM:
        raise ValueError(f"split must be 'train' or 'heldout', got {split!r}")
    stream = _SPLIT_STREAM[split]
    rng = np.random.default_rng([int(seed), stream])
    scene = () if scene_seed is None else (int(scene_seed),)
    dice_rng = np.random.default_rng([int(seed), stream, 7, *scene])
    style = style or pick_style(rng, split)
    scene_rng = np.random.default_rng(rng.integers(1 << 62))
    if scene_seed is not None:
        scene_rng = np.random.default_rng([int(seed), stream, 10, *scene])
    layout = BoardLayout.of(style)
    if position is None:
        pos = random_position(scene_rng)
    elif isinstance(position, BoardPosition):
        pos = position
    else:
        pos = BoardPosition.from_points(position)
    w, h = int(size[0]), int(size[1])
    cam = _random_camera(rng, layout, (w, h), tilt_deg)

    scale = min(_px_per_unit(cam, layout), 2600.0 / max(1.0, np.ptp(layout.extent()[::2])))
    view = draw_top_view(style, layout, scale, rng)
    img = _table(style, (w, h), rng)
    m = cam.homography(0.0) @ np.linalg.inv(view.board_to_canvas())
    cv2.warpPerspective(view.image, m, (w, h), dst=img, flags=cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_TRANSPARENT)
    _walls(img, cam, layout, style)

    painter = CheckerPainter(style, layout.checker, layout.thickness, rng)
    checkers = place_checkers(int(scene_rng.integers(1 << 62)), style, layout, pos,
                              loose=loose_stacks, loose_bar=loose_bar)
    light_az = rng.uniform(0, 2 * np.pi)
    light_dir = np.array([np.cos(light_az), np.sin(light_az)]) * rng.uniform(0.2, 1.2)
    shadow_darkness = float(rng.uniform(0.2, 0.6))
    photo = CLEAN_PHOTO if clean else Photo.sample(rng, style.glare)
    photo_rng = rng
    if scene_seed is not None:  # the same camera and lamp, a little different each frame
        photo_rng = np.random.default_rng([int(seed), stream, 9, *scene])
        photo = photo if clean else photo.perturbed(photo_rng)
    light = np.array([-light_dir[0], -light_dir[1], 1.0])
    light /= np.linalg.norm(light)

    def in_view(x: float, y: float, z: float, margin: float = 0.04) -> bool:
        px, py = cam.project(np.array([[x, y, z]]))[0]
        return bool(margin * w <= px <= (1 - margin) * w and margin * h <= py <= (1 - margin) * h)

    placer = DicePlacer(style, layout, checkers, dice_rng, in_view)
    cube_spec = _cube_choice(cube, dice_rng)
    boxes: list[Box3D] = []
    cube_parts = None
    if cube_spec is not None:
        cube_box, cube_value, cube_face = placer.cube(cube_spec)
        placer.taken.append((float(cube_box.centre[0]), float(cube_box.centre[1]),
                             cube_box.side * 0.8))
        cube_parts = (cube_box, cube_value, cube_face, cube_spec.position)
    if isinstance(dice, str):
        if dice == "none":
            specs = []
        elif dice == "random":
            specs = roll_specs(dice_rng, style.trays != "none")
        else:
            raise ValueError(f"dice must be 'none', 'random' or a list, got {dice!r}")
    else:
        specs = [as_spec(d) for d in dice]
    placed_dice = [d for d in (placer.place(s) for s in specs) if d is not None]
    boxes = [d.box for d in placed_dice] + ([cube_parts[0]] if cube_parts else [])

    shadows = [painter.shadow_polygon(c, light_dir) for c in checkers]
    shadows += [_box_shadow(b, light_dir, 0.0) for b in boxes]
    _cast_shadows(img, cam, shadows, shadow_darkness)
    hulls = _draw_scene(img, cam, painter, checkers, boxes, light)

    dice_truth = []
    for d, hull in zip(placed_dice, hulls, strict=False):
        centre, box2d, quad = _box_truth(cam, d.box, hull)
        dice_truth.append(DieTruth(
            value=DIE_FACE_VALUES[d.box.up_index()], center=centre, box=box2d, flat=d.flat,
            on_checker=d.on_checker, off_board=d.off_board, half=d.half, case=d.case,
            tilt_deg=d.box.tilt_deg(), top_face=quad,
            in_image=bool(0 <= centre[0] < w and 0 <= centre[1] < h)))
    cube_truth = None
    if cube_parts is not None:
        centre, box2d, quad = _box_truth(cam, cube_parts[0], hulls[-1])
        cube_truth = CubeTruth(value=cube_parts[1], face=cube_parts[2],
                               position=cube_parts[3], center=centre, box=box2d,
                               top_face=quad)

    occ_rng = np.random.default_rng([int(seed), stream, 8, *scene])
    kinds = _occluder_kinds(occluder, occ_rng)
    occluder_mask, occluded = None, False
    if kinds:
        occluder_mask = draw_occluders(img, cam, layout, occ_rng, light_dir, kinds)
        surface = np.zeros((h, w), np.uint8)
        quad = cam.project(np.array([[0, 0, 0], [layout.width, 0, 0],
                                     [layout.width, layout.height, 0], [0, layout.height, 0]]))
        cv2.fillConvexPoly(surface, np.round(quad).astype(np.int32), 1)
        covered = int(np.count_nonzero(occluder_mask & (surface > 0)))
        occluded = covered >= 0.005 * max(1, int(np.count_nonzero(surface)))
        dice_truth = [replace(d, occluded=_under(occluder_mask, d.center)) for d in dice_truth]
    image = apply_photo(img, photo, photo_rng)
    visible, fractions = _visibility(cam, layout, (w, h), occluder_mask)
    corners = cam.project(np.array([[0, 0, 0], [layout.width, 0, 0],
                                    [layout.width, layout.height, 0], [0, layout.height, 0]]))
    truth = RenderTruth(
        corners=tuple((float(x), float(y)) for x, y in corners),
        points=tuple(pos.points), bar_white=pos.bar_white, bar_black=pos.bar_black,
        off_white=pos.off_white, off_black=pos.off_black,
        bar_u=(layout.bar_x0 / layout.width, layout.bar_x1 / layout.width),
        point_u=tuple(tuple(x / layout.width for x in layout.point_x(p)) for p in range(1, 25)),
        point_length_v=layout.point_length / layout.height,
        checker_diameter_u=layout.checker / layout.width,
        visible=visible, visible_fraction=fractions, occluder_mask=occluder_mask,
        dice=tuple(dice_truth), cube=cube_truth, style_name=style.name, split=split,
        trays=style.trays, tilt_deg=cam.tilt_deg, roll_deg=cam.roll_deg,
        surface_aspect=layout.width / layout.height, occluded=occluded,
        checkers=tuple(_checker_truth(cam, painter, layout, c) for c in checkers),
    )
    return RandomRender(image=image, truth=truth)


def iter_renders(start: int, stop: int, split: Split = "train",
                 size: tuple[int, int] = (1280, 960), **kwargs) -> Iterator[RandomRender]:
    """render_random for every seed in [start, stop), for training loops."""
    for seed in range(start, stop):
        yield render_random(seed, split, size, **kwargs)


def iter_session(board_seed: int, frames: int, split: Split = "train",
                 size: tuple[int, int] = (1280, 960), *,
                 calibration_position: BoardPosition | Sequence[int] = BACKGAMMON_START,
                 **kwargs) -> Iterator[RandomRender]:
    """One board under one camera: first the calibration frame (the known position, no dice,
    no occluder), then `frames` frames of random positions (scene seeds 1..frames)."""
    yield render_random(board_seed, split, size, position=calibration_position, dice="none",
                        cube="none", occluder=False, scene_seed=0,
                        **{k: v for k, v in kwargs.items()
                           if k not in ("position", "dice", "cube", "occluder")})
    for k in range(1, frames + 1):
        yield render_random(board_seed, split, size, scene_seed=k, **kwargs)
