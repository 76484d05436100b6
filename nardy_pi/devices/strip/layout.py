"""What the point LEDs show for a snapshot: one LED per physical point, then the bar and
bear-off LEDs of each colour (the order wired in hardware/WIRING.md).

- the points of the last play glow in the mover's colour;
- hint points (where a lifted checker may go, or the best play) glow green, sources blue;
- an illegal move or desync turns the bar LEDs red, a void throw amber;
- the bear-off LED of the side to move is lit.
"""

from __future__ import annotations

from nardy_pi.devices.strip.protocol import Color
from nardy_pi.state import State

LED_COUNT = 28
BAR_WHITE, BAR_BLACK, OFF_WHITE, OFF_BLACK = 24, 25, 26, 27

OFF: Color = (0, 0, 0)
WHITE_MOVE: Color = (90, 90, 70)
BLACK_MOVE: Color = (120, 40, 0)
HINT: Color = (0, 160, 0)
HINT_SOURCE: Color = (0, 40, 160)
ALARM: Color = (255, 0, 0)
REROLL: Color = (255, 110, 0)
TURN: Color = (60, 60, 60)


def led_for(point: int, white: bool) -> int:
    """Physical point 1-24 -> LED 0-23; 25 = that side's bar LED, 0 = its bear-off LED."""
    if point == 25:
        return BAR_WHITE if white else BAR_BLACK
    if point == 0:
        return OFF_WHITE if white else OFF_BLACK
    return point - 1


def strip_colors(
    state: State,
    hint_points: tuple[int, ...] = (),
    hint_sources: tuple[int, ...] = (),
    leds: int = LED_COUNT,
) -> list[Color]:
    colors = [OFF] * LED_COUNT
    white_to_move = state.turn == "white"
    if state.last_move is not None:
        mover_white = state.last_move.side == "white"
        for p in state.last_move_points:
            if 1 <= p <= 24:
                colors[p - 1] = WHITE_MOVE if mover_white else BLACK_MOVE
    for p in hint_sources:
        colors[led_for(p, white_to_move)] = HINT_SOURCE
    for p in hint_points:
        colors[led_for(p, white_to_move)] = HINT
    kinds = {a.kind for a in state.alerts}
    if kinds & {"illegal_move", "desync"}:
        colors[BAR_WHITE] = colors[BAR_BLACK] = ALARM
    elif "reroll" in kinds:
        colors[BAR_WHITE] = colors[BAR_BLACK] = REROLL
    if state.turn is not None and state.winner is None:
        colors[OFF_WHITE if white_to_move else OFF_BLACK] = TURN
    if leds <= LED_COUNT:
        return colors[:leds]
    return colors + [OFF] * (leds - LED_COUNT)
