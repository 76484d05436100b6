"""Domain-randomised synthetic boards: training and evaluation data for the learned board
reader (issue 15) and the dice detector (issue 10).

    from nardy_pi.vision.render.randomised import render_random
    r = render_random(7, "train", (1280, 960))
    r.image          # BGR uint8
    r.truth.points   # 24 signed counts; see truth.RenderTruth for the rest

`split="heldout"` draws only from HELDOUT_STYLES, which the train sampler never comes near.
"""

from nardy_pi.vision.render.randomised.dice_scene import (
    CUBE_POSITIONS,
    DICE_CASES,
    ROLLS,
    CubeSpec,
    DieSpec,
)
from nardy_pi.vision.render.randomised.position import BoardPosition
from nardy_pi.vision.render.randomised.render import iter_renders, pick_style, render_random
from nardy_pi.vision.render.randomised.style import Style
from nardy_pi.vision.render.randomised.styles_heldout import (
    HELDOUT_RADIUS,
    HELDOUT_STYLES,
    near_heldout,
    nearest_heldout,
    style_distance,
)
from nardy_pi.vision.render.randomised.styles_train import sample_train_style
from nardy_pi.vision.render.randomised.truth import CubeTruth, DieTruth, RandomRender, RenderTruth

__all__ = [
    "CUBE_POSITIONS",
    "DICE_CASES",
    "HELDOUT_RADIUS",
    "HELDOUT_STYLES",
    "ROLLS",
    "BoardPosition",
    "CubeSpec",
    "CubeTruth",
    "DieSpec",
    "DieTruth",
    "RandomRender",
    "RenderTruth",
    "Style",
    "iter_renders",
    "near_heldout",
    "nearest_heldout",
    "pick_style",
    "render_random",
    "sample_train_style",
    "style_distance",
]
