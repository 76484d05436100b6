"""A table's snapshot as the broker delivered it (JSON from anyone on the broker) turned back
into a typed `State` for the small board picture, taking only well-formed numbers and
choices. Anything odd gives None and the page shows the table without a board."""

from __future__ import annotations

from typing import Any

from nardy_pi.state import PlayerState, State
from nardy_pi.web.board_svg import render_board

_SIDES = ("white", "black")


def _int(value: Any, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise ValueError(f"{value!r} is not a whole number {low}-{high}")
    return value


def _ints(value: Any, low: int, high: int, most: int) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) > most:
        raise ValueError("not a short list")
    return tuple(_int(v, low, high) for v in value)


def _player(data: Any) -> PlayerState:
    if not isinstance(data, dict):
        raise ValueError("a player is not an object")
    return PlayerState("", 0, 0, _int(data.get("borne_off", 0), 0, 30),
                       _int(data.get("on_bar", 0), 0, 30))


def board_state(data: dict[str, Any]) -> State | None:
    """The parts of `data` the board picture draws, checked; None when any is malformed."""
    try:
        points = _ints(data.get("points"), -30, 30, 24)
        if len(points) != 24:
            return None
        turn = data.get("turn")
        owner = data.get("cube_owner", "center")
        if turn not in (*_SIDES, None) or owner not in (*_SIDES, "center"):
            return None
        return State(
            variant="", board="", points=points, turn=turn, phase="",
            dice=_ints(data.get("dice", []), 1, 6, 4),
            cube_value=_int(data.get("cube_value", 1), 1, 1 << 16),
            cube_owner=owner,
            cube_offered=data.get("cube_offered") is True,
            white=_player(data.get("white", {})),
            black=_player(data.get("black", {})),
            last_move_points=_ints(data.get("last_move_points", []), 0, 25, 24),
        )
    except ValueError:
        return None


def board_svg(data: dict[str, Any] | None) -> str:
    """The small board of a table's snapshot, or "" when there is none to draw."""
    state = board_state(data) if data is not None else None
    return render_board(state) if state is not None else ""
