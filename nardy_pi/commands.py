"""Commands as typed values: the one vocabulary of the buttons, the web panel and the club page.

The loop dispatches on these types only (no strings or tuples). Web requests are parsed here
strictly: every rejected field raises `CommandError` with a message key naming the field, so
a bad request changes nothing and says why.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, Literal

from nardy_pi.errors import CommandError
from nardy_pi.game.settings import DEFAULT_MATCH_SETTINGS, MatchSettings
from nardy_pi.rules.errors import UnknownVariantError
from nardy_pi.rules.notation.board_field import parse_board_field
from nardy_pi.rules.results import ResultSettings
from nardy_pi.rules.settings import RuleSettings
from nardy_pi.rules.variants import VARIANTS, get_variant

CubeActionName = Literal["double", "take", "pass", "beaver", "raccoon"]
CUBE_ACTIONS: tuple[CubeActionName, ...] = ("double", "take", "pass", "beaver", "raccoon")
Corner = tuple[float, float]
MAX_MATCH_LENGTH = 99
MAX_NAME = 40


@dataclass(frozen=True, slots=True)
class Confirm:
    """The move on the board is finished (or: the board is set up, start the next game)."""


@dataclass(frozen=True, slots=True)
class Undo:
    """Take back the last event of the game (a play, a roll, a double, a take, a correction)."""


@dataclass(frozen=True, slots=True)
class Hint:
    """Light the best play (with an engine) or every legal destination."""


@dataclass(frozen=True, slots=True)
class CubeAction:
    action: CubeActionName


@dataclass(frozen=True, slots=True)
class SettleGame:
    """End an abandoned game with the points the evaluation engine assigns."""


@dataclass(frozen=True, slots=True)
class NewMatch:
    variant: str
    match_length: int  # 0 = money play
    #: everything beyond variant and length: move rules, cube options, result rules, timer
    settings: MatchSettings = DEFAULT_MATCH_SETTINGS
    white_name: str = "White"
    black_name: str = "Black"

    @property
    def rules(self) -> RuleSettings:
        return self.settings.rules


@dataclass(frozen=True, slots=True)
class CorrectPosition:
    """Replace the record's board (26-char XGID board field, physical numbering)."""

    board: str
    turn: Literal["white", "black"]
    off_white: int = 0
    off_black: int = 0
    dice: tuple[int, int] | None = None  # already rolled: the side plays these


@dataclass(frozen=True, slots=True)
class Calibrate:
    """Board corners in camera pixels: top_left, top_right, bottom_right, bottom_left."""

    corners: tuple[Corner, Corner, Corner, Corner]


Command = (
    Confirm | Undo | Hint | CubeAction | SettleGame | NewMatch | CorrectPosition | Calibrate
)

#: what each GPIO button sends
BUTTON_COMMANDS: dict[str, Command] = {
    "confirm": Confirm(),
    "undo": Undo(),
    "double": CubeAction("double"),
    "take": CubeAction("take"),
    "pass": CubeAction("pass"),
    "hint": Hint(),
}


# --- parsing the panel's JSON -------------------------------------------------------------
def _require_object(data: Any) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise CommandError("command.not_object")
    return data


def _int_field(data: dict[str, Any], name: str, default: int, low: int, high: int) -> int:
    value = data.get(name, default)
    # bool is an int subclass; `true` is not a match length.
    if isinstance(value, bool) or not isinstance(value, int):
        raise CommandError("command.not_integer", field=name)
    if not low <= value <= high:
        raise CommandError("command.out_of_range", field=name, low=low, high=high, value=value)
    return value


def _name_field(data: dict[str, Any], name: str, default: str) -> str:
    value = data.get(name, default)
    if not isinstance(value, str) or not value.strip():
        raise CommandError("command.not_text", field=name)
    value = value.strip()
    if len(value) > MAX_NAME:
        raise CommandError("command.too_long", field=name, limit=MAX_NAME)
    return value


def _reject_unknown(data: dict[str, Any], known: set[str]) -> None:
    unknown = sorted(set(data) - known)
    if unknown:
        raise CommandError("command.unknown_fields", fields=", ".join(unknown))


_RULE_KEYS = {f.name for f in fields(RuleSettings)}
_MATCH_KEYS = {f.name for f in fields(MatchSettings)} - {"rules", "results"}
_RESULT_KEYS = {f.name for f in fields(ResultSettings)}


def match_settings(
    data: dict[str, Any], family: str, base: MatchSettings = DEFAULT_MATCH_SETTINGS
) -> MatchSettings:
    """`MatchSettings` from one flat table: move-rule keys (`head_exception`...), match keys
    (`jacoby`, `beaver`, `move_seconds`...), and `rules` / `results` sub-tables. Raises
    ValueError naming the bad key; the config file and the panel both read settings so."""
    flat = dict(data)
    rules = dict(flat.pop("rules", {}) or {})
    results = flat.pop("results", None)
    for key in [k for k in flat if k in _RULE_KEYS]:
        rules[key] = flat.pop(key)
    unknown = sorted(set(flat) - _MATCH_KEYS)
    if unknown:
        raise ValueError(f"unknown setting(s): {', '.join(unknown)}")
    rule_settings = RuleSettings.from_dict({**_rules_dict(base.rules), **rules})
    values: dict[str, Any] = {**flat, "rules": rule_settings}
    if results is not None:
        if not isinstance(results, dict):
            raise ValueError("results must be a table")
        values["results"] = ResultSettings.from_dict(results, family)
    return replace(base, **values)


def _rules_dict(rules: RuleSettings) -> dict[str, Any]:
    return {name: getattr(rules, name) for name in _RULE_KEYS}


def parse_new_match(data: Any) -> NewMatch:
    data = _require_object(data)
    _reject_unknown(
        data, {"variant", "match_length", "settings", "white_name", "black_name", "jacoby"}
    )
    variant_name = data.get("variant", "backgammon")
    if not isinstance(variant_name, str):
        raise CommandError("command.not_text", field="variant")
    try:
        variant = get_variant(variant_name)
    except UnknownVariantError:
        raise CommandError(
            "command.unknown_variant", variant=variant_name, known=", ".join(sorted(VARIANTS))
        ) from None
    length = _int_field(data, "match_length", 0, 0, MAX_MATCH_LENGTH)
    raw_settings = data.get("settings", {})
    if not isinstance(raw_settings, dict):
        raise CommandError("command.bad_field", field="settings", detail="must be a JSON object")
    jacoby = data.get("jacoby", raw_settings.get("jacoby", False))
    if not isinstance(jacoby, bool):
        raise CommandError("command.not_bool", field="jacoby")
    if jacoby and length:
        raise CommandError("command.jacoby_money_only")
    try:
        settings = match_settings({**raw_settings, "jacoby": jacoby}, variant.family)
    except (TypeError, ValueError) as err:
        raise CommandError("command.bad_field", field="settings", detail=str(err)) from None
    return NewMatch(
        variant=variant.name,
        match_length=length,
        settings=settings,
        white_name=_name_field(data, "white_name", "White"),
        black_name=_name_field(data, "black_name", "Black"),
    )


def _dice_field(data: dict[str, Any]) -> tuple[int, int] | None:
    dice = data.get("dice")
    if dice is None:
        return None
    if (
        not isinstance(dice, list)
        or len(dice) != 2
        or not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in dice)
    ):
        raise CommandError("command.bad_field", field="dice", detail="two numbers 1-6")
    return dice[0], dice[1]


def parse_correct_position(data: Any) -> CorrectPosition:
    data = _require_object(data)
    _reject_unknown(data, {"board", "turn", "off_white", "off_black", "dice"})
    board = data.get("board")
    if not isinstance(board, str):
        raise CommandError("command.bad_board", detail="not a text")
    try:
        parse_board_field(board.strip())
    except ValueError as err:
        raise CommandError("command.bad_board", detail=str(err)) from None
    turn = data.get("turn")
    if turn not in ("white", "black"):
        raise CommandError("command.not_choice", field="turn", choices="white, black")
    return CorrectPosition(
        board=board.strip(),
        turn=turn,
        off_white=_int_field(data, "off_white", 0, 0, 15),
        off_black=_int_field(data, "off_black", 0, 0, 15),
        dice=_dice_field(data),
    )


def _no_fields(command: Command) -> Any:
    def parse(data: Any) -> Command:
        _reject_unknown(_require_object(data), set())
        return command

    return parse


def parse_cube_action(data: Any) -> CubeAction:
    data = _require_object(data)
    _reject_unknown(data, {"action"})
    action = data.get("action")
    if action not in CUBE_ACTIONS:
        raise CommandError("command.not_choice", field="action", choices=", ".join(CUBE_ACTIONS))
    return CubeAction(action)


def _corner(value: Any, index: int) -> Corner:
    if (
        not isinstance(value, list | tuple)
        or len(value) != 2
        or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
    ):
        raise CommandError("command.bad_corner", index=index + 1)
    x, y = float(value[0]), float(value[1])
    if not (0 <= x <= 10000 and 0 <= y <= 10000):
        raise CommandError("command.corner_outside", index=index + 1)
    return x, y


def parse_calibrate(data: Any) -> Calibrate:
    data = _require_object(data)
    _reject_unknown(data, {"corners"})
    corners = data.get("corners")
    if not isinstance(corners, list) or len(corners) != 4:
        raise CommandError("command.four_corners")
    c = [_corner(v, i) for i, v in enumerate(corners)]
    return Calibrate((c[0], c[1], c[2], c[3]))


PARSERS: dict[str, Any] = {
    "new_match": parse_new_match,
    "correct_position": parse_correct_position,
    "undo": _no_fields(Undo()),
    "confirm": _no_fields(Confirm()),
    "hint": _no_fields(Hint()),
    "settle": _no_fields(SettleGame()),
    "cube": parse_cube_action,
    "calibrate": parse_calibrate,
}

parse_undo = PARSERS["undo"]
