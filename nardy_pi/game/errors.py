"""Errors of the game engine."""

from __future__ import annotations


class IllegalEventError(ValueError):
    """An event the match refuses; the match state is unchanged. The message is the reason."""
