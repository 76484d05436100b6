"""Calibrated reading of renderer styles never trained on (issue 15's second target).

Each session is one held-out board under one camera (render/randomised iter_session,
split="heldout"): `calibrate` (calibrate_board: the colour reader when it reads the start
position back, else the learned reader with this board's prototypes, else refused) runs on the
start-position frame, then the session's other frames (random positions, dice, cube, and an
occluder in some) are observed with that calibration. Prints, no asserts:
- share of sessions calibrate accepted, by reader, and why the rest were refused;
- on clean frames: per slot (visible points + the two bar counts), frames exact;
- occlusion: recall on frames with an occluder over the surface (the renderer counts 0.5% of
  it), and on those covering 3% or more; false alarms on clean ones;
- the same frames read without calibration (read_unseen_board), as the peer;
- with --learn, the same frames read by a second calibrated observer that, after each clean
  frame, is told the frame's true position (as the referee confirms a legal play in a game)
  and learns from it (board/confirmed.py), against the calibrated observer that does not.

    python3 bench/bench_calibrated_reader.py [--sessions 20] [--frames 10] [--dice] [--learn]
        [--no-peer] [--no-speed]

Learning from confirmed frames, 2026-12-03 (--sessions 20 --frames 20 --learn --no-peer):
16-32-32-48 strip model: calibrated 92.2% per slot, 19.8% exact -> learning 93.2%, 24.7%;
the shipped 24-48-48-64 model: calibrate accepts 19 of 20 sessions instead of 15, calibrated
92.9%, 25.1% exact (occlusion false alarms 5.3% -> 2.7%) -> learning 93.1%, 25.1% (320 frames
learned, 11 refused); a confirmation 43 ms against 22 ms an observation, once per play.
Occlusion, same run: recall 81.6% (40/49) overall and 90.9% (40/44) over covers of 3% or
more; the nine missed covers are 1.0-6.5% of the surface, six of them under 3.2%.

Where the calibrated reader errs, 2026-12-05 (20 sessions x 10 frames, 4352 slots, 305 wrong):
tall stacks. Points of 6 or more checkers are 6% of the slots and 56% of the errors (about
two thirds of them read wrong, mostly by 1-3); points of 0-5 read 96.4%. The renders squeeze
a long stack into one row of overlapping checkers (up to six diameters) or a second layer,
and 13% of the tall stacks reach past the middle of the surface, where a strip ends.
Calibration's fine-tuned count head, fitted on a start position that holds only 0, 2, 3 and
5 checkers a point, draws tall stacks towards 5 (against the uncalibrated reading of the same
frames, 4 -> 5 read 24 times instead of 9, 6 -> 5 20 instead of 12, 7 -> 5 13 instead of 5),
yet it still reads best overall. Tried, not adopted:
  the count head as shipped, only the colour head refitted: calibrate accepts 15 of 20
    sessions instead of 19 (navy and worn boards read their 5-stacks as 4);
  the count head's biases kept, its weights refitted: the same figures (the weights carry the
    shift: embeddings are non-negative);
  a two-number tilt of the shipped count head instead (logits + a * count + z * [empty],
    fitted on the start position) where it reads the start back, else the full refit (15 of
    19 sessions took the tilt): 92.8% per slot against 93.0%, frames exact 20.2% against
    23.2%;
  the camera model retrained with tall stacks' count loss weighted 3x (its base and photo
    fine-tune, the shipped recipe otherwise): stacks of 6+ read 50% against 50%, calibrate
    accepted 16 of 20 sessions instead of 19, 93.0% per slot on those, occlusion false
    alarms 7.7%. Weight does not teach it to count an overlapping row;
  the count head pulled less towards the shipped weights when refitted (0.1 instead of 0.3):
    calibrate accepted 20 of 20 sessions (92.8% per slot) and, on 40 sessions x 6 frames, 38
    of 40 instead of 37 (93.5% against 93.6%): within what another seed of sessions moves;
  every strip read mirrored as well (calibration and frames; about 15 ms more a frame, over
    the budget): 18 of 20 accepted, 93.9% per slot on those, occlusion recall 86.4% and
    false alarms 4.4%.
Occupied bars, 2026-12-05: held-out styles read 14 of 51 occupied bars right (calibrated or
not; empty bars 117 of 117): the randomised renders labelled bar strips only when the bar was
empty. Labelling each half from where its checkers were drawn (train/board_reader.py
--bar-labels, camera model retrained, the shipped recipe otherwise): occupied bars 36 of 51
(39 without calibration), empty 107 of 117; per slot 93.3% -> 93.6%, frames exact 24.4% ->
28.0%, occlusion false alarms 1.8% -> 3.6%; held-out renders without calibration 94.0% ->
95.0%; but real photos held out by board 90.8% -> 89.8% (phantoms 66 -> 87, bar errors 20
both), so not shipped; the first look's pair with it was not finished.

The camera model retrained on the reviewed photo labels, 2026-12-06, not adopted (its render-
only base is not kept, so a new base from today's code and the shipped recipe, 18 min, then the
usual photo fine-tune and fold models): calibrate accepts 19 -> 16 of 20 sessions; on those,
per slot 93.3% -> 93.4%, frames exact 24.4% -> 24.5%, occlusion recall 90.9% -> 94.1%, false
alarms 1.8% -> 4.9%; real photos held out by board (its fold models, no calibration) 92.5% ->
91.2%. The shipped camera model stays.

At most three missing checkers a side charged for in decoding, 2026-12-06 (board/decode.py
MISSING_CAP; the camera model unchanged): calibrate accepts 19 of 20 as before; per slot 93.3%
-> 93.6%, frames exact 24.4% -> 26.2%, occlusion recall 90.9% and false alarms 1.8% unchanged.

The calibrated count head's probabilities mixed with the shipped head's, 2026-12-06 late, not
adopted (against the pull of tall stacks towards 5; no extra forward pass): a share of 0.3 for
the shipped head 93.6% per slot (25.6% frames exact), 0.5 93.5% (25.0%), against 93.6% (26.2%).
The same frames without calibration (read_unseen_board, analyze's pair): 94.3%, 32.7% exact.

The first look's pair reads a calibrated board, 2026-12-06 night (board/adapt.py: calibrate
tries it first and keeps it when it reads the start position back; else the camera model's
adaptations as before). The same frames read without calibration by analyze's pair had read
better than the calibrated camera model on every count (94.3% against 93.6% per slot, 32.7%
against 26.2% exact, occlusion recall 95.5% against 90.9%, false alarms 0.6% against 1.8%).
Tried first, on the calibrated layouts: the pair read once a frame 94.6% per slot, 33.3% exact,
occlusion 95.5% / 0.6%; mirrored as well 94.6%, 34.5%; the first member alone 93.8% (false
alarms 9.5%), the second alone 93.7% (3.0%); the camera model read plain with the frame's
colour groups 93.3%; heads fitted on the start position for the pair's first member 94.1%, for
both 93.6% (they draw tall stacks to 5, as for the camera model). But the whole pair costs a
second model a frame (640x480 with dice, nothing reused: 34.9 against 24.4 ms, over the 30 ms
budget), so the camera loop asks the second member only where the first is unsure
(model.SecondOpinionWhereUnsure: no signed count at 0.9, or an occluder at 0.1): about one
strip in seven, the same readings (94.9% against 94.7% on the sessions it reads back).
The pair reads back 15 of the 19 starts the camera model reads back (the other four miss a
5-stack by one) and those four keep the fitted heads. Before -> after, this bench:
  per slot 93.6% -> 94.3%, frames exact 26.2% -> 32.1%, occlusion recall 90.9% -> 95.5%,
  false alarms 1.8% -> 3.6% (6 of 168 frames; the whole pair 3, within the occluder's
  threshold noise), calibrate accepts 19 of 20 as before;
  speed (printed below the figures): 26.6 ms against the camera model's 25.1 at 640x480
  (ratio 1.06), 32.8 against 29.7 at 1280x960 (1.10).
A board the pair reads learns nothing from confirmed plays (--learn): its two models are read
as shipped, and the confirmations' gain was 0.2 points.
Missing checkers charged more in decoding, 2026-12-07, not adopted (most of these frames show 15
a side, and tall stacks read short): board/decode.py MISSING_COST 2 (cap 3) 94.2% per slot,
33.9% exact; 3 (cap 4) 93.9%, 33.3%; against 94.3%, 32.1%. The charge adds the missing checker
to whichever stack costs least, seldom the one that hides it. The bar's halves decoded without
the empty prior (weight 1 or 0.5): 94.3% both. On the three sessions whose start the pair does
not read back, the pair uncalibrated against the fitted camera model: 86.9% / 96.4% / 94.4%
against 88.5% / 92.7% / 92.7% per slot: too few to change the rule.
Occupied bars labelled in the first look's first model, 2026-12-07, not adopted (its photo
fine-tune with --bar-labels, from the control base of 2026-12-06 kept in /tmp, against the same
base's fine-tune without; fold 0's model as the pair's first member, the shipped second): occupied
bars read 27 -> 30 of 55 (the shipped pair 23), empty 281 of 281 both; per slot 94.6% -> 94.7%,
frames exact 35.1% -> 37.5%, occlusion false alarms 2.4% -> 0.6%; bench_decode A right 88.6% ->
92.8%, false alarms 6.4% -> 4.3%, caught 87.2% -> 87.3%, B 97.2% / 2.1% / 91.2% -> 96.5% / 2.1% /
90.1%; held-out renders without calibration 96.8% -> 96.7%; real photos held out by board (fold
models) the pair 94.2% both (3308 -> 3305 of 3510), shipped 94.4%. The bases and the second
model never learn an occupied randomised bar; within a seed's noise everywhere but the bar.
Checkers no camera above can see, 2026-12-07 (printed since; hidden_beneath): the renders'
layered stacks put a checker straight on top of another (stacks.py, a second layer over the
first, half of them not offset), and from above the one beneath shows only in how high the
stack stands. 1.9% of the slots (83 of 4352) hold such a point, and 78 of the 168 clean frames
at least one; the reader gets 19% of those points right (guesses), the other slots 95.8%, and
the frames without one are read exactly 48.9% of the time. So on this bench the targets of
99.5% per slot and 90% of frames exact cannot be reached by reading what is in view: at best
about 98% and 54%, less whatever the 15-a-side count recovers. In play, the referee's rules
count such stacks (bench_decode.py).
The first look's pair retrained with near walls (bench_board_reader's notes), 2026-12-07: calibrate
accepts 19 of 20 as before; per slot 94.3% -> 94.2%, frames exact 32.1% both, occlusion recall
95.5% both, false alarms 3.6% -> 1.8%; the same frames without calibration 94.3%, 33.9% exact.
A stack's colour from its first checkers (board/frame_colour.py; bench_board_reader's notes),
2026-12-07: per slot 94.2% -> 94.4%, frames exact 53 -> 55 of 168 (worn_cafe_glare 107 -> 98
wrong slots), occlusion unchanged; without calibration 94.4% -> 94.6%, 57 -> 58 exact.
2026-12-07 late: CIELAB in numpy (vision/lab.py, for analyze's start-up) moves a few stacks'
colours by OpenCV's 8-bit rounding (at most 2 levels): calibrated 4111 -> 4108 of 4352 slots
(the same run with OpenCV's conversion put back: 4111), 55 exact both; the real photos held
out read exactly as before. Without calibration 4150 -> 4152 with the first look's bar reader.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from nardy_pi.vision.board.confirmed import MAX_FRAMES  # noqa: E402
from nardy_pi.vision.board.first_look import read_unseen_board  # noqa: E402
from nardy_pi.vision.calibrate_board import calibrate_board  # noqa: E402
from nardy_pi.vision.observe import Observer, default_dice_finder  # noqa: E402
from nardy_pi.vision.render.randomised import iter_session  # noqa: E402
from nardy_pi.vision.start_positions import start_board  # noqa: E402

FIRST_SEED = 30_000  # board seeds of the sessions: FIRST_SEED + k


@dataclass
class Tally:
    right: int = 0
    slots: int = 0
    exact: int = 0
    clean: int = 0
    hits: int = 0  # occluded frames flagged
    occluded: int = 0
    alarms: int = 0  # clean frames flagged
    styles: Counter = field(default_factory=Counter)
    #: occluded frames covering at least BIG_COVER of the surface, and those flagged
    big: int = 0
    big_hits: int = 0
    #: points with a checker lying straight under another (hidden_beneath), and those right
    buried: int = 0
    buried_right: int = 0
    open_frames: int = 0  # clean frames without such a point, and those read exactly
    open_exact: int = 0

    def add(self, obs, truth) -> None:
        if truth.occluded:
            self.occluded += 1
            self.hits += bool(obs.occluded)
            if surface_cover(truth) >= BIG_COVER:
                self.big += 1
                self.big_hits += bool(obs.occluded)
            return
        self.clean += 1
        self.alarms += bool(obs.occluded)
        ok = [obs.points[i] == truth.points[i] for i in range(24) if truth.visible[i]]
        buried = hidden_beneath(truth)
        for i in buried:
            self.buried += 1
            self.buried_right += obs.points[i - 1] == truth.points[i - 1]
        ok += [obs.bar_white == truth.bar_white, obs.bar_black == truth.bar_black]
        self.right += sum(ok)
        self.slots += len(ok)
        self.exact += all(ok)
        if not buried:
            self.open_frames += 1
            self.open_exact += all(ok)
        self.styles[truth.style_name] += len(ok) - sum(ok)

    def lines(self, title: str) -> list[str]:
        return [f"{title}:",
                f"  per slot       {_pct(self.right, self.slots)}  (clean frames)",
                f"  frames exact   {_pct(self.exact, self.clean)}",
                f"  occlusion      recall {_pct(self.hits, self.occluded)}, false alarms "
                f"{_pct(self.alarms, self.clean)} of clean frames",
                f"  occlusion      recall over covers of {BIG_COVER:.0%} of the surface or more "
                f"{_pct(self.big_hits, self.big)} (the renderer counts 0.5% as covered)",
                f"  points with a checker straight under another (no camera above sees it): "
                f"{_pct(self.buried, self.slots)} of slots, read right "
                f"{_pct(self.buried_right, self.buried)}; the other slots "
                f"{_pct(self.right - self.buried_right, self.slots - self.buried)}, frames "
                f"without such a point exact {_pct(self.open_exact, self.open_frames)}",
                "  slots wrong by style: " + (", ".join(f"{s} {n}" for s, n in
                                                        self.styles.most_common()) or "none")]


BIG_COVER = 0.03  # the smallest covers, a fingertip over a corner, are the ones missed


def hidden_beneath(truth) -> list[int]:
    """Visible points (1..24) where a checker lies straight under another (its centre within
    a third of a radius of a higher checker's): from above, only how high the stack stands
    tells it is there, and its count cannot be read, only guessed."""
    out = []
    for point in range(1, 25):
        if not truth.visible[point - 1]:
            continue
        mine = [c for c in truth.checkers if c.point == point]
        if any(o.height > c.height and np.hypot(o.center[0] - c.center[0],
                                                 o.center[1] - c.center[1]) < c.radius_px / 3
               for c in mine for o in mine):
            out.append(point)
    return out


def surface_cover(truth) -> float:
    """Share of the playing surface under the frame's occluders."""
    surface = np.zeros(truth.occluder_mask.shape, np.uint8)
    cv2.fillConvexPoly(surface, np.round(np.asarray(truth.corners)).astype(np.int32), 1)
    inside = np.count_nonzero(surface)
    return np.count_nonzero(truth.occluder_mask & (surface > 0)) / max(1, inside)


def _pct(a: int, b: int) -> str:
    return f"{100.0 * a / b:5.1f}% ({a}/{b})" if b else "  n/a"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sessions", type=int, default=20)
    p.add_argument("--frames", type=int, default=10, help="frames after the calibration one")
    p.add_argument("--size", default="1280x960")
    p.add_argument("--dice", action="store_true", help="run the dice finder too (slower)")
    p.add_argument("--no-peer", action="store_true", help="skip the uncalibrated reading")
    p.add_argument("--no-speed", action="store_true", help="skip the speed figures")
    p.add_argument("--learn", action="store_true",
                   help="also read with an observer learning from each confirmed frame")
    args = p.parse_args()
    size = tuple(int(v) for v in args.size.split("x"))
    board = start_board("backgammon")
    finder = default_dice_finder() if args.dice else None
    accepted: Counter = Counter()
    refused: list[str] = []
    by_reader: dict[str, Tally] = {}
    calibrated, peer, learning = Tally(), Tally(), Tally()
    learned = refused_frames = 0
    observe_s = confirm_s = 0.0  # the learner's time observing, and confirming
    observed = 0
    started = time.perf_counter()
    for k in range(args.sessions):
        frames = iter_session(FIRST_SEED + k, args.frames, "heldout", size)
        first = next(frames)
        result = calibrate_board(first.image, first.truth.corners, board)
        if not result.accepted:
            refused.append(f"{first.truth.style_name}: {result.message}")
            continue
        reader = result.calibration.reader
        accepted[reader] += 1
        observer = Observer(result.calibration, finder)
        learner = Observer(result.calibration, finder) if args.learn else None
        mine = by_reader.setdefault(reader, Tally())
        for frame in frames:
            obs = observer.observe(frame.image).observation
            calibrated.add(obs, frame.truth)
            mine.add(obs, frame.truth)
            if learner is not None:
                truth = frame.truth
                t0 = time.perf_counter()
                learning.add(learner.observe(frame.image).observation, truth)
                t1 = time.perf_counter()
                if not truth.occluded and learner.confirm(truth.points,
                                                          (truth.bar_white, truth.bar_black)):
                    learned += 1
                elif learner.confirmed is not None and not truth.occluded:
                    refused_frames += 1
                observe_s += t1 - t0
                observed += 1
                confirm_s += time.perf_counter() - t1
            if not args.no_peer:
                peer.add(read_unseen_board(frame.image, np.asarray(frame.truth.corners),
                                           finder).observation, frame.truth)
    n = args.sessions
    print(f"held-out renderer styles, {n} sessions x {args.frames} frames at {args.size}, "
          f"calibrated on each session's start position ({time.perf_counter() - started:.0f} s)")
    print(f"calibrate accepted {_pct(sum(accepted.values()), n)}: "
          + ", ".join(f"{r} reader {c}" for r, c in sorted(accepted.items())))
    for why in refused:
        print(f"  refused: {why}")
    print("\n".join(calibrated.lines("after calibration, accepted sessions")))
    for reader, tally in sorted(by_reader.items()):
        print("\n".join(tally.lines(f"  {reader} reader")[:3]))
    if args.learn:
        print("\n".join(learning.lines("calibrated and learning from each confirmed frame "
                                        f"({learned} frames learned, {refused_frames} "
                                        "refused as too far from their position)")))
        if observed:
            per_frame, per_lesson = observe_s / observed, confirm_s / observed
            print(f"  a confirmation (refit on the pool, up to {MAX_FRAMES} frames) takes "
                  f"{1000 * per_lesson:.0f} ms, {per_lesson / per_frame:.1f}x an observation "
                  f"({1000 * per_frame:.0f} ms); one per play, on the frames thread")
    if not args.no_peer:
        print("\n".join(peer.lines("the same frames without calibration (read_unseen_board)")))
    if not args.no_speed:
        print_speed(board)
    return 0


def print_speed(board, frames: int = 11) -> None:
    """Milliseconds of CPU per whole observation (dice too, one OpenCV thread, every frame a
    new position so nothing is reused) of a board the first look's pair reads, against the
    camera model with its heads fitted to the same board (the peer)."""
    from dataclasses import replace as with_section

    from nardy_pi.vision.board.adapt import fit_learned

    cv2.setNumThreads(1)
    finder = default_dice_finder()
    print(f"speed, median CPU ms per observation with dice ({frames - 1} frames, a held-out "
          "session, one thread, nothing reused):")
    for size in ((640, 480), (1280, 960)):
        shots = list(iter_session(SPEED_SEED, frames - 1, "heldout", size))
        first = shots[0]
        result = calibrate_board(first.image, first.truth.corners, board)
        camera = fit_learned(first.image, first.truth.corners, board, pair=False)
        if not result.accepted or camera.disagree:
            print(f"  {size[0]}x{size[1]}: the session's start does not read back; skipped")
            continue
        cals = {"first-look pair": result.calibration,
                "camera model (peer)": with_section(result.calibration, learned=camera.section)}
        ms = {}
        for name, cal in cals.items():
            observer = Observer(cal, finder, reuse_unchanged=False)
            times = []
            for shot in shots[1:] * 2:
                t0 = time.process_time()
                observer.observe(shot.image)
                times.append(1000 * (time.process_time() - t0))
            ms[name] = float(np.median(times))
        pair_ms, peer_ms = ms["first-look pair"], ms["camera model (peer)"]
        print(f"  {size[0]}x{size[1]}: {cals['first-look pair'].learned.adaptation} "
              f"{pair_ms:.1f} ms, camera model {peer_ms:.1f} ms, ratio {pair_ms / peer_ms:.2f}")


SPEED_SEED = FIRST_SEED + 3  # a session the pair reads back at both sizes


if __name__ == "__main__":
    raise SystemExit(main())
