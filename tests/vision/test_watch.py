"""Motion between frames and stability over a generated clip."""

from __future__ import annotations

from nardy_pi.vision.observe import Observer
from nardy_pi.vision.render import Scene, render_scene
from nardy_pi.vision.render.scene import HandPlacement
from nardy_pi.vision.watch import BoardWatcher
from tests.vision.scenes import points, setup


def test_a_still_board_becomes_stable_a_moving_hand_never_does() -> None:
    s = setup("felt")
    watcher = BoardWatcher(Observer(s.calibration), frames=3)
    still = points(p6=5, p8=3, p13=-5)
    frames = [Scene(points=still, seed=k) for k in range(3)]  # only the noise differs
    results = [watcher.feed(render_scene(s.style, s.camera, f).image) for f in frames]
    assert [r.moving for r in results] == [False, False, False]
    assert results[-1].stable is not None and results[-1].stable.points == still
    # A sleeve-coloured arm sweeping over the board, then a moved checker.
    for k, (x, y) in enumerate([(2.0, 8.0), (5.0, 7.0)]):
        hand = HandPlacement(2, x, y, skin=(60, 110, 40), sleeve=(60, 110, 40))
        result = watcher.feed(render_scene(s.style, s.camera,
                                           Scene(points=still, hands=(hand,), seed=10 + k)).image)
        assert result.observation.occluded and result.stable is None
    moved = points(p6=4, p5=1, p8=3, p13=-5)
    result = watcher.feed(render_scene(s.style, s.camera, Scene(points=moved, seed=20)).image)
    assert result.moving and result.stable is None
    for k in range(3):
        result = watcher.feed(render_scene(s.style, s.camera,
                                           Scene(points=moved, seed=30 + k)).image)
    assert result.stable is not None and result.stable.points == moved
