"""What `nardy-pi run` prints: a banner players can read (the page's address, the PIN, how to
stop), then one short line per game event, never a dump of the whole state.
"""

from __future__ import annotations

import errno
import logging
import socket
from typing import Any

from nardy_pi.app.outputs import CallbackOutput, Output
from nardy_pi.state import State

log = logging.getLogger("nardy_pi.game")
MAX_LINE = 120


class ConsoleFormatter(logging.Formatter):
    """`12:03:04 text` for information; warnings and errors say so."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(message)s", datefmt="%H:%M:%S")

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        if record.levelno >= logging.WARNING:
            stamp, _, rest = text.partition(" ")
            text = f"{stamp} {record.levelname.lower()}: {rest}"
        return text


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback (no packet is sent)."""
    found: list[str] = []
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        infos = []
    for info in infos:
        address = str(info[4][0])
        if not address.startswith("127.") and address not in found:
            found.append(address)
    return found


def page_urls(host: str, port: int) -> list[str]:
    """Where phones find the page: the LAN address(es) and the `.local` name when serving
    on every interface, else the one address served."""
    if host not in ("0.0.0.0", "::", ""):
        return [f"http://{host}:{port}/"]
    urls = [f"http://{a}:{port}/" for a in lan_addresses()]
    urls.append(f"http://{socket.gethostname().split('.')[0]}.local:{port}/")
    return urls or [f"http://localhost:{port}/"]


def banner(source: str, variant: str, urls: list[str], pin: str | None) -> str:
    lines = [f"nardy-pi is refereeing: {variant}, {source}"]
    if urls:
        lines.append(f"Scoreboard:  {urls[0]}")
        lines += [f"         or  {u}" for u in urls[1:]]
        lines.append(f"Control:     {urls[-1]}control   PIN {pin}")
    else:
        lines.append("Web page:    off")
    lines.append("Stop:        Ctrl-C")
    width = max(len(line) for line in lines) + 2
    rule = "-" * width
    return "\n".join([rule, *(f" {line}" for line in lines), rule])


def busy_port_message(exc: OSError, port: int | None) -> str | None:
    """The plain sentence for a port another program holds; None for other errors."""
    if exc.errno not in (errno.EADDRINUSE, errno.EACCES):
        return None
    shown = port if port is not None else "the configured port"
    if exc.errno == errno.EACCES:
        return (f"the web page cannot use port {shown}: ports below 1024 need root; "
                "choose another with --port")
    return (f"the web page cannot use port {shown}: another program (perhaps another "
            "nardy-pi) is already using it; stop that program or choose another with --port")


def _side(state: State, side: str | None) -> str:
    if side not in ("white", "black"):
        return "nobody"
    name = getattr(state, side).name
    return side if name.lower() == side else f"{name} ({side})"


def event_lines(before: State | None, now: State) -> list[str]:
    """Short lines for what changed from `before` to `now`."""
    lines: list[str] = []
    if before is None or before.game_number != now.game_number or (
        before.variant != now.variant or before.match_length != now.match_length
    ):
        target = f"match to {now.match_length}" if now.match_length else "money game"
        lines.append(f"game {now.game_number}: {now.white.name} - {now.black.name}, "
                     f"{target}, score {now.white.score}:{now.black.score}")
    if before is not None and len(now.moves) > len(before.moves):
        for move in now.moves[len(before.moves):]:
            dice = "".join(map(str, move.dice))
            lines.append(f"{_side(now, move.side)} {dice + ': ' if dice else ''}{move.text}")
    elif before is not None and len(now.moves) < len(before.moves) and (
        before.game_number == now.game_number
    ):
        lines.append("undo: the last move was taken back")
    if now.dice and (before is None or before.dice != now.dice or before.turn != now.turn):
        lines.append(f"{_side(now, now.turn)} rolled {'-'.join(map(str, now.dice))}")
    if now.cube_offered and not (before and before.cube_offered):
        lines.append(f"{_side(now, now.turn)} doubles to {now.cube_value * 2}")
    elif before is not None and now.cube_value != before.cube_value:
        lines.append(f"cube now {now.cube_value}, owned by {_side(now, now.cube_owner)}")
    if now.winner and not (before and before.winner):
        lines.append(f"game {now.game_number} over: {_side(now, now.winner)} wins; "
                     f"score {now.white.score}:{now.black.score}")
    seen = {a.code for a in before.alerts} if before else set()
    for alert in now.alerts:
        if alert.code not in seen:
            lines.append(f"{alert.kind.replace('_', ' ')}: {alert.message_en}")
    old = before.devices if before else {}
    for name, status in now.devices.items():
        if old.get(name, "ok" if before is None else None) != status:
            lines.append(f"{name}: {status}")
    return [line if len(line) <= MAX_LINE else line[: MAX_LINE - 1] + "…" for line in lines]


def console_output() -> Output:
    last: dict[str, Any] = {}

    def show(state: State) -> None:
        for line in event_lines(last.get("state"), state):
            log.info("%s", line)
        last["state"] = state

    return CallbackOutput("log", show)
