"""The referee on rendered frames through the real vision pipeline (renderer -> calibration ->
Observer -> Referee): an opening roll, a move made die by die under a hand, the dice picked
up. Slow-ish (one frame ~0.5 s), so one short scene."""

from __future__ import annotations

import numpy as np

from nardy_pi.referee import Referee
from nardy_pi.referee import events as ev
from nardy_pi.rules.position import Position
from nardy_pi.rules.sides import Side
from nardy_pi.vision.calibrate import calibrate
from nardy_pi.vision.observe import Observer, default_dice_finder
from nardy_pi.vision.render import Camera, Scene, render_scene
from nardy_pi.vision.render.scene import DiePlacement, HandPlacement
from nardy_pi.vision.render.styles import style_named
from nardy_pi.vision.start_positions import start_board

STYLE = style_named("tournament")
CAMERA = Camera(width=640, height=480, seed=3)


def test_opening_and_first_move_on_rendered_frames() -> None:
    start = Position.start("backgammon")
    cal_frame = render_scene(STYLE, CAMERA, Scene(points=start.points, seed=0))
    observer = Observer(
        calibrate(cal_frame.image, np.array(cal_frame.corners), start_board("backgammon")),
        default_dice_finder(),
    )
    dice = (DiePlacement(3, 10.0, 5.5), DiePlacement(5, 3.0, 5.5))  # white 3 right, black 5
    hand = (HandPlacement(2, 9.0, 8.0),)
    script: list[tuple[tuple[int, ...], tuple[DiePlacement, ...], bool]] = [
        (start.points, (), False), (start.points, (), False),
        (start.points, (), True),
        (start.points, dice, False), (start.points, dice, False), (start.points, dice, False),
        (start.points, dice, True),
    ]
    referee = Referee("backgammon")
    events: list[ev.RefereeEvent] = []
    for i, (points, shown, occluded) in enumerate(script):
        scene = Scene(points=points, dice=shown, hands=hand if occluded else (), seed=i + 1)
        obs = observer.observe(render_scene(STYLE, CAMERA, scene).image).observation
        events += referee.observe(obs, i * 0.3)
    # Black wins the opening 5-3 and plays 5-3: own 8/3 6/3 = physical 17/22 19/22.
    assert [e for e in events if isinstance(e, ev.OpeningRolled)] == [
        ev.OpeningRolled(3, 5, Side.BLACK, (5, 3))
    ]
    half = list(start.points)
    half[16] += 1  # 8/3 first: physical 17 loses a black checker to 22
    half[21] -= 1
    after = list(half)
    after[18] += 1  # then 6/3: physical 19 to 22
    after[21] -= 1
    script = [
        (start.points, dice, True),
        (tuple(half), dice, False), (tuple(half), dice, False),  # half a move: no verdict
        (tuple(half), dice, True),
        (tuple(after), dice, False), (tuple(after), dice, False),
        (tuple(after), dice, True),
        (tuple(after), (), False), (tuple(after), (), False), (tuple(after), (), False),
    ]
    for i, (points, shown, occluded) in enumerate(script, start=20):
        scene = Scene(points=points, dice=shown, hands=hand if occluded else (), seed=i + 1)
        obs = observer.observe(render_scene(STYLE, CAMERA, scene).image).observation
        events += referee.observe(obs, i * 0.3)
    played = [e for e in events if isinstance(e, ev.MovePlayed)]
    assert [p.notation for p in played] == ["8/3 6/3"]
    assert not [e for e in events if isinstance(e, ev.IllegalMove | ev.Desync)]
    assert referee.position.turn is Side.WHITE
