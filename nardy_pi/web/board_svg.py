"""An SVG diagram of a `State`: points, checkers, bar, borne-off trays, cube and dice.

Drawn in the physical frame of board-frame.md (13-18 | 19-24 on top, 12-7 | 6-1 below,
white = bottom player), so the picture matches the real board on the table. The points the
last play touched are outlined. Pure function of the state: the page asks for nothing else.

Every point, each side's half of the bar and each tray carries `data-point` ("1".."24",
"bar-white", "off-black", ...) on a transparent `hit` area, so the control panel can correct
the position by tapping the drawing.
"""

from __future__ import annotations

from nardy_pi.state import State

POINT_W = 40
POINT_H = 180
CHECKER_R = 18
MAX_DRAWN = 5  # checkers drawn per stack; more are shown as a number on the top one
LEFT = 56  # room for the cube
TOP = 30  # room for the point numbers (legible on a 390 px phone)
BAR_W = 40
GAP = 40  # between the two rows
BOARD_W = 12 * POINT_W + BAR_W
BOARD_H = 2 * POINT_H + GAP
TRAY_X = LEFT + BOARD_W + 10
TRAY_W = 46
WIDTH = TRAY_X + TRAY_W + 6
HEIGHT = TOP + BOARD_H + 30
LABEL_SIZE = 22

COLORS = {
    "frame": "#4e342e",
    "field": "#efe6d3",
    "point_a": "#b5533c",
    "point_b": "#35524a",
    "white": "#fbfaf5",
    "white_edge": "#3a3a3a",
    "black": "#1f1f1f",
    "black_edge": "#d0d0d0",
    "mark": "#ffb300",
    "label": "#cfd8dc",
}


def point_column(point: int) -> tuple[int, bool]:
    """(column 0..11 from the left, is_top_row) of physical point 1..24."""
    if point >= 13:
        return point - 13, True
    return 12 - point, False


def _column_x(col: int) -> float:
    return LEFT + col * POINT_W + (BAR_W if col >= 6 else 0)


def _paint(white: bool) -> tuple[str, str]:
    """(fill, edge) colours of a checker of that side."""
    if white:
        return COLORS["white"], COLORS["white_edge"]
    return COLORS["black"], COLORS["black_edge"]


def _checker(cx: float, cy: float, white: bool, label: str = "") -> str:
    fill, edge = _paint(white)
    parts = [
        f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{CHECKER_R}" fill="{fill}" '
        f'stroke="{edge}" stroke-width="2"/>'
    ]
    if label:
        parts.append(
            f'<text x="{cx:.1f}" y="{cy + 6:.1f}" text-anchor="middle" font-size="17" '
            f'font-weight="bold" fill="{edge}">{label}</text>'
        )
    return "".join(parts)


def _stack(cx: float, base_y: float, direction: int, count: int, white: bool) -> list[str]:
    """`count` checkers piled from `base_y` towards the middle (`direction` +1 down, -1 up)."""
    out = []
    drawn = min(count, MAX_DRAWN)
    for i in range(drawn):
        cy = base_y + direction * (CHECKER_R + i * 2 * CHECKER_R)
        label = str(count) if count > MAX_DRAWN and i == drawn - 1 else ""
        out.append(_checker(cx, cy, white, label))
    return out


def _points(state: State) -> list[str]:
    marked = set(state.last_move_points)
    out = []
    for point in range(1, 25):
        col, top = point_column(point)
        x = _column_x(col)
        base = TOP if top else TOP + BOARD_H
        tip = base + POINT_H if top else base - POINT_H
        fill = COLORS["point_a"] if col % 2 == 0 else COLORS["point_b"]
        mark = point in marked
        stroke = f' stroke="{COLORS["mark"]}" stroke-width="4"' if mark else ""
        out.append(
            f'<polygon class="point{" marked" if mark else ""}" data-point="{point}" '
            f'points="{x + 1:.0f},{base} {x + POINT_W - 1:.0f},{base} {x + POINT_W / 2:.0f},{tip}"'
            f' fill="{fill}"{stroke}/>'
        )
        label_y = TOP - 7 if top else TOP + BOARD_H + 25
        weight = ' font-weight="bold"' if mark else ""
        color = COLORS["mark"] if mark else COLORS["label"]
        out.append(
            f'<text x="{x + POINT_W / 2:.0f}" y="{label_y}" text-anchor="middle" '
            f'font-size="{LABEL_SIZE}" fill="{color}"{weight}>{point}</text>'
        )
        out.append(_hit(x, TOP if top else TOP + BOARD_H / 2, POINT_W, BOARD_H / 2, str(point)))
        count = state.points[point - 1] if point - 1 < len(state.points) else 0
        if count:
            direction = 1 if top else -1
            out += _stack(x + POINT_W / 2, base, direction, abs(count), count > 0)
    return out


def _hit(x: float, y: float, w: float, h: float, target: str) -> str:
    return (f'<rect class="hit" data-point="{target}" x="{x:.0f}" y="{y:.0f}" width="{w:.0f}" '
            f'height="{h:.0f}" fill="transparent"/>')


def _bar(state: State) -> list[str]:
    cx = LEFT + 6 * POINT_W + BAR_W / 2
    mid = TOP + BOARD_H / 2
    out = [
        f'<rect x="{LEFT + 6 * POINT_W}" y="{TOP}" width="{BAR_W}" height="{BOARD_H}" '
        f'fill="{COLORS["frame"]}"/>'
    ]
    # Black's hit checkers wait in the upper half, white's in the lower half.
    if state.black.on_bar:
        out += _stack(cx, mid - GAP / 2, -1, state.black.on_bar, False)
    if state.white.on_bar:
        out += _stack(cx, mid + GAP / 2, 1, state.white.on_bar, True)
    out.append(_hit(LEFT + 6 * POINT_W, TOP, BAR_W, BOARD_H / 2, "bar-black"))
    out.append(_hit(LEFT + 6 * POINT_W, mid, BAR_W, BOARD_H / 2, "bar-white"))
    return out


def _tray(y: float, count: int, white: bool) -> list[str]:
    height = BOARD_H / 2 - 10
    out = [
        f'<rect x="{TRAY_X}" y="{y:.0f}" width="{TRAY_W}" height="{height:.0f}" rx="4" '
        f'fill="{COLORS["frame"]}"/>'
    ]
    fill, edge = _paint(white)
    # Borne-off checkers seen edge-on, piled from the outer end of the tray.
    for i in range(count):
        slab_y = y + height - 6 - (i + 1) * 10 if white else y + 6 + i * 10
        out.append(
            f'<rect x="{TRAY_X + 5}" y="{slab_y:.0f}" width="{TRAY_W - 10}" height="9" rx="2" '
            f'fill="{fill}" stroke="{edge}" stroke-width="1"/>'
        )
    if count:
        text_y = y + height / 2 + 8 if count < 8 else (y + 22 if white else y + height - 10)
        out.append(
            f'<text x="{TRAY_X + TRAY_W / 2}" y="{text_y:.0f}" text-anchor="middle" '
            f'font-size="18" font-weight="bold" fill="{COLORS["mark"]}">{count}</text>'
        )
    out.append(_hit(TRAY_X, y, TRAY_W, height, "off-white" if white else "off-black"))
    return out


def cube_face(state: State) -> int:
    """The number on top of the cube: a cube in the middle shows 64 and is worth 1; the
    drawing and the page's cube card both show this face."""
    return 64 if state.cube_owner == "center" and state.cube_value == 1 else state.cube_value


def _cube(state: State) -> list[str]:
    size = 38
    x = (LEFT - size) / 2
    if state.cube_owner == "black":
        y = TOP + 8
    elif state.cube_owner == "white":
        y = TOP + BOARD_H - size - 8
    else:
        y = TOP + BOARD_H / 2 - size / 2
    value = cube_face(state)
    ring = f' stroke="{COLORS["mark"]}" stroke-width="4"' if state.cube_offered else ""
    return [
        f'<rect class="cube" data-face="{value}" data-owner="{state.cube_owner}" '
        f'x="{x:.0f}" y="{y:.0f}" width="{size}" height="{size}" rx="6" '
        f'fill="#fff8e1"{ring}/>',
        f'<text x="{x + size / 2:.0f}" y="{y + size / 2 + 7:.0f}" text-anchor="middle" '
        f'font-size="20" font-weight="bold" fill="#222">{value}</text>',
    ]


PIP_SPOTS = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
}


def die_svg(x: float, y: float, value: int, white: bool, size: float = 40) -> str:
    face, pip = ("#fbfaf5", "#1f1f1f") if white else ("#1f1f1f", "#fbfaf5")
    parts = [
        f'<rect class="die" data-value="{value}" x="{x:.0f}" y="{y:.0f}" width="{size:.0f}" '
        f'height="{size:.0f}" rx="7" fill="{face}" stroke="#777" stroke-width="2"/>'
    ]
    step = size / 4
    for dx, dy in PIP_SPOTS.get(value, ()):
        parts.append(
            f'<circle cx="{x + size / 2 + dx * step:.1f}" cy="{y + size / 2 + dy * step:.1f}" '
            f'r="{size / 11:.1f}" fill="{pip}"/>'
        )
    return "".join(parts)


def _dice(state: State) -> list[str]:
    """The dice lie in the mover's right-hand half, as on a real board."""
    if not state.dice:
        return []
    white = state.turn != "black"
    size = 40
    half_x = LEFT + 6 * POINT_W + BAR_W if white else LEFT
    center_x = half_x + 3 * POINT_W
    y = TOP + BOARD_H / 2 - size / 2
    total = len(state.dice) * size + (len(state.dice) - 1) * 10
    x0 = center_x - total / 2
    return [die_svg(x0 + i * (size + 10), y, d, white, size) for i, d in enumerate(state.dice)]


def render_board(state: State) -> str:
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'class="board" role="img" aria-label="board">',
        f'<rect x="{LEFT - 6}" y="{TOP - 6}" width="{BOARD_W + 12}" height="{BOARD_H + 12}" '
        f'rx="6" fill="{COLORS["frame"]}"/>',
        f'<rect x="{LEFT}" y="{TOP}" width="{BOARD_W}" height="{BOARD_H}" '
        f'fill="{COLORS["field"]}"/>',
    ]
    parts += _points(state)
    parts += _bar(state)
    parts += _tray(TOP, state.black.borne_off, False)
    parts += _tray(TOP + BOARD_H / 2 + 10, state.white.borne_off, True)
    parts += _cube(state)
    parts += _dice(state)
    parts.append("</svg>")
    return "".join(parts)


def render_dice_row(dice: tuple[int, ...], turn: str | None) -> str:
    """The dice alone, large, for the status line above the board."""
    if not dice:
        return ""
    size, gap = 56, 12
    width = len(dice) * size + (len(dice) - 1) * gap + 4
    faces = "".join(
        die_svg(2 + i * (size + gap), 2, d, turn != "black", size) for i, d in enumerate(dice)
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {size + 4}" '
        f'class="dice-svg" width="{width}" height="{size + 4}">{faces}</svg>'
    )
