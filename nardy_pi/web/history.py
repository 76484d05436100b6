"""Finished matches for the history page: the `History` seam (summaries come from the store)."""

from __future__ import annotations

from typing import Protocol

from nardy_pi.store.history import MatchSummary

__all__ = ["History", "MatchSummary"]


class History(Protocol):
    def finished_matches(self) -> list[MatchSummary]:
        """Newest first."""
        ...

    def mat_text(self, match_id: str) -> str:
        """The .mat text of one finished match; KeyError when there is no such match."""
        ...
