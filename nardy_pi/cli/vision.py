"""`nardy-pi calibrate` and `nardy-pi analyze` (board-frame.md §2, §3)."""

from __future__ import annotations

import argparse
import json
import sys

from nardy_pi.cli.errors import CliError


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    cal = subparsers.add_parser(
        "calibrate",
        help="learn a board from one image of a known position",
        description="Find the playing surface (from --corners, ArUco markers or the board "
        "outline), learn its look from an image of a known position and write CAL.json.",
    )
    cal.add_argument("image", metavar="IMAGE")
    cal.add_argument("--corners", help='"x,y;x,y;x,y;x,y": top_left, top_right, bottom_right, '
                     "bottom_left in image pixels; another order rotates/mirrors the board")
    cal.add_argument("--position", default="start",
                     help="'start' (default) or the XGID / board field the image shows")
    cal.add_argument("--variant", default="backgammon",
                     help="for --position start: backgammon, nackgammon, hypergammon, long")
    cal.add_argument("--out", required=True, metavar="CAL.json")
    cal.add_argument("--trays", choices=("auto", "yes", "no"), default="auto",
                     help="side bear-off trays in view (default: detect)")
    cal.add_argument("--stack-style", choices=("rows", "layers", "both"), default="both",
                     help="how players pile stacks over five on this board (default: both)")
    cal.add_argument("--overlay", metavar="OUT.png", help="also write what calibration sees")
    cal.add_argument("--tall-stacks-uncounted", action="store_true",
                     help="accept a reading whose stacks of 6 or more (long nardy's heads) are "
                     "counted short or long with their colour right; the rules count them in "
                     "play (default: every point must read back)")
    cal.set_defaults(func=run_calibrate)

    ana = subparsers.add_parser(
        "analyze",
        help="read checkers, dice and cube from one image",
        description="Observe one image: points, bar, off, dice, cube, the roll verdict and "
        "occlusion. With --calibration the board's learnt look is used; without, the learned "
        "reader reads a board it has never seen (the corners from --corners, ArUco markers or "
        "the board finder) and adds confidence fields.",
    )
    ana.add_argument("image", metavar="IMAGE")
    ana.add_argument("--calibration", metavar="CAL.json",
                     help="a calibration of this board (optional)")
    ana.add_argument("--corners", help='"x,y;x,y;x,y;x,y": top_left, top_right, bottom_right, '
                     "bottom_left of the playing surface; with --calibration the board's "
                     "learnt look is kept and placed there (a bumped camera)")
    ana.add_argument("--json", action="store_true", help="print one JSON object")
    ana.add_argument("--overlay", metavar="OUT.png", help="write a picture of what was seen")
    ana.add_argument("--dice-in-play", choices=("1-2", "2"), default="2",
                     help="dice counts that need no re-roll: exactly 2 (default; one die "
                     "says missing_die) or 1-2 (a lone die accepted)")
    ana.add_argument("--no-dice", action="store_true", help="skip the dice reader")
    ana.set_defaults(func=run_analyze)


def _calibrate_any(image, board, args: argparse.Namespace):
    """The chosen calibration (calibrate_board.Calibrated) and where the corners came from.
    Without --corners: ArUco markers, else each board-outline candidate until one reads the
    position back."""
    from nardy_pi.vision.calibrate_board import calibrate_board
    from nardy_pi.vision.geometry import parse_corners
    from nardy_pi.vision.markers import find_marker_corners, outline_candidates
    from nardy_pi.vision.stacking import STACK_STYLES

    trays = {"auto": None, "yes": True, "no": False}[args.trays]
    styles = STACK_STYLES if args.stack_style == "both" else (args.stack_style,)

    def attempt(corners):
        return calibrate_board(image, corners, board, trays=trays, stack_styles=styles,
                               tall_stacks_uncounted=args.tall_stacks_uncounted)

    if args.corners:
        return attempt(parse_corners(args.corners)), "given"
    markers = find_marker_corners(image)
    if markers is not None:
        return attempt(markers), "ArUco markers"
    for candidate, source in _surface_candidates(image, outline_candidates):
        try:
            result = attempt(candidate)
        except ValueError:
            continue
        if result.accepted:
            return result, source
    raise CliError(
        "could not find the board: no ArUco markers 0-3 and no board outline that fits the "
        'position; give --corners "x,y;x,y;x,y;x,y" (top_left;top_right;bottom_right;bottom_left)'
    )


def _surface_candidates(image, outline_candidates):
    """Surfaces to try, likeliest first: the one find_surface chooses (learned corners or
    outline), also turned half round (which side is whose the known position tells), then
    every outline candidate."""
    import numpy as np

    from nardy_pi.vision.board.find_surface import find_surface

    found = find_surface(image, use_markers=False)
    if found is not None:
        corners = np.asarray(found.corners, np.float64)
        yield corners, f"found surface ({found.source})"
        yield np.roll(corners, 2, axis=0), f"found surface ({found.source}), turned"
    for candidate in outline_candidates(image):
        yield candidate, "board outline"


def run_calibrate(args: argparse.Namespace) -> int:
    from nardy_pi.vision.imageio import load_image, save_png
    from nardy_pi.vision.overlay import draw_overlay
    from nardy_pi.vision.start_positions import position_board

    image = load_image(args.image)
    board = position_board(args.position, args.variant)
    result, source = _calibrate_any(image, board, args)
    cal, seen = result.calibration, result.seen
    if args.overlay and seen is not None:
        save_png(args.overlay, draw_overlay(image, seen.homography, seen.observation,
                                            seen.dice_boxes, seen.cube_box))
    if not result.accepted or cal is None:
        raise CliError(f"calibration reads back only {result.agree}/24 points of the known "
                       f"position ({result.message}); no calibration written: check the "
                       "corners and that the image shows that position", code=1)
    cal.save(args.out)
    print(f"corners ({source}): " + "; ".join(f"{x:.1f},{y:.1f}" for x, y in cal.corners))
    print(f"trays: {'yes' if cal.trays else 'no'}; {result.message}")
    print(f"wrote {args.out}")
    return 0


def run_analyze(args: argparse.Namespace) -> int:
    from nardy_pi.vision.calibration import load_calibration
    from nardy_pi.vision.imageio import load_image, save_png
    from nardy_pi.vision.observe import Observer, default_dice_finder
    from nardy_pi.vision.overlay import draw_overlay
    from nardy_pi.vision.serialize import observation_json

    image = load_image(args.image)
    finder = None if args.no_dice else default_dice_finder(fine=True)  # one still: it can afford it
    counts = (1, 2) if args.dice_in_play == "1-2" else (2,)
    if args.calibration is None:
        obs, homography, boxes, cube_box = _first_look(image, args, finder, counts)
    else:
        cal = load_calibration(args.calibration)
        if args.corners:
            from nardy_pi.vision.calibration import placed_at
            from nardy_pi.vision.geometry import parse_corners

            cal = placed_at(cal, parse_corners(args.corners), (image.shape[1], image.shape[0]))
        seen = Observer(cal, finder, counts).observe(image)
        obs, homography = seen.observation, seen.homography
        boxes, cube_box = seen.dice_boxes, seen.cube_box
    data = observation_json(obs)
    if args.overlay:
        save_png(args.overlay, draw_overlay(image, homography, obs, boxes, cube_box))
    if args.json:
        print(json.dumps(data))
        return 0
    print("\n".join(describe(data)))
    return 0


def describe(data: dict) -> list[str]:
    """analyze's reading (observation_json's object) as lines a player reads."""
    held = [f"{i}:{'?' if c is None else c}" for i, c in enumerate(data["points"], 1) if c != 0]
    lines = ["points: " + (" ".join(held) or "none held"),
             f"bar: white {_count(data['bar']['white'])}, black {_count(data['bar']['black'])}; "
             f"off: white {_count(data['off']['white'])}, black {_count(data['off']['black'])}"]
    for n, die in enumerate(data["dice"], 1):
        where = [("flat" if die["flat"] else "cocked"),
                 (f"{die['half']} half" if die["on_board"] else "off the board")]
        if die["on_checker"]:
            where.append("on a checker")
        shows = "?" if die["value"] is None else die["value"]
        x, y = die["center"]
        lines.append(f"die {n}: shows {shows} at ({x:.0f}, {y:.0f}), {', '.join(where)}")
    cube = data["cube"]  # a centred cube is worth 1 (its 64 face up), board-frame.md
    lines.append("cube: not seen" if cube is None
                 else f"cube: {cube['value']} at {cube['position']}")
    roll = data["roll"]
    if roll["valid"]:
        lines.append("roll: valid")
    elif not data["dice"]:
        lines.append("roll: no dice seen")
    else:
        lines.append("roll: re-roll (" + ", ".join(roll["reasons"]) + ")")
    lines.append(f"occluded: {'yes' if data['occluded'] else 'no'}")
    return lines


def _count(n: int | None) -> str:
    return "?" if n is None else str(n)  # None: part of the surface is out of view


def _first_look(image, args: argparse.Namespace, finder, counts):
    """A board never seen (board-frame.md §4): the learned reader on the given or found
    corners. Returns the observation, the board->image homography, dice and cube boxes."""
    import cv2
    import numpy as np

    from nardy_pi.vision.board.first_look import FOUND_SURFACE_SURENESS, read_unseen_board
    from nardy_pi.vision.geometry import parse_corners, surface_corners

    found = None
    if args.corners:
        corners = np.asarray(parse_corners(args.corners), dtype=np.float64)
    else:
        corners, found = _found_corners(image)
    look = read_unseen_board(image, corners, finder, counts)
    if found is not None and found.source != "markers":
        if look.reading.sureness < FOUND_SURFACE_SURENESS:
            raise CliError(
                "could not find the board surely: the surface found automatically reads "
                f"unsure (sureness {look.reading.sureness:.2f}, needs {FOUND_SURFACE_SURENESS}),"
                " so it is probably not the playing surface; "
                'give --corners "x,y;x,y;x,y;x,y" (top_left;top_right;bottom_right;bottom_left)'
            )
        # stdout stays the contract's; the caveat goes to stderr
        print(f"corners found automatically ({found.source}, confidence "
              f"{found.confidence:.2f}): "
              + "; ".join(f"{x:.0f},{y:.0f}" for x, y in found.corners)
              + '; if the reading looks wrong, give --corners "x,y;x,y;x,y;x,y"',
              file=sys.stderr)
    homography = cv2.getPerspectiveTransform(
        np.asarray(surface_corners(), np.float32), corners.astype(np.float32))
    return look.observation, homography, look.dice_boxes, None


def _found_corners(image):
    """Corners without --corners: ArUco markers, then the board finder; or a clear error.
    Returns the corners and find_surface's answer (its source and confidence)."""
    import numpy as np

    from nardy_pi.vision.board.find_surface import TRUSTED_CONFIDENCE, find_surface

    found = find_surface(image)
    if found is None:
        raise CliError(
            "could not find the board: no ArUco markers 0-3 and no playing surface found; "
            'give --corners "x,y;x,y;x,y;x,y" (top_left;top_right;bottom_right;bottom_left)'
        )
    if found.confidence < TRUSTED_CONFIDENCE:
        raise CliError(
            "could not find the board: no ArUco markers 0-3, and the likeliest playing surface "
            f"is only a guess (confidence {found.confidence:.2f}, needs {TRUSTED_CONFIDENCE}); "
            'give --corners "x,y;x,y;x,y;x,y" (top_left;top_right;bottom_right;bottom_left)'
        )
    return np.asarray(found.corners, dtype=np.float64), found
