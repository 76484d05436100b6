"""Board looks for the synthetic renderer: colours (BGR), textures, trays, stacking habit."""

from __future__ import annotations

from dataclasses import dataclass

BGR = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class BoardStyle:
    name: str
    frame: BGR
    field: BGR
    point_a: BGR  # points 1, 3, 5... of the bottom row (alternating)
    point_b: BGR
    bar: BGR
    white: BGR  # light checkers
    black: BGR  # dark checkers
    texture: str  # "wood", "felt" or "plain"
    trays: bool
    table: BGR


STYLES: dict[str, BoardStyle] = {
    # Dark checkers on dark brown points, ivory on cream: both hard cases of classical pipelines.
    "wood": BoardStyle(
        "wood", frame=(30, 60, 100), field=(120, 175, 215), point_a=(35, 55, 95),
        point_b=(170, 215, 235), bar=(40, 75, 120), white=(215, 235, 245), black=(30, 30, 35),
        texture="wood", trays=False, table=(90, 100, 110),
    ),
    "felt": BoardStyle(
        "felt", frame=(25, 25, 30), field=(60, 110, 40), point_a=(40, 40, 150),
        point_b=(190, 215, 220), bar=(30, 30, 35), white=(225, 240, 245), black=(40, 30, 110),
        texture="felt", trays=False, table=(120, 120, 125),
    ),
    # Tournament board with a side tray: black checkers on black points, white on white.
    "tournament": BoardStyle(
        "tournament", frame=(40, 40, 45), field=(120, 110, 60), point_a=(62, 58, 55),
        point_b=(232, 232, 230), bar=(45, 45, 50), white=(200, 225, 245), black=(25, 25, 25),
        texture="felt", trays=True, table=(150, 140, 130),
    ),
    "walnut": BoardStyle(
        "walnut", frame=(20, 40, 70), field=(40, 70, 105), point_a=(140, 190, 225),
        point_b=(25, 45, 75), bar=(20, 40, 70), white=(185, 222, 242), black=(14, 22, 38),
        texture="wood", trays=True, table=(60, 60, 60),
    ),
}


def style_named(name: str) -> BoardStyle:
    try:
        return STYLES[name]
    except KeyError:
        raise ValueError(f"unknown board style {name!r}; known: {', '.join(STYLES)}") from None
