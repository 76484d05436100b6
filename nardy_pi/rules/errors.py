"""Exceptions of the rules core. All are ValueErrors carrying a human-readable reason."""

from __future__ import annotations


class RulesError(ValueError):
    """Base class: something violates the rules or cannot be a position."""


class InvalidPositionError(RulesError):
    """A position that cannot exist (wrong checker counts, both colours on a point, ...)."""


class IllegalPlayError(RulesError):
    """A play that is not legal for the position and roll."""


class UnknownVariantError(RulesError):
    """A variant name we do not know."""


class TooManyPlaysError(RulesError):
    """Listing every play would exceed the caller's limit (ladders of doubles can have
    hundreds of thousands); the caller asks a narrower question instead."""

    def __init__(self, limit: int) -> None:
        super().__init__(
            f"more than {limit} distinct plays for this position and roll (a ladder of "
            f"doubles); the list was not built"
        )
        self.limit = limit
