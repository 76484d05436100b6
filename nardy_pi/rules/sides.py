"""The two sides. White is the bottom (light, uppercase in XGID) player."""

from __future__ import annotations

from enum import IntEnum


class Side(IntEnum):
    WHITE = 0
    BLACK = 1

    @property
    def opponent(self) -> Side:
        return Side.BLACK if self is Side.WHITE else Side.WHITE

    @property
    def sign(self) -> int:
        """+1 for white, -1 for black: the sign of this side's counts in physical `points`."""
        return 1 if self is Side.WHITE else -1

    @property
    def label(self) -> str:
        return "white" if self is Side.WHITE else "black"

    @classmethod
    def parse(cls, text: str) -> Side:
        key = text.strip().lower()
        if key in ("white", "w", "1", "bottom"):
            return cls.WHITE
        if key in ("black", "b", "-1", "top"):
            return cls.BLACK
        raise ValueError(f"unknown side {text!r}: use white or black")
