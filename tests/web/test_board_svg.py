"""The board diagram: checkers where the position says, last move marked, cube and dice."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import replace

from nardy_pi.rules.notation.board_field import format_board_field
from nardy_pi.rules.position import Position
from nardy_pi.state import PlayerState, State
from nardy_pi.web.board_svg import CHECKER_R, COLORS, point_column, render_board

NS = "{http://www.w3.org/2000/svg}"


def _state(variant: str = "backgammon", **kw: object) -> State:
    pos = Position.start(variant)
    base = State(
        variant=variant,
        board=format_board_field(pos.points, 0, 0),
        points=pos.points,
        turn="white",
        phase="rolling",
    )
    return replace(base, **kw)


def _checkers(svg: str) -> dict[str, int]:
    root = ET.fromstring(svg)
    counts = {"white": 0, "black": 0}
    for circle in root.iter(f"{NS}circle"):
        if float(circle.get("r", 0)) == CHECKER_R:
            counts["white" if circle.get("fill") == COLORS["white"] else "black"] += 1
    return counts


def test_point_layout_follows_board_frame() -> None:
    assert point_column(13) == (0, True)
    assert point_column(24) == (11, True)
    assert point_column(12) == (0, False)
    assert point_column(1) == (11, False)


def test_start_position_draws_fifteen_checkers_a_side() -> None:
    svg = render_board(_state())
    assert _checkers(svg) == {"white": 15, "black": 15}


def test_tall_stacks_are_capped_and_numbered() -> None:
    svg = render_board(_state("long"))
    # Long nardy: all fifteen on each head; five drawn per stack, the top one says 15.
    assert _checkers(svg) == {"white": 5, "black": 5}
    labels = [t.text for t in ET.fromstring(svg).iter(f"{NS}text")]
    assert labels.count("15") >= 2


def test_bar_and_borne_off_checkers_are_drawn() -> None:
    state = _state(
        white=PlayerState("W", 0, 0, borne_off=2, on_bar=1),
        black=PlayerState("B", 0, 0, borne_off=0, on_bar=2),
    )
    counts = _checkers(render_board(state))
    assert counts == {"white": 16, "black": 17}
    slabs = [
        r for r in ET.fromstring(render_board(state)).iter(f"{NS}rect") if r.get("height") == "9"
    ]
    assert len(slabs) == 2


def test_last_move_points_are_marked() -> None:
    svg = render_board(_state(last_move_points=(8, 5, 6)))
    marked = {
        int(p.get("data-point"))
        for p in ET.fromstring(svg).iter(f"{NS}polygon")
        if "marked" in p.get("class", "")
    }
    assert marked == {5, 6, 8}


def test_cube_and_dice() -> None:
    root = ET.fromstring(render_board(_state(dice=(6, 3))))
    dice = [int(r.get("data-value")) for r in root.iter(f"{NS}rect") if r.get("class") == "die"]
    assert dice == [6, 3]
    texts = [t.text for t in root.iter(f"{NS}text")]
    assert "64" in texts  # a centred cube at 1 shows 64, as on the real cube

    def cube_y(owner: str) -> float:
        svg = render_board(_state(cube_value=4, cube_owner=owner))
        cube = next(r for r in ET.fromstring(svg).iter(f"{NS}rect") if r.get("class") == "cube")
        return float(cube.get("y"))

    assert cube_y("black") < cube_y("center") < cube_y("white")
