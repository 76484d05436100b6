"""What a board looks like: palette, materials, shapes and geometry, as one frozen value.

A style is everything that stays the same for one physical board set; the camera, light and
scene change per image. Colours are BGR.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

BGR = tuple[int, int, int]

FIELD_MATERIALS = ("wood", "felt", "painted", "leather", "cork")
POINT_SHAPES = ("triangle", "rounded", "cup", "thin", "outlined", "dotted")
ORNAMENTS = ("none", "diamond", "medallion", "border", "dots", "arrows")
CHECKER_FINISHES = ("plain", "rim", "rings", "grooves", "wood", "marble")
TRAYS = ("none", "right", "left", "both")


@dataclass(frozen=True, slots=True)
class Style:
    name: str
    # Board palette and materials.
    field: BGR
    field_material: str  # FIELD_MATERIALS
    point_a: BGR  # odd points (1, 3, ... 23)
    point_b: BGR  # even points
    point_material: str  # "solid", "inlay" (grained like the field), "printed"
    point_shape: str  # POINT_SHAPES
    point_outline: BGR | None
    frame: BGR
    frame_material: str  # "wood", "leather", "painted"
    bar: BGR
    bar_material: str
    hinges: bool
    ornament: str  # ORNAMENTS
    ornament_colour: BGR
    grain_strength: float  # 0 = flat colour; wood grain / felt fuzz depth
    wear: float  # 0..1 scratches and fading
    # Geometry, in point widths (one point = 1 unit).
    bar_width: float  # 0.5..1.5
    outer_margin: float  # surface beyond the last point, each side
    aspect: float  # surface width / height
    point_length: float  # share of the surface height, 0.35..0.48
    frame_width: float
    frame_height: float  # how far the frame stands above the surface
    trays: str  # TRAYS
    # Checkers.
    light: BGR
    dark: BGR
    checker_diameter: float  # share of the point width, 0.8..1.0
    checker_thickness: float  # share of the diameter
    checker_finish: str  # CHECKER_FINISHES
    gloss: float  # 0..1 specular highlight strength
    stack_compress: float  # probability a long stack is squeezed into one row
    stack_layers: float  # probability a long stack gets a second layer
    sloppiness: float  # 0..1 lateral and spacing jitter
    # Dice and cube.
    die_body: BGR
    die_pips: BGR
    die_translucent: bool
    cube_body: BGR
    cube_ink: BGR
    # Surroundings and light tendencies of this set (a café lamp, a dark room...).
    table: BGR
    table_material: str  # "wood", "cloth", "plain"
    glare: float  # 0..1 how likely and strong a lamp glare is
    split: str = "train"

    def with_name(self, name: str) -> Style:
        return replace(self, name=name)

    @property
    def surface_width(self) -> float:
        return 12.0 + self.bar_width + 2 * self.outer_margin

    @property
    def surface_height(self) -> float:
        return self.surface_width / self.aspect
