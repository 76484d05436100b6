"""Domain-randomised synthetic boards: training and evaluation data for the learned board
reader (issue 15) and the dice detector (issue 10).

    from nardy_pi.vision.render.randomised import render_random, iter_renders, iter_session
    r = render_random(7, "train", (1280, 960))
    r.image                # BGR uint8, the size asked for
    r.truth.points         # 24 signed counts (+ white = light, - black = dark)

render_random(seed, split="train"|"heldout", size=(w, h), *, position=None, dice="random",
              occluder=None, cube="random", style=None, tilt_deg=None, clean=False,
              scene_seed=None)
  position   BoardPosition, or 24 signed counts (the rest borne off); default random
  dice       "none", "random" (a throw from ROLLS) or a list of DieSpec / DICE_CASES names
  cube       "random", "none", a position (CUBE_POSITIONS) or a CubeSpec
  occluder   None (15% of renders), True, False, or kinds ("hand", "phone", "cup", "dice_cup")
  style      force a board set (e.g. HELDOUT_STYLES[name]); tilt_deg forces the camera tilt;
             clean drops the photo effects; scene_seed keeps board + camera of `seed` and
             varies the scene (see iter_session)

r.truth (RenderTruth):
  corners          surface corners TL, TR, BR, BL in image px (may lie outside the image)
  points, bar_white, bar_black, off_white, off_black   (15 a side)
  bar_u, point_u, point_length_v, checker_diameter_u, surface_aspect
                   geometry in surface-normalised (u, v), u left->right, v top->bottom
  visible, visible_fraction   per point: inside the image and not under an occluder
  occluder_mask, occluded
  dice             DieTruth: value (up face), center, box, top_face, flat, on_checker,
                   off_board, half, case, tilt_deg, in_image
  cube             CubeTruth: value (1 for a centred 64), face, position, center, box, top_face
  checkers         CheckerTruth per drawn checker: point (0 bar, 25 tray), white, center, ...
  style_name, split, trays, tilt_deg, roll_deg
  analyze_json()   the same truth in the `nardy-pi analyze --json` shape

`split="heldout"` draws only from HELDOUT_STYLES, which the train sampler never comes near
(style_distance >= HELDOUT_RADIUS). Speed: bench/bench_render.py.
"""

from nardy_pi.vision.render.randomised.dice_scene import (
    CUBE_POSITIONS,
    DICE_CASES,
    ROLLS,
    CubeSpec,
    DieSpec,
)
from nardy_pi.vision.render.randomised.position import BoardPosition
from nardy_pi.vision.render.randomised.render import (
    iter_renders,
    iter_session,
    pick_style,
    render_random,
)
from nardy_pi.vision.render.randomised.style import Style
from nardy_pi.vision.render.randomised.styles_heldout import (
    HELDOUT_RADIUS,
    HELDOUT_STYLES,
    near_heldout,
    nearest_heldout,
    style_distance,
)
from nardy_pi.vision.render.randomised.styles_train import sample_train_style
from nardy_pi.vision.render.randomised.truth import (
    CheckerTruth,
    CubeTruth,
    DieTruth,
    RandomRender,
    RenderTruth,
)

__all__ = [
    "CUBE_POSITIONS",
    "DICE_CASES",
    "HELDOUT_RADIUS",
    "HELDOUT_STYLES",
    "ROLLS",
    "BoardPosition",
    "CheckerTruth",
    "CubeSpec",
    "CubeTruth",
    "DieSpec",
    "DieTruth",
    "RandomRender",
    "RenderTruth",
    "Style",
    "iter_renders",
    "iter_session",
    "near_heldout",
    "nearest_heldout",
    "pick_style",
    "render_random",
    "sample_train_style",
    "style_distance",
]
