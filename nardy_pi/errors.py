"""The one root error type of nardy-pi and the refusals under it.

Every refusal a user can see carries a message key and JSON-safe parameters, so each output
(web page, console, club page) can say it in its own language; `str()` is the English text
from `nardy_pi.messages_en`. Code that raises with a plain English sentence instead of a
key still works: the sentence becomes the `detail` of the class's generic key.
"""

from __future__ import annotations

from typing import Any

from nardy_pi.messages_en import MESSAGES, render


class NardyError(Exception):
    """Root of every error nardy-pi reports to a person (never a traceback)."""

    #: the key used when the error is raised with a plain sentence rather than a key
    generic_key = "error.other"

    def __init__(self, key: str, /, **params: Any) -> None:
        if key not in MESSAGES:  # a plain sentence: keep it as the detail of a generic key
            params = {"detail": key, **params}
            key = self.generic_key
        self.key = key
        self.params = {name: _json_safe(value) for name, value in params.items()}
        super().__init__(render(key, self.params))

    def to_json(self) -> dict[str, Any]:
        return {"error": str(self), "key": self.key, "params": dict(self.params)}


def _json_safe(value: Any) -> Any:
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, list | tuple):
        return [_json_safe(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _json_safe(v) for k, v in value.items()}
    label = getattr(value, "label", None)  # Side
    return label if isinstance(label, str) else str(value)


class IllegalEventError(NardyError, ValueError):
    """An event the match engine refuses; the match state is unchanged."""

    generic_key = "refusal.illegal_event"


class CommandError(NardyError, ValueError):
    """A command that cannot be understood (a bad field); nothing changed."""

    generic_key = "command.bad_request"


class CommandRefused(NardyError):
    """A command that is understood but cannot be carried out now; nothing changed."""

    generic_key = "refusal.other"


class EngineUnavailable(CommandRefused):
    """An action needs an evaluation engine (gnubg) and none is installed."""

    generic_key = "refusal.no_engine"
