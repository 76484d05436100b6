"""Board names and the MQTT topics they live under (spec/club.md).

A name is 1-32 characters of `[A-Za-z0-9_-]`: it is safe in a topic level, a URL and a page
without escaping, and it cannot contain the MQTT wildcards `+` and `#`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

PREFIX = "nardy/boards"
BOARD_NAME = re.compile(r"[A-Za-z0-9_-]{1,32}")
TopicKind = Literal["state", "status"]


def valid_board_name(name: str) -> bool:
    return BOARD_NAME.fullmatch(name) is not None


def check_board_name(name: str) -> str:
    """`name` itself, or ValueError saying what a board name may be."""
    if not valid_board_name(name):
        raise ValueError(
            f"board name {name!r} is not 1-32 characters of letters, digits, '_' or '-'"
        )
    return name


def state_topic(name: str) -> str:
    return f"{PREFIX}/{check_board_name(name)}/state"


def status_topic(name: str) -> str:
    return f"{PREFIX}/{check_board_name(name)}/status"


@dataclass(frozen=True, slots=True)
class BoardTopic:
    board: str
    kind: TopicKind


def parse_topic(topic: str) -> BoardTopic | str:
    """The board and kind of a topic under `nardy/boards/`, or the reason it is not one."""
    head = PREFIX + "/"
    if not topic.startswith(head):
        return f"topic {topic!r} is outside {PREFIX}/"
    parts = topic[len(head):].split("/")
    if len(parts) != 2 or parts[1] not in ("state", "status"):
        return f"topic {topic!r} is not {PREFIX}/NAME/state or /status"
    if not valid_board_name(parts[0]):
        return f"board name {parts[0][:40]!r} is not 1-32 characters of [A-Za-z0-9_-]"
    kind: TopicKind = "state" if parts[1] == "state" else "status"
    return BoardTopic(parts[0], kind)
