"""The roll verdict (board-frame.md §3 reasons) and where dice lie on the calibrated board.

Placement is tested with dice positions the renderer reports (a finder that returns what was
drawn), so these tests pin the geometry and the verdict; the dice reader has its own tests.
"""

from __future__ import annotations

import numpy as np
import pytest

from nardy_pi.vision.observe import Observer
from nardy_pi.vision.render import render_scene
from nardy_pi.vision.render.scene import DiePlacement, HandPlacement, Scene
from nardy_pi.vision.roll import judge_roll
from nardy_pi.vision.types import DieOnBoard, DieReading
from tests.vision.scenes import points, setup


def die(on_board=True, half="left", flat=True, on_checker=False) -> DieOnBoard:
    return DieOnBoard(value=3 if flat else None, center=(0.0, 0.0), flat=flat,
                      on_board=on_board, half=half if on_board else None, on_checker=on_checker)


@pytest.mark.parametrize(
    ("dice", "reasons"),
    [
        ((die(), die()), ()),
        ((die(),), ("missing_die",)),  # two dice are in play: one seen is one missing
        ((), ()),
        ((die(), die(half="right")), ("split_halves",)),
        ((die(), die(on_board=False)), ("off_board",)),
        ((die(), die(flat=False)), ("cocked",)),
        ((die(), die(on_checker=True)), ("on_checker",)),
        ((die(), die(), die()), ("extra_die",)),
        ((die(half="right", flat=False), die(on_board=False), die()),
         ("off_board", "split_halves", "cocked", "extra_die")),
    ],
)
def test_every_reason_is_listed(dice, reasons) -> None:
    verdict = judge_roll(dice)
    assert verdict.reasons == reasons
    assert verdict.valid == (not reasons and bool(dice))


def test_a_lone_die_can_be_accepted_on_request() -> None:
    assert judge_roll((die(),), accepted_counts=(1, 2)).reasons == ()


def drawn_dice_finder(scene_dice, homography):
    """Readings at the places the renderer drew the dice (value unread when cocked)."""
    from nardy_pi.vision.geometry import apply_homography

    def find(_image: np.ndarray) -> list[DieReading]:
        out = []
        for d in scene_dice:
            cx, cy = apply_homography(homography, np.array([[d.x, d.y]]))[0]
            out.append(DieReading(d.value if d.flat else None, (float(cx), float(cy)),
                                  (cx - 9, cy - 9, cx + 9, cy + 12), d.flat))
        return out

    return find


def observe_with_drawn_dice(scene: Scene):
    s = setup("wood")
    image = render_scene(s.style, s.camera, scene).image
    finder = drawn_dice_finder(scene.dice, s.calibration.homography)
    return Observer(s.calibration, finder).observe(image).observation


def test_two_dice_in_the_right_half_are_a_valid_roll() -> None:
    scene = Scene(points=points(p6=5, p13=-5),
                  dice=(DiePlacement(5, 9.0, 5.4), DiePlacement(2, 11.0, 5.7)), seed=1)
    obs = observe_with_drawn_dice(scene)
    assert [(d.value, d.on_board, d.half, d.on_checker) for d in obs.dice] == [
        (5, True, "right", False), (2, True, "right", False)]
    assert obs.roll.valid and obs.roll.reasons == ()
    assert obs.points == points(p6=5, p13=-5)  # the dice hide no checker and add none


def test_dice_off_the_board_in_two_halves_and_on_a_checker() -> None:
    scene = Scene(points=points(p6=3, p13=-1),
                  dice=(DiePlacement(4, 3.0, 5.5),
                        DiePlacement(6, -1.5, 4.0),
                        DiePlacement(1, 7.5, 10.55, on_checker=True),  # on point 6's base
                        DiePlacement(3, 0.5, 0.45, on_checker=True)),  # on the lone black
                  seed=2)
    obs = observe_with_drawn_dice(scene)
    assert [(d.on_board, d.half, d.on_checker) for d in obs.dice] == [
        (True, "left", False), (False, None, False), (True, "right", True),
        (True, "left", True)]
    assert obs.roll.reasons == ("off_board", "split_halves", "on_checker", "extra_die")
    # A die on a stack hides part of it, and a lone checker under a die still counts.
    assert obs.points == points(p6=3, p13=-1)


def test_a_hand_over_the_board_is_seen() -> None:
    s = setup("walnut")
    for k, (edge, x, y) in enumerate([(2, 4.0, 8.0), (0, 9.5, 2.0), (1, 10.0, 6.0)]):
        scene = Scene(points=points(p6=5, p13=-5),
                      hands=(HandPlacement(edge, x, y, skin=(90, 130, 185)),), seed=k)
        image = render_scene(s.style, s.camera, scene).image
        assert Observer(s.calibration).observe(image).observation.occluded


def test_a_clear_board_is_not_occluded() -> None:
    for style in ("wood", "felt", "tournament", "walnut"):
        s = setup(style)
        image = render_scene(s.style, s.camera, Scene(points=points(p6=5, p13=-5, p19=-15),
                                                      seed=4)).image
        assert not Observer(s.calibration).observe(image).observation.occluded, style


def test_a_die_on_a_stacks_top_checker_rests_on_it_and_hides_none() -> None:
    # Point 6's three checkers are centred at y 10.55, 9.65, 8.75: the die covers the third.
    scene = Scene(points=points(p6=3, p13=-5),
                  dice=(DiePlacement(4, 7.5, 8.75, on_checker=True),
                        DiePlacement(2, 10.0, 5.5)), seed=5)
    obs = observe_with_drawn_dice(scene)
    assert [d.on_checker for d in obs.dice] == [True, False]
    assert obs.roll.reasons == ("on_checker",)
    assert obs.points == points(p6=3, p13=-5)


def test_a_die_just_past_a_stacks_end_is_not_on_it() -> None:
    # A third of a die's side clear of the third checker's rim: on the point, not the stack.
    scene = Scene(points=points(p6=3, p13=-5),
                  dice=(DiePlacement(4, 7.5, 7.95), DiePlacement(2, 10.0, 5.5)), seed=6)
    obs = observe_with_drawn_dice(scene)
    assert [d.on_checker for d in obs.dice] == [False, False]
    assert obs.roll.valid
    assert obs.points == points(p6=3, p13=-5)
