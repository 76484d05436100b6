"""The synthetic renderer: deterministic, and its ground truth says what it drew."""

from __future__ import annotations

import numpy as np
import pytest

from nardy_pi.rules.variants import get_variant
from nardy_pi.vision import geometry as g
from nardy_pi.vision.render import Camera, Scene, render_scene
from nardy_pi.vision.render.scene import CubePlacement, DiePlacement, HandPlacement
from nardy_pi.vision.render.styles import STYLES
from nardy_pi.vision.stacking import stack_layout, visible_edges
from nardy_pi.vision.start_positions import START_FIELDS, start_board
from tests.vision.scenes import CAMERA


def test_same_seed_same_image_other_seed_other_noise() -> None:
    scene = Scene(points=start_board("backgammon").points, seed=5)
    a = render_scene(STYLES["wood"], CAMERA, scene).image
    b = render_scene(STYLES["wood"], CAMERA, scene).image
    c = render_scene(STYLES["wood"], CAMERA, Scene(points=scene.points, seed=6)).image
    assert np.array_equal(a, b)
    assert not np.array_equal(a, c)


def test_truth_has_the_analyze_json_shape() -> None:
    scene = Scene(points=start_board("backgammon").points, bar_white=1,
                  dice=(DiePlacement(3, 9.0, 5.5), DiePlacement(4, 2.0, 5.5)),
                  cube=CubePlacement(2, "top"), seed=1)
    truth = render_scene(STYLES["tournament"], CAMERA, scene).truth
    assert set(truth) == {"points", "bar", "off", "dice", "cube", "roll", "occluded"}
    assert truth["bar"] == {"white": 1, "black": 0}
    assert truth["off"] == {"white": 0, "black": 0}  # tournament boards show their trays
    assert [d["half"] for d in truth["dice"]] == ["right", "left"]
    assert truth["roll"] == {"valid": False, "reasons": ["split_halves"]}
    assert truth["cube"] == {"value": 2, "position": "top"}


def test_boards_without_trays_report_off_as_unknown() -> None:
    truth = render_scene(STYLES["wood"], CAMERA, Scene(points=(0,) * 24)).truth
    assert truth["off"] == {"white": None, "black": None}


def test_a_hand_over_the_board_is_occlusion_in_the_truth() -> None:
    scene = Scene(points=(0,) * 24, hands=(HandPlacement(edge=2, x=4.0, y=7.0),))
    assert render_scene(STYLES["felt"], CAMERA, scene).truth["occluded"] is True


def test_image_size_follows_the_camera() -> None:
    camera = Camera(width=1280, height=960, seed=2)
    image = render_scene(STYLES["walnut"], camera, Scene(points=(0,) * 24)).image
    assert image.shape == (960, 1280, 3)


@pytest.mark.parametrize("variant", sorted(START_FIELDS))
def test_start_positions_hold_the_right_number_of_checkers(variant: str) -> None:
    board = start_board(variant)
    per_side = 3 if variant == "hypergammon" else 15
    assert sum(c for c in board.points if c > 0) == per_side
    assert sum(-c for c in board.points if c < 0) == per_side
    # Each side's layout mirrors the other's: white on p means black on 25 - p (the long
    # family's heads sit opposite each other instead: white on 24, black on 12).
    if get_variant(variant).family == "long":
        assert (board.points[23], board.points[11]) == (15, -15)
    else:
        assert all(board.points[i] == -board.points[23 - i] for i in range(24))


def test_nackgammon_start_as_the_rules_describe_it() -> None:
    board = start_board("nackgammon")
    white = {i + 1: c for i, c in enumerate(board.points) if c > 0}
    assert white == {24: 2, 23: 2, 13: 4, 8: 3, 6: 4}


@pytest.mark.parametrize("style", ["rows", "layers"])
def test_every_stack_size_fits_its_point_and_shows_a_distinct_rim_pattern(style: str) -> None:
    patterns = set()
    for n in range(1, 16):
        layout = stack_layout(n, style, g.POINT_LENGTH, g.CHECKER)
        assert len(layout) == n
        assert max(p.offset for p in layout) + g.CHECKER <= g.POINT_LENGTH + 1e-9
        patterns.add(tuple(round(e, 2) for e in visible_edges(n, style, g.POINT_LENGTH,
                                                              g.CHECKER)))
    # Counts over five differ only in where rims show, so each pattern must be unique.
    assert len(patterns) == 15
