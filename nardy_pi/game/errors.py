"""Errors of the game engine (the one refusal type lives in `nardy_pi.errors`)."""

from __future__ import annotations

from nardy_pi.errors import IllegalEventError

__all__ = ["IllegalEventError"]
