"""A picture of what was seen, for a person to check at a glance (`--overlay OUT.png`)."""

from __future__ import annotations

import cv2
import numpy as np

from nardy_pi.vision import geometry as g
from nardy_pi.vision.types import DieOnBoard, Observation

_WHITE_TEXT = (255, 255, 255)
_BLACK_TEXT = (30, 30, 30)
_FONT = cv2.FONT_HERSHEY_SIMPLEX


def _label(img: np.ndarray, text: str, at: np.ndarray, colour, scale: float) -> None:
    (w, h), _ = cv2.getTextSize(text, _FONT, scale, 1)
    org = (int(at[0] - w / 2), int(at[1] + h / 2))
    box_colour = (0, 0, 0) if colour == _WHITE_TEXT else (255, 255, 255)
    cv2.rectangle(img, (org[0] - 2, org[1] - h - 2), (org[0] + w + 2, org[1] + 3), box_colour, -1)
    cv2.putText(img, text, org, _FONT, scale, colour, 1, cv2.LINE_AA)


def die_verdict(die: DieOnBoard, reasons: tuple[str, ...]) -> str:
    """What the overlay writes by one die: "ok", or why it voids the throw."""
    why = []
    if not die.on_board:
        why.append("off board")
    elif die.on_checker:
        why.append("on checker")
    if not die.flat:
        why.append("cocked")
    if die.on_board and "split_halves" in reasons:
        why.append("split")
    return ", ".join(why) or "ok"


def draw_overlay(image: np.ndarray, h_board: np.ndarray, obs: Observation,
                 dice_boxes=(), cube_box=None) -> np.ndarray:
    out = image.copy()
    scale = max(0.35, image.shape[1] / 1600)
    outline = g.apply_homography(h_board, g.surface_corners())
    cv2.polylines(out, [np.round(outline).astype(np.int32)], True, (0, 255, 255), 2)
    for x in (g.BAR_X0, g.BAR_X1):
        line = g.apply_homography(h_board, np.array([[x, 0.0], [x, g.SURFACE_HEIGHT]]))
        cv2.line(out, tuple(np.round(line[0]).astype(int)), tuple(np.round(line[1]).astype(int)),
                 (0, 255, 255), 1, cv2.LINE_AA)
    for point, count in enumerate(obs.points, start=1):
        strip = g.point_strip(point)
        t = g.POINT_LENGTH + 0.35
        spot = (strip.base[0], strip.base[1] + strip.direction[1] * t)
        at = g.apply_homography(h_board, np.array([spot]))[0]
        colour = _WHITE_TEXT if count < 0 else _BLACK_TEXT
        _label(out, f"{point}:{abs(count)}" if count else f"{point}", at,
               colour if count else (0, 160, 255), scale)
    labels = [(f"bar W{obs.bar_white} B{obs.bar_black}", (6.5, 5.1))]
    if obs.off_white is not None:
        labels.append((f"off W{obs.off_white} B{obs.off_black}", (6.5, 5.9)))
    for text, spot in labels:
        _label(out, text, g.apply_homography(h_board, np.array([spot]))[0], (0, 0, 200), scale)
    for die, box in zip(obs.dice, dice_boxes, strict=False):
        verdict = die_verdict(die, obs.roll.reasons)
        colour = (0, 200, 0) if verdict == "ok" else (0, 0, 255)
        cv2.rectangle(out, (int(box[0]), int(box[1])), (int(box[2]), int(box[3])), colour, 2)
        text = f"{die.value if die.value is not None else '?'} {verdict}"
        cv2.putText(out, text, (int(box[0]), int(box[1]) - 4), _FONT, scale, colour, 1,
                    cv2.LINE_AA)
    if obs.cube is not None and cube_box is not None:
        x0, y0, x1, y1 = (int(v) for v in cube_box)
        cv2.rectangle(out, (x0, y0), (x1, y1), (255, 160, 0), 2)
        cv2.putText(out, f"cube {obs.cube.value}", (x0, y0 - 4), _FONT, scale, (255, 160, 0), 1,
                    cv2.LINE_AA)
    roll = "roll ok" if obs.roll.valid else "re-roll: " + ", ".join(obs.roll.reasons or ("-",))
    if not obs.dice:
        roll = "no dice"
    cube = "" if obs.cube is None else f"  cube {obs.cube.value} {obs.cube.position}"
    banner = ("OCCLUDED  " if obs.occluded else "") + roll + cube
    cv2.rectangle(out, (0, 0), (out.shape[1], int(28 * scale / 0.4)), (0, 0, 0), -1)
    cv2.putText(out, banner, (6, int(20 * scale / 0.4)), _FONT, scale * 1.3,
                (0, 0, 255) if obs.occluded else (255, 255, 255), 1, cv2.LINE_AA)
    return out
