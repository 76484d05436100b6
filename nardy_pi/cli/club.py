"""`nardy-pi club`: the tournament page of every board publishing to one MQTT broker."""

from __future__ import annotations

import argparse
import logging
import signal
import sys
import threading
from typing import Any

DEFAULT_PORT = 8090


def add_parser(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "club",
        help="serve the tournament page of every board on a club's MQTT broker",
        description=(
            "Subscribe to the boards under nardy/boards/ on an MQTT broker and serve a page "
            "showing every table live, and /api/boards (spec/club.md)."
        ),
    )
    p.add_argument("--broker", required=True, metavar="URL",
                   help="mqtt://[user:password@]host[:port], or mqtts:// for TLS "
                        "(?ca=FILE for a private certificate authority)")
    p.add_argument("--port", type=int, default=DEFAULT_PORT,
                   help=f"page port (default {DEFAULT_PORT}; 0 = any free port)")
    p.add_argument("--host", default="0.0.0.0", help="address to serve on (default 0.0.0.0)")
    p.add_argument("--duration", type=float, metavar="SECONDS",
                   help="stop after this many seconds (for tests and benchmarks)")
    p.add_argument("--quiet", action="store_true", help="log warnings only")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from nardy_pi.club.boards import BoardTable
    from nardy_pi.club.broker_url import parse_broker_url
    from nardy_pi.club.subscriber import ClubSubscriber
    from nardy_pi.club.web import create_club_app
    from nardy_pi.web.server import WebServer

    url = parse_broker_url(args.broker)
    if not 0 <= args.port <= 65535:
        raise ValueError("--port must be 0-65535 (0 = any free port)")
    if args.duration is not None and args.duration <= 0:
        raise ValueError("--duration must be a positive number of seconds")
    logging.basicConfig(
        level=logging.WARNING if args.quiet else logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    table = BoardTable()
    subscriber = ClubSubscriber(url, table)
    server = WebServer(create_club_app(table, lambda: subscriber.link), table,  # type: ignore[arg-type]
                       args.host, args.port)
    stop = threading.Event()
    previous = signal.signal(signal.SIGTERM, lambda *_: stop.set())
    subscriber.start()
    server.start()
    shown = "localhost" if server.host in ("0.0.0.0", "::") else server.host
    print(f"nardy-pi: club page http://{shown}:{server.port}/ for broker {url}",
          file=sys.stderr)
    try:
        stop.wait(args.duration)
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        server.stop()
        subscriber.stop()
    _, entries = table.snapshot()
    online = sum(e.status == "online" for e in entries)
    print(f"nardy-pi: club saw {len(entries)} tables ({online} online), "
          f"{subscriber.received} messages, {table.ignored} ignored", file=sys.stderr)
    return 0
