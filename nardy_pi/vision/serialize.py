"""Observation -> the `analyze --json` object (board-frame.md §3)."""

from __future__ import annotations

from nardy_pi.vision.types import Observation


def observation_json(obs: Observation) -> dict:
    data = {
        "points": list(obs.points),
        "bar": {"white": obs.bar_white, "black": obs.bar_black},
        "off": {"white": obs.off_white, "black": obs.off_black},
        "dice": [
            {"value": d.value, "center": [round(d.center[0], 1), round(d.center[1], 1)],
             "flat": d.flat, "on_board": d.on_board, "half": d.half, "on_checker": d.on_checker}
            for d in obs.dice
        ],
        "cube": None if obs.cube is None else {"value": obs.cube.value,
                                               "position": obs.cube.position},
        "roll": {"valid": obs.roll.valid, "reasons": list(obs.roll.reasons)},
        "occluded": obs.occluded,
    }
    if obs.confidence is not None:  # the optional fields of board-frame.md §4
        data["confidence"] = round(obs.confidence, 4)
        data["point_confidence"] = [round(c, 4) for c in obs.point_confidence or ()]
    return data
