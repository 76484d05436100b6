"""The domain-randomised renderer: deterministic, truthful, varied, and held-out styles stay
held out."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from nardy_pi.vision.render.randomised import (
    HELDOUT_RADIUS,
    HELDOUT_STYLES,
    BoardPosition,
    near_heldout,
    nearest_heldout,
    render_random,
    sample_train_style,
    style_distance,
)

SMALL = (640, 480)


def _surface_to_image(truth) -> np.ndarray:
    src = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])
    return cv2.getPerspectiveTransform(src, np.float32(truth.corners))


def test_same_seed_same_image_and_truth():
    a, b = render_random(11, "train", SMALL), render_random(11, "train", SMALL)
    assert np.array_equal(a.image, b.image)
    assert a.truth.points == b.truth.points and a.truth.corners == b.truth.corners
    c = render_random(12, "train", SMALL)
    assert not np.array_equal(a.image, c.image)


def test_image_shape_and_type():
    r = render_random(3, "heldout", SMALL)
    assert r.image.shape == (480, 640, 3) and r.image.dtype == np.uint8
    assert len(r.truth.corners) == 4 and len(r.truth.point_u) == 24


def test_fifteen_a_side_everywhere():
    for seed in range(25):
        t = render_random(seed, "train", (320, 240)).truth
        white = sum(c for c in t.points if c > 0) + t.bar_white + t.off_white
        black = -sum(c for c in t.points if c < 0) + t.bar_black + t.off_black
        assert (white, black) == (15, 15), seed
        assert min(t.bar_white, t.bar_black, t.off_white, t.off_black) >= 0


def test_bad_position_is_refused_clearly():
    with pytest.raises(ValueError, match="15 checkers a side"):
        BoardPosition((1,) * 24)
    with pytest.raises(ValueError, match="split"):
        render_random(1, "test")  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", [5, 21, 40])
def test_checkers_are_drawn_where_the_truth_says(seed):
    """Bear five checkers off from point 8: on the playing surface the picture changes only
    over point 8's column as the truth corners and geometry place it (the borne-off ones may
    appear in a tray, outside the surface)."""
    with_stack = [0] * 24
    with_stack[7], with_stack[18] = 5, -5
    without = list(with_stack)
    without[7] = 0
    a = render_random(seed, "train", SMALL, position=with_stack)
    b = render_random(seed, "train", SMALL, position=without)
    diff = np.abs(a.image.astype(int) - b.image.astype(int)).sum(axis=2) > 40
    t = a.truth
    u0, u1 = t.point_u[7]
    v_tip = 1.0 - t.point_length_v
    pad = 0.6 * (u1 - u0)  # shadows, sloppy offsets, the checkers' height
    column = np.float32([[u0 - pad, v_tip - 0.08], [u1 + pad, v_tip - 0.08],
                         [u1 + pad, 1.04], [u0 - pad, 1.04]])
    poly = cv2.perspectiveTransform(column.reshape(-1, 1, 2), _surface_to_image(t))
    region = np.zeros(diff.shape, np.uint8)
    cv2.fillPoly(region, [np.round(poly.reshape(-1, 2)).astype(np.int32)], 1)
    region = cv2.dilate(region, np.ones((17, 17), np.uint8)).astype(bool)  # JPEG blocks
    surface = np.zeros(diff.shape, np.uint8)
    cv2.fillPoly(surface, [np.round(np.array(t.corners)).astype(np.int32)], 1)
    diff &= surface.astype(bool)
    assert diff.sum() > 200, "taking a stack away must change the picture"
    assert diff[region].sum() / diff.sum() > 0.97


def test_geometry_truth_varies_and_is_consistent():
    bars, lengths, aspects = [], [], []
    for seed in range(30):
        t = render_random(seed, "train", (160, 120)).truth
        u0, u1 = t.bar_u
        width = t.point_u[0][1] - t.point_u[0][0]
        bars.append((u1 - u0) / width)
        lengths.append(t.point_length_v)
        aspects.append(t.surface_aspect)
        # Points 7 and 6 touch the bar on either side; 12 and 13 start the left edge.
        assert t.point_u[6][1] == pytest.approx(u0) and t.point_u[5][0] == pytest.approx(u1)
        assert t.point_u[11] == t.point_u[12]
    assert min(bars) < 0.7 and max(bars) > 1.3
    assert min(lengths) < 0.38 and max(lengths) > 0.45
    assert np.ptp(aspects) > 0.2


def test_points_off_the_picture_are_not_visible():
    seen_hidden = False
    for seed in range(40):
        t = render_random(seed, "train", (160, 120)).truth
        h_map = _surface_to_image(t)
        for i, (u0, u1) in enumerate(t.point_u):
            v = 0.5 * t.point_length_v if i >= 12 else 1 - 0.5 * t.point_length_v
            (x, y), = cv2.perspectiveTransform(np.float32([[[(u0 + u1) / 2, v]]]), h_map)[0]
            inside = 0 <= x < 160 and 0 <= y < 120
            if not t.visible[i]:
                seen_hidden = True
            if not inside:  # the middle of the point is off the picture
                assert t.visible_fraction[i] < 0.8
    assert seen_hidden, "some renders must cut points off the picture"


def test_heldout_split_uses_only_heldout_styles():
    names = {render_random(s, "heldout", (160, 120)).truth.style_name for s in range(20)}
    assert names <= set(HELDOUT_STYLES) and len(names) >= 3
    assert len(HELDOUT_STYLES) >= 4


def test_train_styles_never_come_near_a_heldout_style():
    rng = np.random.default_rng(2024)
    closest = min(nearest_heldout(sample_train_style(rng))[1] for _ in range(1000))
    assert closest >= HELDOUT_RADIUS
    # ...and the distance agrees with the pairwise definition.
    style = sample_train_style(rng)
    name, dist = nearest_heldout(style)
    assert dist == pytest.approx(min(style_distance(style, h) for h in HELDOUT_STYLES.values()))
    assert dist == pytest.approx(style_distance(style, HELDOUT_STYLES[name]))


def test_the_distance_catches_a_lightly_changed_heldout_style():
    """The exclusion is not vacuous: a held-out board with nudged colours is still 'near'."""
    from dataclasses import replace

    for style in HELDOUT_STYLES.values():
        nudged = replace(style, field=tuple(min(255, c + 12) for c in style.field),
                         light=tuple(max(0, c - 10) for c in style.light), name="nudged")
        assert near_heldout(nudged)


# -- dice and cube ---------------------------------------------------------------------------

def _count_pips(image: np.ndarray, die) -> int:
    """Dark blobs on the light up face (a white die with black pips): threshold inside the
    truth's up-face quad, shrunk a little, and count the dark components."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    quad = np.array(die.top_face)
    centre = quad.mean(axis=0)
    inner = np.round(centre + (quad - centre) * 0.9).astype(np.int32)
    face = np.zeros(grey.shape, np.uint8)
    cv2.fillConvexPoly(face, inner, 1)
    values = grey[face > 0]
    dark = ((grey < (int(values.max()) + int(values.min())) / 2) & (face > 0)).astype(np.uint8)
    n, _labels, stats, _c = cv2.connectedComponentsWithStats(dark, connectivity=4)
    return sum(1 for k in range(1, n) if stats[k, cv2.CC_STAT_AREA] >= 4)


@pytest.mark.parametrize("value", [1, 2, 3, 4, 5, 6])
def test_flat_die_shows_its_value_on_top(value):
    from nardy_pi.vision.render.randomised.dice_scene import DieSpec

    style = HELDOUT_STYLES["black_felt_case"]  # white dice with black pips
    r = render_random(60 + value, "heldout", (1280, 960), style=style, tilt_deg=0.0,
                      clean=True, cube="none", dice=[DieSpec("flat_field", value=value)])
    (die,) = r.truth.dice
    assert die.value == value and die.flat and die.tilt_deg < 1e-6
    assert _count_pips(r.image, die) == value


def test_die_faces_are_a_real_die():
    from nardy_pi.vision.render.randomised.dice import (
        _FACES,
        DIE_FACE_VALUES,
        face_up,
    )

    for k, (n, a, b) in enumerate(_FACES):
        assert np.allclose(np.cross(a, b), n), "a face would read mirrored"
        opposite = next(j for j, (m, _c, _d) in enumerate(_FACES) if np.allclose(m, -n))
        assert DIE_FACE_VALUES[k] + DIE_FACE_VALUES[opposite] == 7
    for v in range(1, 7):
        up = face_up(DIE_FACE_VALUES, v) @ _FACES[DIE_FACE_VALUES.index(v)][0]
        assert np.allclose(up, [0, 0, 1])


def test_dice_truth_matches_each_case():
    from nardy_pi.vision.render.randomised.dice_scene import DICE_CASES

    seen = set()
    for i, case in enumerate(DICE_CASES):
        for seed in range(3):
            r = render_random(300 + 10 * i + seed, "train", (320, 240), dice=[case],
                              cube="none")
            for d in r.truth.dice:
                seen.add(d.case)
                x0, y0, x1, y1 = d.box
                assert x0 <= d.center[0] <= x1 and y0 <= d.center[1] <= y1
                assert 1 <= d.value <= 6
                if d.case in ("frame", "tray", "outside", "half_frame"):
                    assert d.off_board and d.half is None
                if d.case.startswith("flat_") or d.case in ("bar", "touching_stack"):
                    assert d.flat and not d.off_board and d.half in ("left", "right")
                if d.case == "on_checker":
                    assert d.on_checker and d.flat
                if d.case in ("cocked_checker", "cocked_frame", "half_frame"):
                    assert not d.flat and d.tilt_deg > 2
    assert seen >= set(DICE_CASES) - {"tray"}  # a tray needs a style with trays


def test_dice_change_the_picture_only_inside_their_boxes():
    plain = render_random(77, "train", SMALL, dice="none", cube="none", clean=True)
    with_dice = render_random(77, "train", SMALL, dice=["flat_field", "flat_light_point"],
                              cube="none", clean=True)
    assert len(with_dice.truth.dice) == 2
    diff = np.abs(plain.image.astype(int) - with_dice.image.astype(int)).sum(axis=2) > 30
    inside = np.zeros(diff.shape, bool)
    for d in with_dice.truth.dice:
        x0, y0, x1, y1 = d.box
        pad = 0.8 * (x1 - x0)  # the die's own shadow
        inside[max(0, int(y0 - pad)):int(y1 + pad) + 1,
               max(0, int(x0 - pad)):int(x1 + pad) + 1] = True
        assert diff[int(y0):int(y1) + 1, int(x0):int(x1) + 1].mean() > 0.3
    assert diff[~inside].sum() == 0


@pytest.mark.parametrize("where", ["center", "top", "bottom", "off"])
def test_cube_truth(where):
    r = render_random(90, "train", SMALL, dice="none", cube=where)
    c = r.truth.cube
    assert c is not None and c.position == where
    if where == "center":
        assert (c.face, c.value) == (64, 1)
    else:
        assert c.value == c.face and c.face in (2, 4, 8, 16, 32, 64)
    x0, y0, x1, y1 = c.box
    assert x1 - x0 > 3 and y1 - y0 > 3


def test_random_throws_cover_the_reroll_reasons():
    cases, counts = set(), set()
    for seed in range(45):
        t = render_random(seed, "train", (160, 120), occluder=False).truth
        cases |= {d.case for d in t.dice}
        counts.add(len(t.dice))
        halves = {d.half for d in t.dice if not d.off_board}
        if len(halves) == 2:
            cases.add("split")
    assert {0, 1, 2, 3} <= counts
    assert {"on_checker", "split"} <= cases
    assert cases & {"cocked_checker", "cocked_frame"} and cases & {"frame", "outside", "tray"}


# -- occluders -------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["hand", "phone", "cup", "dice_cup"])
def test_occluder_mask_is_where_the_picture_changed(kind):
    plain = render_random(500, "train", SMALL, occluder=False, clean=True)
    hidden = render_random(500, "train", SMALL, occluder=kind, clean=True)
    assert plain.truth.occluder_mask is None and not plain.truth.occluded
    mask = hidden.truth.occluder_mask
    assert mask is not None and mask.shape == SMALL[::-1] and mask.dtype == bool
    a, b = plain.image.astype(int), hidden.image.astype(int)
    inner = cv2.erode(mask.astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
    outer = ~cv2.dilate(mask.astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
    assert (np.abs(a - b).sum(axis=2)[inner] > 0).mean() > 0.5
    # Outside it, the occluder only casts its shadow: nothing gets brighter.
    assert (b[outer] <= a[outer] + 2).all()


def test_occluded_points_are_not_visible():
    hidden_points = 0
    for seed in range(8):
        r = render_random(520 + seed, "train", SMALL, occluder="hand")
        t = r.truth
        plain = render_random(520 + seed, "train", SMALL, occluder=False).truth
        for i in range(24):
            assert t.visible_fraction[i] <= plain.visible_fraction[i] + 1e-9
            if plain.visible[i] and not t.visible[i]:
                hidden_points += 1
        if not all(t.visible) and all(plain.visible):
            assert t.occluded
    assert hidden_points > 0


def test_truth_in_analyze_form():
    import json

    from nardy_pi.vision.render.randomised import DieSpec

    r = render_random(33, "train", (320, 240), cube="center",
                      dice=[DieSpec("flat_field", 3, "left"), DieSpec("cocked_checker")])
    out = json.loads(json.dumps(r.truth.analyze_json()))
    assert len(out["points"]) == 24 and out["cube"] == {"value": 1, "position": "center"}
    assert out["dice"][0]["value"] == 3
    cocked = [d for d in out["dice"] if not d["flat"]]
    assert cocked and cocked[0]["value"] is None
    assert "cocked" in out["roll"]["reasons"] and not out["roll"]["valid"]


def test_a_session_keeps_board_and_camera_and_changes_the_scene():
    from nardy_pi.vision.render.randomised import iter_session
    from nardy_pi.vision.render.randomised.position import BACKGAMMON_START

    frames = list(iter_session(8, 3, "heldout", (320, 240)))
    calib, rest = frames[0], frames[1:]
    assert calib.truth.points == BACKGAMMON_START and not calib.truth.dice
    assert calib.truth.occluder_mask is None
    for f in rest:
        assert f.truth.corners == calib.truth.corners
        assert f.truth.style_name == calib.truth.style_name
        assert f.truth.point_u == calib.truth.point_u
    assert len({f.truth.points for f in frames}) == 4


def test_checker_truth_matches_the_position():
    for seed in range(6):
        t = render_random(700 + seed, "train", SMALL, occluder=False).truth
        for i, count in enumerate(t.points):
            mine = [c for c in t.checkers if c.point == i + 1]
            assert len(mine) == abs(count)
            assert all(c.white == (count > 0) for c in mine)
        bar = [c for c in t.checkers if c.point == 0]
        assert sum(c.white for c in bar) == t.bar_white
        assert sum(not c.white for c in bar) == t.bar_black
        off = [c for c in t.checkers if c.point == 25]
        assert len(off) == (t.off_white + t.off_black if t.trays != "none" else 0)
        # Ground-level checkers sit on their point's column, as the truth geometry places it.
        to_surface = np.linalg.inv(_surface_to_image(t))
        for c in t.checkers:
            if 1 <= c.point <= 24 and c.height <= 1.01:
                (u, _v), = cv2.perspectiveTransform(np.float64([[c.center]]), to_surface)[0]
                u0, u1 = t.point_u[c.point - 1]
                assert u0 - 0.5 * (u1 - u0) < u < u1 + 0.5 * (u1 - u0)


def test_dump_writes_images_and_truth(tmp_path):
    import json

    from nardy_pi.vision.render.randomised.dump import main

    assert main([str(tmp_path / "set"), "--start", "5", "--count", "2", "--size", "160x120"]) == 0
    rows = [json.loads(x) for x in (tmp_path / "set" / "truth.jsonl").read_text().splitlines()]
    assert [r["seed"] for r in rows] == [5, 6]
    for row in rows:
        img = cv2.imread(str(tmp_path / "set" / row["image"]))
        assert img.shape == (120, 160, 3)
        assert row["points"] == list(render_random(row["seed"], "train", (160, 120)).truth.points)
        assert len(row["analyze"]["points"]) == 24


def test_dump_refuses_a_bad_size(capsys):
    from nardy_pi.vision.render.randomised.dump import main

    with pytest.raises(SystemExit):
        main(["/tmp/never-written", "--size", "big"])
    assert "size must look like 640x480" in capsys.readouterr().err


def test_some_short_stacks_are_left_loose_along_their_point():
    """Real players leave a checker or two away from the base; the renders must show that
    too, on the point (never past its tip), and a stack that stays put is drawn as before."""
    from dataclasses import replace

    from nardy_pi.vision.render.randomised.layout import BoardLayout
    from nardy_pi.vision.render.randomised.stacks import LOOSE_MAX, _loose_shift, _row

    rng = np.random.default_rng(4)
    style = replace(sample_train_style(rng), sloppiness=1.0)
    lay = BoardLayout.of(style)
    d, room = lay.checker, lay.point_length
    loose = 0
    for k in range(400):
        n = 1 + k % LOOSE_MAX
        rows = _row(np.random.default_rng([k, 0]), n, d, room, style)
        moved = _loose_shift(np.random.default_rng([k, 1]), rows, d, room, style)
        assert len(moved) == n
        along = [a for a, _l, _z in moved]
        assert max(along) <= room - 0.2 * d + 1e-9 or moved == rows
        if moved != rows:
            loose += 1
            assert min(b - a for (a, _, _), (b, _, _) in zip(rows, moved, strict=True)) >= 0
            assert max(b - a for (a, _, _), (b, _, _) in zip(rows, moved, strict=True)) >= 0.3 * d
    assert 0.2 < loose / 400 < 0.45  # about LOOSE_BASE + LOOSE_SLOP at full sloppiness
    long_rows = _row(np.random.default_rng(9), LOOSE_MAX + 2, d, room, style)
    assert _loose_shift(np.random.default_rng(9), long_rows, d, room, style) == long_rows


def test_loose_stacks_are_asked_for_and_keep_the_position():
    def centres(loose):
        t = render_random(60, "train", (320, 240), occluder=False, dice="none", cube="none",
                          loose_stacks=loose).truth
        return t.points, [c.center for c in t.checkers if 1 <= c.point <= 24]

    plain, loose = centres(False), centres(True)
    assert render_random(60, "train", (320, 240)).truth.checkers == render_random(
        60, "train", (320, 240), loose_stacks=False).truth.checkers  # off by default
    assert plain[0] == loose[0] and len(plain[1]) == len(loose[1])
    assert plain[1] != loose[1]


def test_loose_bar_checkers_lie_anywhere_along_their_half():
    """Real bar checkers sit on the middle or far out; with `loose_bar` the renders show both,
    every checker inside its half, and without it nothing changes."""
    from nardy_pi.vision.render.randomised.layout import BoardLayout
    from nardy_pi.vision.render.randomised.position import BoardPosition
    from nardy_pi.vision.render.randomised.stacks import place_checkers

    style = sample_train_style(np.random.default_rng(5))
    lay = BoardLayout.of(style)
    d, mid = lay.checker, lay.height / 2
    points = [0] * 24
    points[0], points[23] = 14, -13
    position = BoardPosition(tuple(points), bar_white=1, bar_black=2)
    first_gaps = {False: [], True: []}  # each side's nearest bar checker's centre from the middle
    for seed in range(60):
        for loose in (False, True):
            bar = [c for c in place_checkers(seed, style, lay, position, loose_bar=loose)
                   if c.where == "bar"]
            assert len(bar) == 3
            for white in (True, False):
                ys = [c.y - mid for c in bar if c.white == white]
                assert len({np.sign(y) for y in ys}) == 1  # one half per side
                assert all(abs(y) <= mid - d / 2 + 1e-9 for y in ys)  # inside the surface
                first_gaps[loose].append(min(abs(y) for y in ys) / d)
        plain = place_checkers(seed, style, lay, position)
        assert plain == place_checkers(seed, style, lay, position, loose_bar=False)
    assert min(first_gaps[False]) >= 0.45  # plain: a row starts half a diameter out or more
    near = sum(g < 0.3 for g in first_gaps[True])
    far = sum(g > 1.5 for g in first_gaps[True])
    assert near >= 5 and far >= 5, first_gaps[True]
