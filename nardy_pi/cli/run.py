"""`nardy-pi run`: referee a game at the board (or the demo table when no camera is set)."""

from __future__ import annotations

import argparse
import logging
import signal
import sys
from typing import Any


def add_parser(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "run",
        help="referee a live game: camera, LEDs, buttons and the web page",
        description=(
            "Run the referee: frames from the camera (or, with no camera configured, the demo "
            "table that plays whole games by itself) through vision and the referee to the web "
            "page, the GPIO LEDs and the point strip."
        ),
    )
    p.add_argument("--config", metavar="FILE", help="TOML configuration (defaults otherwise)")
    p.add_argument("--port", type=int,
                   help="web page port (default from config: 8080; 0 = any free port)")
    p.add_argument("--host", help="address to serve the web page on (default 0.0.0.0)")
    p.add_argument("--no-web", action="store_true", help="do not serve the web page")
    p.add_argument("--duration", type=float, metavar="SECONDS",
                   help="stop after this many seconds (for tests and benchmarks)")
    p.add_argument("--quiet", action="store_true", help="log warnings only")
    p.add_argument("--broker", metavar="URL",
                   help="publish to the club's MQTT broker: mqtt://[user:password@]host[:port] "
                        "or mqtts:// (overrides [club] broker)")
    p.add_argument("--board", metavar="NAME",
                   help="this table's name on the tournament page (overrides [club] board)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import asyncio

    from nardy_pi.app.console import ConsoleFormatter, banner
    from nardy_pi.app.wiring import build
    from nardy_pi.config import load_config

    if args.duration is not None and args.duration <= 0:
        raise ValueError("--duration must be a positive number of seconds")
    if args.port is not None and not 0 <= args.port <= 65535:
        raise ValueError("--port must be 0-65535 (0 = any free port)")
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(ConsoleFormatter())
    logging.basicConfig(level=logging.WARNING if args.quiet else logging.INFO,
                        handlers=[handler])
    logging.getLogger("nardy_pi.web.server").setLevel(logging.WARNING)  # the banner says it
    config = _with_club(load_config(args.config), args.broker, args.board)
    starter = None
    if not args.no_web and config.web.enabled:
        from nardy_pi.web.serve import start_web

        starter = start_web
    running = build(config, web=starter, host=args.host, port=args.port)
    if config.club.broker:
        from nardy_pi.club.broker_url import parse_broker_url

        print(f"nardy-pi: publishing board {config.club.board} to "
              f"{parse_broker_url(config.club.broker)}", file=sys.stderr)
    source = "demo table (synthetic board)" if running.demo else f"camera {config.camera.source}"
    source += f", evaluation engine {running.loop.engine_name}"
    print(banner(source, running.loop.session.state.variant, running.web_urls, running.pin),
          file=sys.stderr, flush=True)
    loop = running.loop

    def on_signal(signum: int, _frame: object) -> None:
        loop.stop()

    previous = signal.signal(signal.SIGTERM, on_signal)
    try:
        stats = asyncio.run(loop.run(args.duration))
    finally:
        signal.signal(signal.SIGTERM, previous)
        running.close()
    elapsed = max(1e-9, __import__("time").monotonic() - stats.started)
    devices = ", ".join(f"{name} {status}" for name, status in loop.devices().items())
    learned = (f", the reader learned the board from {stats.learned_frames} plays"
               if stats.learned_frames else "")
    print(
        f"nardy-pi: stopped after {stats.frames} frames ({stats.frames / elapsed:.1f}/s), "
        f"{stats.events} referee events{learned}; devices: {devices}",
        file=sys.stderr,
    )
    return 0


def _with_club(config: Any, broker: str | None, board: str | None) -> Any:
    """`--broker` / `--board` over the configuration's `[club]`, checked the same way."""
    from dataclasses import replace

    from nardy_pi.config import check_club

    if broker is None and board is None:
        return config
    club = replace(config.club, broker=config.club.broker if broker is None else broker,
                   board=config.club.board if board is None else board)
    check_club(club)
    return replace(config, club=club)
