"""The real-photo labels: their schema, their sanity, the folds, and the loader on the photos."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nardy_pi.vision.train import board_photos as bp

LABELS = bp.read_labels()
ROOT = bp.default_root()
needs_photos = pytest.mark.skipif(
    not (ROOT / "images").is_dir(),
    reason=f"board photos absent: {ROOT} (../shared/data/board-photos) not found")


def test_schema_of_the_json():
    raw = json.loads(bp.LABELS_FILE.read_text(encoding="utf-8"))
    assert raw["version"] == 1
    names = [lab.name for lab in LABELS]
    assert len(names) == len(set(names)) == 166
    for lab in LABELS:
        assert lab.board == lab.name.split(".rf.")[0]
        assert lab.reference.split(".rf.")[0] == lab.board
        assert len(lab.corners) == 4 and all(len(c) == 2 for c in lab.corners)
        assert len(lab.points) == 24
        assert all(p is None or (isinstance(p, int) and -15 <= p <= 15) for p in lab.points)
        assert all(0 <= n <= 15 for n in lab.bar)
        assert 0.0 < lab.bar_u[0] < lab.bar_u[1] < 1.0
        w, h = lab.size
        assert w > 0 and h > 0
        for die in lab.dice:
            x0, y0, x1, y1 = die.box
            assert x0 < x1 and y0 < y1
            assert die.value is None or 1 <= die.value <= 6
            assert die.half in (None, "left", "right")
            assert not (die.cube and die.value is not None)  # a cube never carries a die value
        assert lab.checked or lab.note, f"{lab.name}: unchecked without saying why"


def test_every_board_has_one_reference_and_it_is_checked_or_explained():
    boards = {lab.board for lab in LABELS}
    assert len(boards) == 29
    for board in boards:
        refs = [lab for lab in LABELS if lab.board == board and "reference" in lab.copy]
        assert len(refs) == 1
        assert refs[0].name == refs[0].reference


def test_fifteen_a_side_where_the_whole_board_shows():
    for lab in LABELS:
        if not (lab.checked and lab.whole_board):
            continue
        if lab.not_fifteen:
            continue  # flagged explicitly in the JSON
        assert lab.totals() == (15, 15), f"{lab.name}: {lab.totals()} without an explanation"


def test_copies_of_one_board_agree_where_both_see_a_point():
    by_board: dict[str, list[bp.PhotoLabel]] = {}
    for lab in LABELS:
        if lab.checked:
            by_board.setdefault(lab.board, []).append(lab)
    for labs in by_board.values():
        for a in labs:
            for b in labs:
                for pa, pb in zip(a.points, b.points, strict=True):
                    assert pa is None or pb is None or pa == pb


def test_the_labels_hold_the_hand_made_inputs():
    """board_photos_manual.json records what was placed and fixed by eye (data/README.md): each
    reference's corners, the counts fixed by eye on every copy that sees the point, and which
    boards are not trusted (a copy of a trusted board may still be untrusted: its homography
    failed). A label rebuilt from the upstream boxes must not lose them."""
    manual = json.loads((bp.LABELS_FILE.parent / "board_photos_manual.json").read_text())["boards"]
    assert set(manual) == {lab.board for lab in LABELS}
    for lab in LABELS:
        hand = manual[lab.board]
        trusted = hand.get("checked", True)
        if not trusted:
            assert not lab.checked, lab.name
        if "reference" in lab.copy:
            assert lab.checked == trusted, lab.name
            for got, want in zip(lab.corners, hand["corners"], strict=True):
                assert abs(got[0] - want[0]) <= 0.1 and abs(got[1] - want[1]) <= 0.1, lab.name
        for point, count in hand.get("fix", {}).items():
            assert lab.points[int(point) - 1] in (None, count), f"{lab.name}: point {point}"
        copy = hand.get("copies", {}).get(lab.name)
        if copy is not None:  # a copy whose carried corners were put right by eye
            for got, want in zip(lab.corners, copy["corners"], strict=True):
                assert abs(got[0] - want[0]) <= 0.1 and abs(got[1] - want[1]) <= 0.1, lab.name
            assert ("mirrored" in lab.copy) == copy["mirrored"], lab.name


def test_checked_labels_cover_most_boards():
    checked = {lab.board for lab in LABELS if lab.checked}
    assert len(checked) >= 25
    assert sum(lab.checked for lab in LABELS) >= 130


@pytest.mark.parametrize("k", [2, 5, 29])
def test_folds_never_share_a_board(k):
    folds = bp.board_folds(LABELS, k)
    assert len(folds) == k
    seen: set[str] = set()
    for fold in folds:
        test_boards = {lab.board for lab in fold.test}
        assert test_boards == set(fold.test_boards)
        assert not test_boards & {lab.board for lab in fold.train}
        assert not test_boards & seen
        seen |= test_boards
        assert len(fold.train) + len(fold.test) == len(LABELS)
    assert seen == {lab.board for lab in LABELS}


def test_folds_are_balanced_and_reject_a_bad_k():
    sizes = [len(f.test) for f in bp.board_folds(LABELS, 5)]
    assert max(sizes) - min(sizes) <= 6
    with pytest.raises(ValueError, match="between 2 and"):
        bp.board_folds(LABELS, 30)


def test_slot_hits_scores_points_the_label_sees_and_the_bar():
    lab = next(la for la in LABELS if la.checked and any(p is None for p in la.points))
    right, total = bp.slot_hits(lab, (list(lab.points), lab.bar))
    assert right == total == sum(p is not None for p in lab.points) + 1
    wrong = [0 if p is None else p + 1 for p in lab.points]
    right, total = bp.slot_hits(lab, (wrong, (lab.bar[0] + 1, lab.bar[1])))
    assert right == 0


def test_missing_folder_is_a_clear_error(tmp_path: Path):
    with pytest.raises(bp.PhotosMissing, match=str(tmp_path)):
        bp.load_board_photos(tmp_path)


@needs_photos
def test_loader_on_the_real_folder():
    from PIL import Image

    labels = bp.load_board_photos()
    assert len(labels) == 166
    for lab in labels:
        with Image.open(lab.image_path(ROOT)) as im:
            assert im.size == lab.size, lab.name


@needs_photos
def test_score_reader_on_the_photos():
    one_per_board = {}
    for lab in bp.load_board_photos():
        if lab.checked and lab.board not in one_per_board and lab.board < "image02":
            one_per_board[lab.board] = lab
    chosen = list(one_per_board.values())
    truth = {lab.corners: lab for lab in chosen}

    def oracle(image, corners):
        lab = truth[corners]
        assert image.shape[:2] == (lab.size[1], lab.size[0])
        return {"points": list(lab.points), "bar": {"white": lab.bar[0], "black": lab.bar[1]}}

    score = bp.score_reader(oracle, chosen)
    assert score.overall.per_slot == 1.0 and score.boards_exact == 1.0
    assert set(score.per_board) == set(one_per_board)

    empty = bp.score_reader(lambda image, corners: ([0] * 24, (0, 0)), chosen)
    assert empty.overall.per_slot < 0.9
    assert empty.overall.exact < len(chosen)


@needs_photos
def test_the_photos_checker_boxes_fall_on_their_labelled_points():
    """The boxes the training's pastes move (train/photo_pastes.py) agree with the per-point
    labels on most points, so an edited strip's count can be trusted where they agree."""
    import numpy as np

    from nardy_pi.vision.train.photo_frames import photo_frames
    from nardy_pi.vision.train.photo_pastes import boxes_agree, place_checkers
    from nardy_pi.vision.train.strip_data import cut_copy

    agree = known = 0
    for frame, _group in photo_frames():
        cut = cut_copy(frame, None)
        placed = place_checkers(cut.cutter.h_surface, cut.frame.layout, cut.frame.checkers)
        for slot in np.nonzero(frame.known[:24])[0]:
            known += 1
            agree += boxes_agree(placed.get(int(slot), []), int(frame.counts[slot]))
    assert known > 3000
    assert agree / known > 0.9


def _box_counts(lab: bp.PhotoLabel, boxes, corners) -> list[int]:
    """Signed counts on points 1..24 from the upstream checker boxes' centres (photo_pastes.
    read_checker_boxes), the surface placed by `corners` (data/README.md, step 2)."""
    import cv2
    import numpy as np

    from nardy_pi.vision.board.layout import SurfaceLayout
    from nardy_pi.vision.board.strips import map_points

    to_unit = cv2.getPerspectiveTransform(np.float32(corners),
                                          np.float32([[0, 0], [1, 0], [1, 1], [0, 1]]))
    centres = map_points(to_unit, (boxes[:, :2] + boxes[:, 2:4]) / 2)
    layout = SurfaceLayout(*lab.bar_u)
    counts = [0] * 24
    for (u, v), side in zip(centres, boxes[:, 4], strict=True):
        at = layout.slot_at(u, v)
        if at is not None and at[0] < 24:
            counts[at[0]] += int(side)
    return counts


@needs_photos
def test_every_checked_copy_is_placed_the_right_way_round():
    """Of the eight ways to hand a copy's four corners out (turns and mirrors), its own explains
    its upstream checker boxes at least as well as any other. A mirrored copy carried
    unmirrored passes the checker-centre check on a start position, whose rows look alike but
    for colour: image035's did, and its colours read back wrong, until it was put right."""
    from nardy_pi.vision.train.photo_pastes import read_checker_boxes

    turns = [tuple((i + r) % 4 for i in range(4)) for r in range(4)]
    orders = turns + [(t[1], t[0], t[3], t[2]) for t in turns]
    checked = [lab for lab in bp.load_board_photos() if lab.checked]
    for lab in checked:
        boxes = read_checker_boxes(ROOT / "labels" / f"{lab.name}.txt", *lab.size)

        def agree(order: tuple[int, ...], lab: bp.PhotoLabel = lab, boxes=boxes) -> int:
            got = _box_counts(lab, boxes, [lab.corners[i] for i in order])
            return sum(want == n for want, n in zip(lab.points, got, strict=True))
        own = agree((0, 1, 2, 3))
        best = max(orders, key=agree)
        assert own >= agree(best), f"{lab.name}: corners in order {best} explain its boxes better"
    assert len(checked) >= 130
