"""`nardy-pi dice IMAGE [--json]`: find dice anywhere in an image (board-frame.md §3)."""

from __future__ import annotations

import argparse
import json

from nardy_pi.vision.types import DieReading


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "dice",
        help="find dice in an image and read their top faces",
        description="Find dice anywhere in an image, no calibration needed, and read each top "
        "face. A die whose top face cannot be read (e.g. cocked) has no value.",
    )
    parser.add_argument("image", metavar="IMAGE", help="a photo or frame (PNG, JPEG, ...)")
    parser.add_argument(
        "--json",
        action="store_true",
        help='print {"dice": [{"value", "center", "box", "flat"}, ...]}',
    )
    parser.set_defaults(func=run_dice)


def run_dice(args: argparse.Namespace) -> int:
    # OpenCV is imported only here, so other commands start fast.
    from nardy_pi.vision.dice import find_dice
    from nardy_pi.vision.imageio import load_image

    dice = find_dice(load_image(args.image))
    if args.json:
        print(json.dumps({"dice": [die_json(d) for d in dice]}))
    else:
        print(describe(dice))
    return 0


def die_json(die: DieReading) -> dict[str, object]:
    """One die in the contract's shape."""
    return {
        "value": die.value,
        "center": [die.center[0], die.center[1]],
        "box": list(die.box),
        "flat": die.flat,
    }


def describe(dice: list[DieReading]) -> str:
    """A short listing for people: one line per die."""
    if not dice:
        return "no dice found"
    lines = [f"{len(dice)} {'die' if len(dice) == 1 else 'dice'} found:"]
    for die in dice:
        value = str(die.value) if die.value is not None else "unreadable"
        lie = "flat" if die.flat else "cocked"
        x, y = die.center
        lines.append(f"  {value:>10}  {lie:6}  at ({x:.0f}, {y:.0f})")
    return "\n".join(lines)
