"""The calibration wizard's endpoints over loopback HTTP: session and origin first, refusals
keyed for the page, the real calibration on a rendered frame, the old one kept on failure."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.web.helpers import Site, running_site


def _flat(corners: list[list[float]]) -> list[float]:
    return [v for corner in corners for v in corner]


@pytest.fixture(scope="module")
def camera_site() -> Iterator[Site]:
    with running_site(camera=True) as site:
        yield site


def test_without_a_camera_frame_the_page_is_told_so(site: Site) -> None:
    # The real loop's controller, before the camera has sent a frame.
    token = site.login()
    corners = [[1, 1], [2, 1], [2, 2], [1, 2]]
    reply = site.post_json("/api/calibration/apply", {"corners": corners}, session=token)
    assert reply.status == 422
    assert reply.json()["key"] == "calibration.no_frame"
    found = site.post_json("/api/calibration/find", {}, session=token)
    assert found.status == 422 and found.json()["key"] == "calibration.no_frame"


def test_session_and_origin_come_first(camera_site: Site) -> None:
    body = {"corners": camera_site.camera.corners_list()}
    assert camera_site.post_json("/api/calibration/apply", body).status == 401
    token = camera_site.login()
    foreign = camera_site.post_json("/api/calibration/apply", body, session=token,
                                    origin="http://evil.example")
    assert foreign.status == 403
    assert camera_site.camera.installed == []
    assert camera_site.get("/api/calibration/overlay.jpg").status == 401


def test_bad_corners_are_refused_with_a_key(camera_site: Site) -> None:
    token = camera_site.login()
    reply = camera_site.post_json("/api/calibration/apply", {"corners": [[1, 2]]},
                                  session=token)
    assert reply.status == 400 and reply.json()["key"] == "calibration.bad_corners"
    outside = camera_site.post_json(
        "/api/calibration/apply",
        {"corners": [[0, 0], [5000, 0], [5000, 5000], [0, 5000]]}, session=token)
    assert outside.status == 422 and outside.json()["key"] == "calibration.bad_corners"


def test_calibrate_switches_and_a_failure_keeps_the_old_one(camera_site: Site) -> None:
    camera = camera_site.camera
    token = camera_site.login()
    good = camera_site.post_json("/api/calibration/apply", {"corners": camera.corners_list()},
                                 session=token)
    assert good.status == 200, good.body
    assert len(camera.installed) == 1
    overlay = camera_site.request("GET", "/api/calibration/overlay.jpg",
                                  headers={"Cookie": f"nardy_session={token}"})
    assert overlay.status == 200 and overlay.body[:2] == b"\xff\xd8"  # a JPEG
    view = camera_site.request("GET", "/api/calibration",
                               headers={"Cookie": f"nardy_session={token}"}).json()
    assert _flat(view["corners"]) == pytest.approx(_flat(camera.corners_list()))

    wrong = [[20, 20], [300, 30], [310, 300], [30, 290]]
    bad = camera_site.post_json("/api/calibration/apply", {"corners": wrong}, session=token)
    assert bad.status == 422
    answer = bad.json()
    assert answer["key"] == "calibration.mismatch" and 0 <= answer["params"]["agree"] < 24
    assert len(camera.installed) == 1  # the referee keeps reading with the old one
    view = camera_site.request("GET", "/api/calibration",
                               headers={"Cookie": f"nardy_session={token}"}).json()
    assert _flat(view["corners"]) == pytest.approx(_flat(camera.corners_list()))
