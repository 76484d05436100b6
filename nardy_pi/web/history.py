"""Finished matches for the history page: the `History` seam and its summary value."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True, slots=True)
class MatchSummary:
    match_id: str  # letters, digits, '-' and '_' only: it is part of a download URL
    white_name: str
    black_name: str
    white_score: int
    black_score: int
    match_length: int  # 0 = money session
    variant: str
    finished_at: str  # ISO 8601, UTC


class History(Protocol):
    def finished_matches(self) -> list[MatchSummary]:
        """Newest first."""
        ...

    def mat_text(self, match_id: str) -> str:
        """The .mat text of one finished match; KeyError when there is no such match."""
        ...
