"""Whole-frame per-pixel work done a band of rows at a time.

A 960x720 frame's float64 noise alone is 17 MB, and `nardy-pi run` renders one such frame
per observation on the demo table: in bands, the temporaries stay small. A generator's draws
come out the same whether taken at once or band by band, so the pictures do not change.
"""

from __future__ import annotations

from collections.abc import Iterator

BAND_ROWS = 64


def row_bands(height: int, rows: int = BAND_ROWS) -> Iterator[slice]:
    for y0 in range(0, height, rows):
        yield slice(y0, min(y0 + rows, height))
