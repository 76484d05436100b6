"""Is a die lying flat? Told from how its top-face pips are foreshortened.

A circle on a horizontal face is flattened only along the image's vertical (toward the
camera), by the same amount for every flat die in one frame. A cocked die's top face tilts:
its pips flatten along a slanted axis, or much more than the other dice's top pips.
"""

from __future__ import annotations

import numpy as np

from nardy_pi.vision.dice_pips import Pip

_SLANTED_DEG = 30.0  # minor axis this far from vertical: the face is tilted sideways
_SLANT_NEEDS_FLATTENING = 0.7  # round pips have no meaningful axis
_RELATIVE_FLATTENING = 0.65  # top pips this much flatter than the frame's roundest: tilted
_MIN_PIP_AREA_FOR_SHAPE = 8  # smaller pips are too pixelated for a reliable roundness


def top_roundness(top: list[Pip]) -> float | None:
    """How round the top face looks (1 = seen square-on), None when it cannot be measured.

    Four and five pips sit in a square, so the spread of their centres measures the face's
    foreshortening directly; other faces fall back on the median roundness of their pips.
    """
    if len(top) in (4, 5):
        centres = np.array([(p.x, p.y) for p in top])
        spread = np.linalg.eigvalsh(np.cov(centres.T))
        return float(np.sqrt(max(spread[0], 0.0) / max(spread[1], 1e-9)))
    usable = [p.roundness for p in top if p.area >= _MIN_PIP_AREA_FOR_SHAPE]
    return float(np.median(usable)) if usable else None


def slanted(top: list[Pip]) -> bool:
    """True when most top-face pips are flattened along a slanted axis."""
    tilted = [
        p
        for p in top
        if p.roundness < _SLANT_NEEDS_FLATTENING
        and _degrees_from_vertical(p.minor_angle) > _SLANTED_DEG
    ]
    return len(tilted) * 2 > len(top)


def flatter_than_others(roundness: list[float | None]) -> list[bool]:
    """Per die: are its top pips much flatter than the roundest die's in the same frame?"""
    known = [r for r in roundness if r is not None]
    if len(known) < 2:
        return [False] * len(roundness)
    reference = max(known)
    return [r is not None and r < _RELATIVE_FLATTENING * reference for r in roundness]


def _degrees_from_vertical(angle_deg: float) -> float:
    return abs((angle_deg % 180.0) - 90.0)
