"""`nardy-pi moves`: list every legal play for a position and roll (spec/cli.md).

Ladders of doubles can have hundreds of thousands of plays: past `--max-plays` (default
100,000) the list is refused with a one-line message instead of minutes of work. In
`--batch` every line is answered on its own: a hostile line (deep nesting, a 5,000-digit
number, wrong types, a too-big ladder) gets its own `{"error": ...}` and the rest go on.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from typing import Any, TextIO

from nardy_pi.cli.errors import CliError
from nardy_pi.rules.errors import RulesError, TooManyPlaysError
from nardy_pi.rules.movegen import legal_plays, parse_dice
from nardy_pi.rules.notation.xgid import format_board, format_short, format_xgid, parse_xgid
from nardy_pi.rules.notation.xgid import parse_position as parse_position_text
from nardy_pi.rules.play import Play
from nardy_pi.rules.position import Position
from nardy_pi.rules.variants import VARIANTS, get_variant
from nardy_pi.validation import parse_json

DEFAULT_MAX_PLAYS = 100_000
MAX_LINE = 4096  # characters of one batch line; a position and a roll need under 100


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "moves",
        help="list every legal play for a position and roll",
        description=(
            "List every legal play for the side to move, one per line: the play in gnubg "
            "notation, then the resulting position (same form as the input, turn passed on). "
            "A roll with no legal play prints nothing (a legal pass)."
        ),
        epilog=(
            "examples:\n"
            "  nardy-pi moves XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10 65\n"
            "  nardy-pi moves --variant long ------------o-----------O-:1 63\n"
            '  echo \'{"position": "XGID=...", "dice": [6, 5]}\' | nardy-pi moves --batch'
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--variant",
        default="backgammon",
        help=f"rules to apply: {', '.join(VARIANTS)} (default: backgammon)",
    )
    p.add_argument("position", nargs="?", help="XGID, or board field and turn (BOARD:1 / BOARD:-1)")
    p.add_argument("dice", nargs="?", help="the roll, e.g. 65 (default: the dice in the XGID)")
    p.add_argument("--json", action="store_true", help="print one JSON document")
    p.add_argument(
        "--max-plays",
        type=int,
        default=DEFAULT_MAX_PLAYS,
        metavar="N",
        help=f"refuse to list more than N plays (default {DEFAULT_MAX_PLAYS}; 0 = no limit)",
    )
    p.add_argument(
        "--batch",
        action="store_true",
        help="read JSON lines from stdin, write one JSON line per input line",
    )
    p.set_defaults(func=run)


def _plays_for(
    variant: str, text: str, dice: Any, limit: int | None = DEFAULT_MAX_PLAYS
) -> tuple[Position, list[Play]]:
    v = get_variant(variant)
    position, xgid_dice = parse_position_text(text, v)
    if dice is None:
        if xgid_dice is None:
            raise ValueError("no dice: give DICE (like 65) or an XGID whose dice are rolled")
        dice = xgid_dice
    try:
        return position, legal_plays(position, parse_dice(dice), v, limit=limit or None)
    except TooManyPlaysError as exc:
        raise ValueError(f"{exc} (raise --max-plays, 0 = no limit)") from None


def _result_text(text: str, variant: str, play: Play) -> str:
    """The resulting position in the input's own form: a full XGID or `board:T`."""
    if text.count(":") == 1:
        return format_short(play.result)
    record = parse_xgid(text, variant)
    return format_xgid(dataclasses.replace(record, position=play.result, dice=None))


def run(args: argparse.Namespace) -> int:
    if args.batch:
        if args.position or args.dice:
            raise CliError("--batch reads positions from stdin; give no POSITION or DICE")
        return run_batch(sys.stdin, sys.stdout, args.max_plays)
    if not args.position:
        raise CliError("give a POSITION (XGID or BOARD:T), or use --batch")
    if args.max_plays < 0:
        raise CliError("--max-plays must be 0 (no limit) or more")
    _, plays = _plays_for(args.variant, args.position, args.dice, args.max_plays)
    if args.json:
        out = [
            {
                "move": play.plain_notation,
                "board": format_board(play.result),
                "position": _result_text(args.position, args.variant, play),
            }
            for play in plays
        ]
        print(json.dumps({"plays": out}))
        return 0
    width = max((len(p.plain_notation) for p in plays), default=0)
    for play in plays:
        print(f"{play.plain_notation:<{width}}  {_result_text(args.position, args.variant, play)}")
    return 0


def _batch_line(line: str, limit: int | None = DEFAULT_MAX_PLAYS) -> dict[str, Any]:
    if len(line) > MAX_LINE:
        return {"error": f"line longer than {MAX_LINE} characters"}
    try:
        request = parse_json(line)
    except json.JSONDecodeError as exc:
        return {"error": f"not JSON: {exc.msg} at column {exc.colno}"}
    except ValueError as exc:  # too deep, a number too long, NaN
        return {"error": f"not accepted: {exc}"}
    if not isinstance(request, dict):
        return {"error": "each line must be a JSON object"}
    unknown = sorted(str(k)[:30] for k in set(request) - {"variant", "position", "dice"})
    if unknown:
        return {"error": f"unknown key(s): {', '.join(unknown[:5])}"}
    variant = request.get("variant", "backgammon")
    position = request.get("position")
    if not isinstance(variant, str):
        return {"error": "variant must be a string"}
    if not isinstance(position, str):
        return {"error": "position must be a string (XGID or BOARD:T)"}
    dice = request.get("dice")
    if dice is not None and not isinstance(dice, list | str):
        return {"error": "dice must be a list like [6, 5]"}
    try:
        _, plays = _plays_for(variant, position, dice, limit)
    except (ValueError, RulesError) as exc:
        return {"error": str(exc)[:300]}
    return {"plays": [{"move": p.plain_notation, "board": format_board(p.result)} for p in plays]}


def run_batch(stdin: TextIO, stdout: TextIO, limit: int | None = DEFAULT_MAX_PLAYS) -> int:
    """One JSON line out per line in; a bad line gets `{"error": ...}` and the batch goes on."""
    for line in stdin:
        if not line.strip():
            result: dict[str, Any] = {"error": "empty line"}
        else:
            try:
                result = _batch_line(line, limit)
            except Exception as exc:  # one line's fault must never end the batch
                result = {"error": f"cannot answer this line ({type(exc).__name__})"}
        stdout.write(json.dumps(result, ensure_ascii=False) + "\n")
        stdout.flush()
    return 0
