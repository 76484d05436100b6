"""English texts of every message key a refusal can carry (`nardy_pi.errors.NardyError`).

One table, keyed by dotted names; the page keeps its Russian table keyed identically
(`nardy_pi.web.i18n`). Parameters are filled with `str.format`; a missing one shows as
`{name}` rather than failing, since a message must never crash the program reporting it.
"""

from __future__ import annotations

from typing import Any

MESSAGES: dict[str, str] = {
    # generic carriers for errors raised with a plain sentence
    "error.other": "{detail}",
    "refusal.other": "{detail}",
    "refusal.illegal_event": "{detail}",
    "command.bad_request": "{detail}",
    # the match engine: turns and phases
    "refusal.match_over": "the match is over",
    "refusal.wrong_phase": "not now: the game is in phase {phase}, not {wanted}",
    "refusal.wrong_turn": "it is {turn}'s turn, not {side}'s",
    "refusal.illegal_move": "illegal move{shown}: {reason}",
    "refusal.bad_position": "the corrected position cannot be: {problems}",
    "refusal.not_started": "a match log must begin with match_started",
    # the cube
    "refusal.cube_unused": "the cube is not used in this match",
    "refusal.double_pending": "a double is already on offer",
    "refusal.crawford": "no doubling in the Crawford game",
    "refusal.holland": (
        "Holland rule: the trailer may double only after both sides have played two rolls"
    ),
    "refusal.cube_owned": "{owner} owns the cube",
    "refusal.cube_limit": "the cube is at its limit of {limit}",
    "refusal.nothing_to_take": "there is no double to take",
    "refusal.nothing_to_pass": "there is no double to pass",
    "refusal.nothing_to_double": "{side} cannot double now: doubling comes before the roll",
    "refusal.own_double": "{side} cannot answer their own double",
    "refusal.no_animals_in_match": "no {kind}s in match play",
    "refusal.animal_not_allowed": "{kind}s are not allowed by the match settings",
    "refusal.animal_not_pending": "a {kind} answers a {previous}, and none is pending",
    # the program around the match
    "refusal.nothing_to_undo": "nothing to undo",
    "refusal.hint_needs_roll": "a hint needs a roll to play",
    "refusal.no_engine": (
        "this needs an evaluation engine: install GNU Backgammon (apt install gnubg) or "
        "the [engine] extra"
    ),
    "refusal.engine_failed": "the evaluation engine failed: {detail}",
    "refusal.no_game_to_settle": "there is no game in progress to settle",
    "refusal.settle_variant": "the engine evaluates backgammon-family games only, not {variant}",
    "refusal.loop_not_running": "the referee is not running",
    "refusal.busy": "the referee is busy; try again",
    "refusal.not_handled": "{command} is not handled while refereeing",
    "refusal.no_frame": "no camera frame is available",
    # commands that cannot be understood
    "command.not_object": "the request body must be a JSON object",
    "command.unknown_fields": "unknown field(s): {fields}",
    "command.not_integer": "{field} must be a whole number",
    "command.out_of_range": "{field} must be between {low} and {high}, got {value}",
    "command.not_text": "{field} must be a non-empty text",
    "command.too_long": "{field} is longer than {limit} characters",
    "command.not_bool": "{field} must be true or false",
    "command.not_choice": "{field} must be one of {choices}",
    "command.bad_field": "{field}: {detail}",
    "command.unknown_variant": "unknown variant {variant!r}; known: {known}",
    "command.jacoby_money_only": "the Jacoby rule applies to money play only (match_length 0)",
    "command.bad_board": "board must be the 26-character XGID board field: {detail}",
    "command.bad_corner": "corner {index} must be a pair of numbers [x, y]",
    "command.corner_outside": "corner {index} is outside the camera frame",
    "command.four_corners": (
        "corners must list 4 points: top_left, top_right, bottom_right, bottom_left"
    ),
    "command.unknown_action": "unknown control action {action!r}",
}


class _Keep(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def render(key: str, params: dict[str, Any]) -> str:
    """The English text of `key` with `params` filled in."""
    template = MESSAGES.get(key, key)
    try:
        return template.format_map(_Keep(params))
    except (ValueError, IndexError, KeyError, AttributeError):
        return template
