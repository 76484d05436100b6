"""Control actions as typed values, parsed from the JSON the control panel sends.

Parsing is strict and explains itself: every rejected field yields a `CommandError` whose
message is shown to the user, so a bad request changes nothing and says why.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from nardy_pi.rules.errors import UnknownVariantError
from nardy_pi.rules.settings import RuleSettings
from nardy_pi.rules.variants import get_variant
from nardy_pi.validation import InvalidField, corrected_board, player_name, whole_number

CubeActionName = Literal["double", "take", "pass"]
Corner = tuple[float, float]
MAX_MATCH_LENGTH = 99


class CommandError(ValueError):
    """A control request that cannot be understood; the message says which field and why."""


@dataclass(frozen=True, slots=True)
class NewMatch:
    variant: str
    match_length: int  # 0 = money play
    settings: RuleSettings = field(default_factory=RuleSettings)
    white_name: str = "White"
    black_name: str = "Black"
    jacoby: bool = False  # money play only: gammons count only once the cube was turned


@dataclass(frozen=True, slots=True)
class CorrectPosition:
    """Replace the referee's idea of the board (26-char XGID board field, physical)."""

    board: str
    turn: Literal["white", "black"]
    off_white: int = 0
    off_black: int = 0


@dataclass(frozen=True, slots=True)
class Undo:
    pass


@dataclass(frozen=True, slots=True)
class CubeAction:
    action: CubeActionName


@dataclass(frozen=True, slots=True)
class Calibrate:
    """Board corners in camera pixels: top_left, top_right, bottom_right, bottom_left."""

    corners: tuple[Corner, Corner, Corner, Corner]


Command = NewMatch | CorrectPosition | Undo | CubeAction | Calibrate


def _require_object(data: Any) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise CommandError("the request body must be a JSON object")
    return data


def _int_field(data: dict[str, Any], name: str, default: int, low: int, high: int) -> int:
    try:
        return whole_number(data.get(name, default), name, low, high)
    except InvalidField as err:
        raise CommandError(str(err)) from None


def _name_field(data: dict[str, Any], name: str, default: str) -> str:
    try:
        return player_name(data.get(name, default), name)
    except InvalidField as err:
        raise CommandError(str(err)) from None


def _reject_unknown(data: dict[str, Any], known: set[str]) -> None:
    unknown = sorted(set(data) - known)
    if unknown:
        raise CommandError(f"unknown field(s): {', '.join(unknown)}")


def parse_new_match(data: Any) -> NewMatch:
    data = _require_object(data)
    _reject_unknown(
        data, {"variant", "match_length", "settings", "white_name", "black_name", "jacoby"}
    )
    variant_name = data.get("variant", "backgammon")
    if not isinstance(variant_name, str):
        raise CommandError("variant must be a text")
    try:
        variant = get_variant(variant_name)
    except UnknownVariantError as err:
        raise CommandError(str(err)) from None
    length = _int_field(data, "match_length", 0, 0, MAX_MATCH_LENGTH)
    raw_settings = data.get("settings", {})
    if not isinstance(raw_settings, dict):
        raise CommandError("settings must be a JSON object")
    try:
        settings = RuleSettings.from_dict(raw_settings)
    except (TypeError, ValueError) as err:
        raise CommandError(str(err)) from None
    jacoby = data.get("jacoby", False)
    if not isinstance(jacoby, bool):
        raise CommandError("jacoby must be true or false")
    if jacoby and length:
        raise CommandError("the Jacoby rule applies to money play only (match_length 0)")
    return NewMatch(
        variant=variant.name,
        match_length=length,
        settings=settings,
        white_name=_name_field(data, "white_name", "White"),
        black_name=_name_field(data, "black_name", "Black"),
        jacoby=jacoby,
    )


def parse_correct_position(data: Any) -> CorrectPosition:
    data = _require_object(data)
    _reject_unknown(data, {"board", "turn", "off_white", "off_black"})
    try:
        board, off_white, off_black = corrected_board(
            data.get("board"), data.get("off_white", 0), data.get("off_black", 0)
        )
    except InvalidField as err:
        raise CommandError(str(err)) from None
    turn = data.get("turn")
    if turn not in ("white", "black"):
        raise CommandError("turn must be white or black")
    return CorrectPosition(board=board, turn=turn, off_white=off_white, off_black=off_black)


def parse_undo(data: Any) -> Undo:
    _reject_unknown(_require_object(data), set())
    return Undo()


def parse_cube_action(data: Any) -> CubeAction:
    data = _require_object(data)
    _reject_unknown(data, {"action"})
    action = data.get("action")
    if action not in ("double", "take", "pass"):
        raise CommandError("action must be double, take or pass")
    return CubeAction(action)


def _corner(value: Any, index: int) -> Corner:
    if (
        not isinstance(value, list | tuple)
        or len(value) != 2
        or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
    ):
        raise CommandError(f"corner {index + 1} must be a pair of numbers [x, y]")
    x, y = float(value[0]), float(value[1])
    if not (0 <= x <= 10000 and 0 <= y <= 10000):
        raise CommandError(f"corner {index + 1} is outside the camera frame")
    return x, y


def parse_calibrate(data: Any) -> Calibrate:
    data = _require_object(data)
    _reject_unknown(data, {"corners"})
    corners = data.get("corners")
    if not isinstance(corners, list) or len(corners) != 4:
        raise CommandError(
            "corners must list 4 points: top_left, top_right, bottom_right, bottom_left"
        )
    c = [_corner(v, i) for i, v in enumerate(corners)]
    return Calibrate((c[0], c[1], c[2], c[3]))


PARSERS = {
    "new_match": parse_new_match,
    "correct_position": parse_correct_position,
    "undo": parse_undo,
    "cube": parse_cube_action,
    "calibrate": parse_calibrate,
}
