"""Refuse settings of the wrong plain type: a hand-edited match log or file says
`"cube_limit": "x"`, and it must fail here, naming the field, not later as a TypeError."""

from __future__ import annotations

import math
from dataclasses import fields
from typing import Any


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _number(value: Any) -> bool:
    return (_whole(value) or isinstance(value, float)) and math.isfinite(value)


_CHECKS = {
    "bool": (lambda v: isinstance(v, bool), "true or false"),
    "int": (_whole, "a whole number"),
    "float": (_number, "a number"),
    "float | None": (lambda v: v is None or _number(v), "a number or nothing"),
}


def check_plain_types(obj: Any, what: str) -> None:
    """ValueError for the first bool/int/float field of dataclass `obj` holding another type
    (fields of other types are the class's own business)."""
    for f in fields(obj):
        check = _CHECKS.get(str(f.type))
        value = getattr(obj, f.name)
        if check is not None and not check[0](value):
            raise ValueError(f"{what} {f.name} must be {check[1]}, got {value!r:.40}")
