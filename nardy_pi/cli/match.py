"""`nardy-pi match replay FILE.mat [--variant NAME] [--json]` (contract: spec/cli.md)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from nardy_pi.cli.errors import CliError

MAX_MAT_BYTES = 16 * 1024 * 1024  # a long session is well under 1 MB


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "match", help="match records: replay and check a .mat file",
        description="Work with whole matches (Jellyfish/gnubg/XG .mat records).",
    )  # fmt: skip
    sub = parser.add_subparsers(dest="match_command", metavar="SUBCOMMAND")
    replay = sub.add_parser(
        "replay",
        help="replay a .mat match with full legality checking",
        description=(
            "Replay every game of a .mat match or money session, checking every move, cube "
            "action, resignation and the Crawford rule; print each game's result and the "
            "final score. The first player named plays white. An illegal move or cube "
            "action exits 1 naming the game and move number."
        ),
    )
    replay.add_argument("file", metavar="FILE.mat", type=Path, help="the match record")
    replay.add_argument(
        "--variant",
        default=None,
        help="variant name (default: the file's Variation header, else backgammon)",
    )
    replay.add_argument("--json", action="store_true", help="print one JSON document")
    replay.set_defaults(func=_replay)
    parser.set_defaults(func=lambda args: _usage(parser))


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2


def _summary(state: Any) -> dict[str, Any]:
    games = [
        {
            "winner": r.winner.label if r.winner is not None else None,
            "points": r.points,
            "result": r.result,
            "cube": r.cube,
        }
        for r in state.results
    ]
    return {
        "match_length": state.match_length,
        "games": games,
        "score": {"white": state.score[0], "black": state.score[1]},
    }


def _replay(args: argparse.Namespace) -> int:
    from nardy_pi.records.mat_replay import MatReplayError, replay_record
    from nardy_pi.records.mat_text import MatFormatError, parse_mat

    if args.file.is_file() and args.file.stat().st_size > MAX_MAT_BYTES:
        raise CliError(f"{args.file}: larger than {MAX_MAT_BYTES // (1024 * 1024)} MB, not a match")
    try:
        text = args.file.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        text = args.file.read_text(encoding="latin-1")
    try:
        record = parse_mat(text)
    except MatFormatError as exc:
        raise CliError(f"{args.file}: {exc}") from None
    try:
        result = replay_record(record, args.variant)
    except MatReplayError as exc:
        raise CliError(str(exc), code=1) from None
    state = result.state
    summary = _summary(state)
    if args.json:
        print(json.dumps(summary))
        return 0
    white, black = state.players
    length = f"{state.match_length}-point match" if state.match_length else "money session"
    print(f"{white} (white) vs {black} (black), {length}, variant {state.variant}")
    for r, game in zip(state.results, summary["games"], strict=True):
        if r.winner is None:
            print(f"game {r.number}: draw")
            continue
        name = white if r.winner.value == 0 else black
        s = "s" if r.points != 1 else ""
        extra = ", Crawford" if r.crawford else ""
        print(f"game {r.number}: {name} ({game['winner']}) wins {r.points} point{s} "
              f"({r.result}, cube {r.cube}{extra})")  # fmt: skip
    print(f"score: {white} {state.score[0]}, {black} {state.score[1]}")
    if state.winner is not None:
        print(f"match won by {white if state.winner.value == 0 else black}")
    return 0
