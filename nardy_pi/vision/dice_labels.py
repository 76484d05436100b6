"""Labelled dice photos (YOLO format) and scoring of detections against them.

Used by the dice benchmark, the model training script and the tests. A label box may cover a
whole die or only its top face, so a detection matches a label when the label's centre falls
inside the detection's box (nearest centre first), never by box overlap.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from nardy_pi.vision.types import DieReading

_MATCH_MARGIN = 3.0  # pixels of slack around a detection box


@dataclass(frozen=True, slots=True)
class DieLabel:
    """One labelled die: top-face value and its box in image pixels."""

    value: int
    center: tuple[float, float]
    size: tuple[float, float]


@dataclass(frozen=True, slots=True)
class LabelledPhoto:
    image_path: Path
    labels: tuple[DieLabel, ...]


def read_yolo_labels(path: Path, width: int, height: int) -> tuple[DieLabel, ...]:
    """Parse `CLASS CX CY W H` lines (normalised); class 0..5 is top face 1..6."""
    labels = []
    for line_no, line in enumerate(path.read_text().splitlines(), start=1):
        if not line.strip():
            continue
        parts = line.split()
        if len(parts) != 5:
            raise ValueError(f"{path}:{line_no}: expected 5 fields, got {len(parts)}")
        cls, cx, cy, w, h = int(parts[0]), *(float(v) for v in parts[1:])
        if not 0 <= cls <= 5:
            raise ValueError(f"{path}:{line_no}: class {cls} is not a die face 0..5")
        labels.append(DieLabel(cls + 1, (cx * width, cy * height), (w * width, h * height)))
    return tuple(labels)


def labelled_photos(folder: Path, width: int = 640, height: int = 480) -> list[LabelledPhoto]:
    """Every `*.jpg` in `folder` that has a label file beside it, sorted by name.

    The photo set is all 640x480; pass the size rather than decoding every image here.
    """
    photos = []
    for image_path in sorted(folder.glob("*.jpg")):
        label_path = image_path.with_suffix(".txt")
        if label_path.exists():
            photos.append(LabelledPhoto(image_path, read_yolo_labels(label_path, width, height)))
    return photos


@dataclass(frozen=True, slots=True)
class PhotoScore:
    """Outcome of one photo: (true, read) pairs for matched dice, misses, phantoms."""

    pairs: tuple[tuple[int, int | None], ...]
    missed: int
    phantoms: int


def score_photo(labels: Sequence[DieLabel], found: Sequence[DieReading]) -> PhotoScore:
    """Greedy centre matching: each label takes the nearest unused detection containing it."""
    candidates = []
    for li, label in enumerate(labels):
        lx, ly = label.center
        for di, die in enumerate(found):
            x0, y0, x1, y1 = die.box
            m = _MATCH_MARGIN
            if x0 - m <= lx <= x1 + m and y0 - m <= ly <= y1 + m:
                d2 = (lx - die.center[0]) ** 2 + (ly - die.center[1]) ** 2
                candidates.append((d2, li, di))
    used_labels: set[int] = set()
    used_dice: set[int] = set()
    pairs = []
    for _, li, di in sorted(candidates):
        if li in used_labels or di in used_dice:
            continue
        used_labels.add(li)
        used_dice.add(di)
        pairs.append((labels[li].value, found[di].value))
    return PhotoScore(
        pairs=tuple(pairs),
        missed=len(labels) - len(used_labels),
        phantoms=len(found) - len(used_dice),
    )


@dataclass(slots=True)
class Tally:
    """Running totals over many photos."""

    labelled: int = 0
    correct: int = 0
    missed: int = 0
    phantoms: int = 0
    per_face: Counter[int] = field(default_factory=Counter)
    per_face_correct: Counter[int] = field(default_factory=Counter)
    confusions: Counter[tuple[int, int | None]] = field(default_factory=Counter)

    def add(self, labels: Sequence[DieLabel], score: PhotoScore) -> None:
        self.labelled += len(labels)
        self.missed += score.missed
        self.phantoms += score.phantoms
        for label in labels:
            self.per_face[label.value] += 1
        for true, read in score.pairs:
            if true == read:
                self.correct += 1
                self.per_face_correct[true] += 1
            else:
                self.confusions[(true, read)] += 1

    @property
    def accuracy(self) -> float:
        """Correct reads over all labelled dice: a missed die counts as wrong."""
        return self.correct / self.labelled if self.labelled else 0.0

    def merge(self, others: Iterable[Tally]) -> None:
        for other in others:
            self.labelled += other.labelled
            self.correct += other.correct
            self.missed += other.missed
            self.phantoms += other.phantoms
            self.per_face.update(other.per_face)
            self.per_face_correct.update(other.per_face_correct)
            self.confusions.update(other.confusions)
