"""What the page receives for one snapshot: the State as JSON plus what is derived from it.

The board SVG and the dice names are computed here once per snapshot and shared by every
open page (`SnapshotEncoder` caches the encoded bytes), so fifty phones cost one render.
"""

from __future__ import annotations

import json
import threading
from typing import Any

from nardy_pi.rules.errors import UnknownVariantError
from nardy_pi.rules.variants import get_variant
from nardy_pi.state import State
from nardy_pi.web.board_svg import cube_face, render_board, render_dice_row
from nardy_pi.web.dice_fairness import fairness, match_summary, rolls_of_moves
from nardy_pi.web.dice_names import dice_name
from nardy_pi.web.move_text import move_rows, physical_move


def variant_titles(name: str) -> dict[str, str]:
    try:
        v = get_variant(name)
    except UnknownVariantError:
        return {"en": name, "ru": name}
    return {"en": v.title_en, "ru": v.title_ru}


def _forced(state: State) -> dict[str, str] | None:
    """The only legal play of the roll, in the board's numbering, when there is one."""
    text = getattr(state, "forced_play", "")
    if not text or state.turn is None or text == "(forced)":
        return None
    return physical_move(text, state.turn, state.variant)


def build_payload(state: State) -> dict[str, Any]:
    return {
        "state": state.to_json(),
        "board_svg": render_board(state),
        "dice_svg": render_dice_row(state.dice, state.turn),
        "dice_names": {str(t): dice_name(state.dice, t) for t in (1, 2)},
        "variant_title": variant_titles(state.variant),
        "cube_face": cube_face(state),
        "move_rows": move_rows(state.moves, state.variant),
        "forced_play": _forced(state),
        "dice_fairness": match_summary(getattr(state, "dice_stats", {}))
        or fairness(rolls_of_moves(state.moves)),
    }


class SnapshotEncoder:
    """Encodes the payload of the newest snapshot once; thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._state: State | None = None
        self._encoded = b""

    def encode(self, state: State) -> bytes:
        with self._lock:
            if state is not self._state:
                text = json.dumps(build_payload(state), ensure_ascii=False, separators=(",", ":"))
                self._encoded = text.encode("utf-8")
                self._state = state
            return self._encoded
