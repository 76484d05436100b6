"""`nardy-pi run`: referee a game at the board (or the demo table when no camera is set)."""

from __future__ import annotations

import argparse
import asyncio
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
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from nardy_pi.app.wiring import build
    from nardy_pi.config import load_config

    if args.duration is not None and args.duration <= 0:
        raise ValueError("--duration must be a positive number of seconds")
    if args.port is not None and not 0 <= args.port <= 65535:
        raise ValueError("--port must be 0-65535 (0 = any free port)")
    logging.basicConfig(
        level=logging.WARNING if args.quiet else logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    config = load_config(args.config)
    starter = None
    if not args.no_web and config.web.enabled:
        from nardy_pi.web.serve import start_web

        starter = start_web
    running = build(config, web=starter, host=args.host, port=args.port)
    source = "demo table (synthetic board)" if running.demo else config.camera.source
    print(f"nardy-pi: source {source}, variant {running.loop.session.state.variant}, "
          f"evaluation engine {running.loop.engine_name}", file=sys.stderr)
    if running.web_url:
        print(f"nardy-pi: web page {running.web_url} (control PIN {running.pin})",
              file=sys.stderr)
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
    print(
        f"nardy-pi: {stats.frames} frames ({stats.frames / elapsed:.1f}/s), "
        f"{stats.events} referee events, devices {loop.devices()}",
        file=sys.stderr,
    )
    return 0
