"""The roll's verdict from dice placed on the board (board-frame.md §3, `roll.reasons`)."""

from __future__ import annotations

from collections.abc import Sequence

from nardy_pi.vision.types import DieOnBoard, RerollReason, RollVerdict


def judge_roll(
    dice: Sequence[DieOnBoard], accepted_counts: tuple[int, ...] = (2,)
) -> RollVerdict:
    """Every re-roll condition found. Two dice are in play; a frame showing one of them says
    `missing_die` (board-frame.md). `accepted_counts=(1, 2)` also accepts a lone die, for
    tools that look at one player's opening die at a time."""
    if not dice:
        return RollVerdict(valid=False, reasons=())
    reasons: list[RerollReason] = []
    if any(not d.on_board for d in dice):
        reasons.append("off_board")
    halves = {d.half for d in dice if d.on_board}
    if len(halves) > 1:
        reasons.append("split_halves")
    if any(not d.flat for d in dice):
        reasons.append("cocked")
    if any(d.on_checker for d in dice):
        reasons.append("on_checker")
    if len(dice) < min(accepted_counts):
        reasons.append("missing_die")
    elif len(dice) > max(accepted_counts):
        reasons.append("extra_die")
    return RollVerdict(valid=not reasons, reasons=tuple(reasons))
