"""`nardy-pi` entry point: builds the argument parser from the command modules.

Each command module exposes `add_parser(subparsers)`; heavy imports (OpenCV, Flask) happen
inside the command handlers so `nardy-pi moves` starts fast.
"""

from __future__ import annotations

import argparse
import importlib
import re
import sys
from collections.abc import Sequence

from nardy_pi import __version__
from nardy_pi.cli.errors import CliError

# Command modules, in the order `--help` lists them. A module missing here is simply absent.
_COMMAND_MODULES = (
    "nardy_pi.cli.moves",
    "nardy_pi.cli.match",
    "nardy_pi.cli.vision",
    "nardy_pi.cli.dice",
    "nardy_pi.cli.run",
    "nardy_pi.cli.club",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="nardy-pi",
        description="Referee, scoreboard and tools for nardy (short and long) and backgammon.",
    )
    parser.add_argument("--version", action="version", version=f"nardy-pi {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in _COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:
                continue
            raise
        module.add_parser(sub)
    return parser


# A board field may start with '-' (e.g. the long-nardy start `------------o-----------O-:1`),
# which argparse would take for an option. A leading space keeps it an argument; every
# position parser strips surrounding whitespace.
_BOARD_ARG = re.compile(r"^-[-A-Pa-p]{25}(:.*)?$")


def protect_board_arguments(argv: Sequence[str]) -> list[str]:
    return [" " + arg if _BOARD_ARG.match(arg) else arg for arg in argv]


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(protect_board_arguments(sys.argv[1:] if argv is None else argv))
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except BrokenPipeError:
        # The reader went away (`nardy-pi moves ... | head`): not an error worth a message.
        sys.stderr.close()
        return 0
    except CliError as exc:
        print(f"nardy-pi: {exc}", file=sys.stderr)
        return exc.code
    except OSError as exc:
        # "/x.mat: No such file or directory" reads better than "[Errno 2] ...".
        text = f"{exc.filename}: {exc.strerror}" if exc.filename and exc.strerror else str(exc)
        print(f"nardy-pi: {text}", file=sys.stderr)
        return 2
    except ValueError as exc:
        print(f"nardy-pi: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
