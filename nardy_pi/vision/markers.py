"""Finding the surface corners without help: four ArUco markers, or the board outline.

Markers (DICT_4X4_50) ids 0, 1, 2, 3 sit outside the top_left, top_right, bottom_right and
bottom_left corners, upright, each printed on a white square with a margin of 20% of the
marker's side; the square's inner corner touches the surface corner (calibration/README.md).
"""

from __future__ import annotations

import cv2
import numpy as np

from nardy_pi.vision import geometry as g

ARUCO_DICT = cv2.aruco.DICT_4X4_50
# Which of a marker's own corners (TL, TR, BR, BL) faces the surface.
_INNER_CORNER = {0: 2, 1: 3, 2: 0, 3: 1}
MARGIN_RATIO = 0.2  # white margin around each marker, as a share of the marker's side


def find_marker_corners(image: np.ndarray) -> g.Corners | None:
    dictionary = cv2.aruco.getPredefinedDictionary(ARUCO_DICT)
    detector = cv2.aruco.ArucoDetector(dictionary, cv2.aruco.DetectorParameters())
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    corners, ids, _ = detector.detectMarkers(grey)
    if ids is None:
        return None
    found = {int(i): c.reshape(4, 2) for i, c in zip(ids.ravel(), corners, strict=True)}
    if not all(k in found for k in _INNER_CORNER):
        return None
    out = []
    for k in range(4):
        quad = found[k]
        i = _INNER_CORNER[k]
        c, n1, n2 = quad[i], quad[(i + 1) % 4], quad[(i + 3) % 4]
        # Step diagonally over the white margin, along the marker's own edges (perspective-safe
        # enough at this small distance).
        corner = c + MARGIN_RATIO * ((c - n1) + (c - n2))
        out.append((float(corner[0]), float(corner[1])))
    return tuple(out)


def _order(quad: np.ndarray) -> np.ndarray:
    """TL, TR, BR, BL as they appear in the image."""
    s, d = quad.sum(axis=1), quad[:, 0] - quad[:, 1]
    return np.array([quad[s.argmin()], quad[d.argmax()], quad[s.argmax()], quad[d.argmin()]])


def outline_candidates(image: np.ndarray, limit: int = 6) -> list[g.Corners]:
    """Large quadrilaterals shaped like the playing surface (13:11), largest first. The outer
    frame often qualifies too, so the caller checks each against the known position."""
    grey = cv2.GaussianBlur(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), (5, 5), 0)
    edges = cv2.dilate(cv2.Canny(grey, 40, 120), np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    area_min = 0.15 * image.shape[0] * image.shape[1]
    found: list[tuple[float, np.ndarray]] = []
    for contour in contours:
        hull = cv2.convexHull(contour)
        area = cv2.contourArea(hull)
        if area < area_min:
            continue
        quad = cv2.approxPolyDP(hull, 0.02 * cv2.arcLength(hull, True), True).reshape(-1, 2)
        if len(quad) != 4:
            continue
        q = _order(quad.astype(np.float64))
        width = (np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[2] - q[3])) / 2
        height = (np.linalg.norm(q[3] - q[0]) + np.linalg.norm(q[2] - q[1])) / 2
        ratio = width / max(height, 1.0) / (g.SURFACE_WIDTH / g.SURFACE_HEIGHT)
        if abs(ratio - 1) < 0.15 and all(
            np.abs(q - other).max() > 4 for _, other in found
        ):
            found.append((area, q))
    found.sort(key=lambda item: -item[0])
    return [tuple((float(x), float(y)) for x, y in q) for _, q in found[:limit]]


def aruco_sheet(marker_px: int = 400) -> np.ndarray:
    """A printable sheet: markers 0..3, each with its white margin inside a thin cut line, and
    its place written under it."""
    dictionary = cv2.aruco.getPredefinedDictionary(ARUCO_DICT)
    names = ("0: top_left", "1: top_right", "2: bottom_right", "3: bottom_left")
    margin = round(MARGIN_RATIO * marker_px)
    paper = marker_px + 2 * margin
    cell_w, cell_h = paper + 80, paper + 100
    sheet = np.full((2 * cell_h, 2 * cell_w), 255, np.uint8)
    for k, name in enumerate(names):
        r, c = divmod(k, 2)
        x, y = c * cell_w + 40, r * cell_h + 30
        cv2.rectangle(sheet, (x - 1, y - 1), (x + paper, y + paper), 160, 1)  # cut line
        sheet[y + margin : y + margin + marker_px, x + margin : x + margin + marker_px] = (
            cv2.aruco.generateImageMarker(dictionary, k, marker_px))
        cv2.putText(sheet, name, (x, y + paper + 45), cv2.FONT_HERSHEY_SIMPLEX, 1.2, 0, 2,
                    cv2.LINE_AA)
    return sheet
