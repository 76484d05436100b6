"""`nardy-pi` entry point: builds the argument parser from the command modules.

Each command module exposes `add_parser(subparsers)`; heavy imports (OpenCV, Flask) happen
inside the command handlers so `nardy-pi moves` starts fast. A command line that names its
command builds only that command's parser: `analyze` never imports the rules engine or the
referee's event loop.
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
# The commands each module adds, so that a command line loads only its own module.
_MODULE_OF = {
    "moves": "nardy_pi.cli.moves",
    "match": "nardy_pi.cli.match",
    "calibrate": "nardy_pi.cli.vision",
    "analyze": "nardy_pi.cli.vision",
    "dice": "nardy_pi.cli.dice",
    "run": "nardy_pi.cli.run",
    "club": "nardy_pi.cli.club",
}


def build_parser(modules: Sequence[str] = _COMMAND_MODULES) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="nardy-pi",
        description="Referee, scoreboard and tools for nardy (short and long) and backgammon.",
    )
    parser.add_argument("--version", action="version", version=f"nardy-pi {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in modules:
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


def _modules_for(argv: Sequence[str]) -> Sequence[str]:
    """Only the named command's module when the first word is a known command, else all
    (`--help`, a misspelt command: argparse lists every command)."""
    first = next((a for a in argv if not a.startswith("-")), None)
    module = _MODULE_OF.get(first or "")
    return (module,) if module in _COMMAND_MODULES else _COMMAND_MODULES


def main(argv: Sequence[str] | None = None) -> int:
    words = protect_board_arguments(sys.argv[1:] if argv is None else argv)
    parser = build_parser(_modules_for(words))
    args = parser.parse_args(words)
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
