"""Per-image labels for the real board photos in ../shared/data/board-photos, and how to use them.

The photos themselves never enter the repository (stock watermarks): only the labels derived
from them do (`data/board_photos.json`, made as `data/README.md` says). Each label gives the
playing-surface corners (board-frame.md §1), the checkers on points 1..24 and the bar, and the
dice. Copies of one original photo (augmentations upstream) share a board id: split and score
by board, never by image, or a board seen in training counts as unseen.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from nardy_pi.vision import geometry as g

LABELS_FILE = Path(__file__).parent / "data" / "board_photos.json"
SLOTS = 25  # points 1..24 and the bar


def default_root() -> Path:
    """`<repo>/../shared/data/board-photos`, the folder beside the worktree."""
    return Path(__file__).resolve().parents[3].parent / "shared" / "data" / "board-photos"


class PhotosMissing(FileNotFoundError):
    """The photo folder is absent (the labels alone are in the repository)."""


@dataclass(frozen=True, slots=True)
class Die:
    box: tuple[float, float, float, float]  # x0, y0, x1, y1 in image px (upstream box)
    center: tuple[float, float]
    on_board: bool  # centre inside the playing surface
    half: str | None  # "left" / "right" of the bar; None off the board or on the bar
    value: int | None  # top face read by eye; None = not readable by eye
    cocked: bool  # leaning (on a checker, the frame or another die)
    value_checked: bool  # the value was looked at by eye (False: unknown, not "unreadable")
    cube: bool  # upstream boxed the doubling cube as a die
    cube_face: int | None  # the cube's face when `cube`
    why: str  # why the value is None, or other remarks


@dataclass(frozen=True, slots=True)
class PhotoLabel:
    name: str  # image file name without .jpg
    board: str  # the original photo this copy was made from
    reference: str  # the copy whose corners were placed by eye
    copy: tuple[str, ...]  # "reference", "greyscale", "rotated90", "tilted", "cropped"
    size: tuple[int, int]  # width, height
    corners: g.Corners  # top_left, top_right, bottom_right, bottom_left (image px)
    points: tuple[int | None, ...]  # physical point i+1; + white, - black; None out of view
    bar: tuple[int, int]  # white, black checkers on the bar
    off: tuple[int, int] | None  # white, black borne off; None when no tray is in view
    bar_u: tuple[float, float]  # the bar's span across the surface, 0..1 from left to right
    dice: tuple[Die, ...]
    checked: bool  # every field was looked at on an overlay
    note: str
    not_fifteen: str | None  # why the whole board does not show 15 a side, when it does not

    def image_path(self, root: Path) -> Path:
        return root / "images" / f"{self.name}.jpg"

    @property
    def whole_board(self) -> bool:
        return all(p is not None for p in self.points)

    def totals(self) -> tuple[int, int]:
        """White and black checkers on the points and the bar (off not included)."""
        seen = [p for p in self.points if p is not None]
        return (sum(p for p in seen if p > 0) + self.bar[0],
                -sum(p for p in seen if p < 0) + self.bar[1])


def _die(raw: dict[str, Any]) -> Die:
    return Die(box=tuple(raw["box"]), center=tuple(raw["center"]), on_board=raw["on_board"],
               half=raw["half"], value=raw["value"], cocked=raw["cocked"],
               value_checked=raw["value_checked"], cube=raw["cube"], cube_face=raw["cube_face"],
               why=raw["why"])


def _label(raw: dict[str, Any]) -> PhotoLabel:
    c = raw["corners"]
    corners = tuple(tuple(c[k]) for k in ("top_left", "top_right", "bottom_right", "bottom_left"))
    off = raw["off"]
    return PhotoLabel(
        name=raw["name"], board=raw["board"], reference=raw["reference"], copy=tuple(raw["copy"]),
        size=tuple(raw["size"]), corners=corners, points=tuple(raw["points"]),
        bar=(raw["bar"]["white"], raw["bar"]["black"]),
        off=None if off is None else (off["white"], off["black"]),
        bar_u=tuple(raw["bar_u"]), dice=tuple(_die(d) for d in raw["dice"]),
        checked=raw["checked"], note=raw["note"], not_fifteen=raw["not_fifteen"])


def read_labels(path: Path = LABELS_FILE) -> tuple[PhotoLabel, ...]:
    """The labels alone (no photos needed)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return tuple(_label(raw) for raw in data["images"])


def load_board_photos(root: Path | None = None) -> tuple[PhotoLabel, ...]:
    """The labels of the photos present in `root` (default: `default_root()`)."""
    root = default_root() if root is None else Path(root)
    if not (root / "images").is_dir():
        raise PhotosMissing(f"board photos not found: {root} has no images/ folder "
                            "(expected ../shared/data/board-photos beside the repository)")
    labels = read_labels()
    missing = [lab.name for lab in labels if not lab.image_path(root).is_file()]
    if missing:
        raise PhotosMissing(f"{len(missing)} labelled photos missing from {root / 'images'}, "
                            f"e.g. {missing[0]}.jpg")
    return labels


def read_image(label: PhotoLabel, root: Path | None = None) -> np.ndarray:
    from nardy_pi.vision.imageio import load_image

    return load_image(label.image_path(default_root() if root is None else root))


@dataclass(frozen=True, slots=True)
class Fold:
    test_boards: tuple[str, ...]
    train: tuple[PhotoLabel, ...]
    test: tuple[PhotoLabel, ...]


def board_folds(labels: Sequence[PhotoLabel], k: int) -> tuple[Fold, ...]:
    """k folds grouped by board id: every copy of one original lands in the same fold.

    Deterministic: boards are dealt largest first onto the fold with fewest images, so folds
    stay balanced; k = number of boards gives leave-one-board-out.
    """
    boards: dict[str, list[PhotoLabel]] = {}
    for lab in labels:
        boards.setdefault(lab.board, []).append(lab)
    if not 2 <= k <= len(boards):
        raise ValueError(f"k must be between 2 and the number of boards ({len(boards)}), got {k}")
    bins: list[list[str]] = [[] for _ in range(k)]
    sizes = [0] * k
    for board in sorted(boards, key=lambda b: (-len(boards[b]), b)):
        i = min(range(k), key=lambda j: (sizes[j], j))
        bins[i].append(board)
        sizes[i] += len(boards[board])
    folds = []
    for test_boards in bins:
        held = set(test_boards)
        folds.append(Fold(
            test_boards=tuple(sorted(held)),
            train=tuple(lab for lab in labels if lab.board not in held),
            test=tuple(lab for lab in labels if lab.board in held)))
    return tuple(folds)


# -- scoring a reader ------------------------------------------------------------------------

Reading = tuple[Sequence[int | None], tuple[int, int]]  # points 1..24, (white, black) on bar
Reader = Callable[[np.ndarray, g.Corners], Any]


def _as_reading(out: Any) -> Reading:
    """Accept (points, bar), an object with .points/.bar, or analyze's JSON dict."""
    if isinstance(out, dict):
        points, bar = out["points"], out["bar"]
    elif hasattr(out, "points"):
        points, bar = out.points, out.bar
    else:
        points, bar = out
    if isinstance(bar, dict):
        bar = (bar["white"], bar["black"])
    elif hasattr(bar, "white"):
        bar = (bar.white, bar.black)
    if len(points) != 24:
        raise ValueError(f"a reading has 24 points, got {len(points)}")
    return tuple(points), (int(bar[0]), int(bar[1]))


@dataclass(frozen=True, slots=True)
class Tally:
    slots_right: int
    slots: int
    exact: int  # images with every labelled slot right
    images: int

    @property
    def per_slot(self) -> float:
        return self.slots_right / self.slots if self.slots else 0.0

    @property
    def exact_share(self) -> float:
        return self.exact / self.images if self.images else 0.0


@dataclass(frozen=True, slots=True)
class ReaderScore:
    overall: Tally
    per_board: dict[str, Tally]

    @property
    def boards_exact(self) -> float:
        """Share of boards whose every scored image was read exactly."""
        if not self.per_board:
            return 0.0
        return sum(t.exact == t.images for t in self.per_board.values()) / len(self.per_board)


def slot_hits(label: PhotoLabel, reading: Reading) -> tuple[int, int]:
    """Right and scored slots of one image; points the label cannot see are not scored."""
    points, bar = reading
    right = total = 0
    for want, got in zip(label.points, points, strict=True):
        if want is None:
            continue
        total += 1
        right += got == want
    total += 1
    right += tuple(bar) == label.bar
    return right, total


def score_reader(reader: Reader, labels: Iterable[PhotoLabel], root: Path | None = None,
                 only_checked: bool = True) -> ReaderScore:
    """Run `reader(image, corners)` on each photo and count slots (24 points + bar) and exact
    readings, overall and per board."""
    root = default_root() if root is None else root
    per_board: dict[str, list[int]] = {}
    for lab in labels:
        if only_checked and not lab.checked:
            continue
        right, total = slot_hits(lab, _as_reading(reader(read_image(lab, root), lab.corners)))
        t = per_board.setdefault(lab.board, [0, 0, 0, 0])
        t[0] += right
        t[1] += total
        t[2] += right == total
        t[3] += 1
    tallies = {b: Tally(*v) for b, v in sorted(per_board.items())}
    overall = Tally(*(sum(t[i] for t in per_board.values()) for i in range(4)))
    return ReaderScore(overall=overall, per_board=tallies)
