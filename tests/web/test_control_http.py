"""Control actions that are accepted change the published State as asked."""

from __future__ import annotations

from nardy_pi.records.mat_export import steps_text
from nardy_pi.rules.notation.board_field import format_board_field
from nardy_pi.rules.position import Position
from tests.web.helpers import Site


def test_new_match_switches_variant_and_resets(site: Site) -> None:
    token = site.login()
    site.match.roll((3, 1))
    site.match.play(0)
    reply = site.post_json(
        "/api/control/new_match",
        {"variant": "long", "match_length": 0, "white_name": "Ашот", "black_name": "Lena"},
        session=token,
    )
    assert reply.status == 200
    state = site.state()
    assert reply.json()["seq"] == state["seq"]
    assert state["variant"] == "long"
    assert state["match_length"] == 0
    assert state["moves"] == []
    assert state["white"]["name"] == "Ашот"
    assert state["points"] == list(Position.start("long").points)


def test_correct_position_applies_a_board_field(site: Site) -> None:
    token = site.login()
    start = Position.start("backgammon")
    # Move one white checker 6 -> 5 by hand: still 15 a side.
    points = list(start.points)
    points[5] -= 1
    points[4] += 1
    board = format_board_field(points, 0, 0)
    reply = site.post_json(
        "/api/control/correct_position", {"board": board, "turn": "black"}, session=token
    )
    assert reply.status == 200, reply.body
    state = site.state()
    assert state["board"] == board
    assert state["turn"] == "black"


def test_impossible_position_is_refused_with_its_reason(site: Site) -> None:
    token = site.login()
    before = site.state()
    points = list(Position.start("backgammon").points)
    points[0] = 3  # black's two checkers on point 1 replaced by three white ones
    board = format_board_field(points, 0, 0)
    reply = site.post_json(
        "/api/control/correct_position", {"board": board, "turn": "white"}, session=token
    )
    assert reply.status == 409
    assert "expected 15" in reply.json()["error"]
    assert site.state()["seq"] == before["seq"]


def test_undo_takes_back_the_last_play(site: Site) -> None:
    token = site.login()
    start_board = site.state()["board"]
    site.match.roll((6, 4))
    site.match.play(0)
    assert site.state()["board"] != start_board
    assert site.post_json("/api/control/undo", {}, session=token).status == 200
    assert site.post_json("/api/control/undo", {}, session=token).status == 200
    state = site.state()
    assert state["board"] == start_board
    assert state["moves"] == []
    nothing = site.post_json("/api/control/undo", {}, session=token)
    assert nothing.status == 409
    assert nothing.json()["error"] == "nothing to undo"
    assert nothing.json()["key"] == "refusal.nothing_to_undo"


def test_cube_double_and_take(site: Site) -> None:
    token = site.login()
    refused = site.post_json("/api/control/cube", {"action": "take"}, session=token)
    assert refused.status == 409
    assert refused.json()["key"] == "refusal.nothing_to_take"  # the page translates the key
    site.match.roll((3, 1))  # white wins the opening and plays it; black may double
    site.match.play(0)
    assert site.post_json("/api/control/cube", {"action": "double"}, session=token).status == 200
    offered = site.state()
    assert offered["cube_offered"] is True
    assert offered["phase"] == "cube_offered"
    assert site.post_json("/api/control/cube", {"action": "take"}, session=token).status == 200
    taken = site.state()
    assert (taken["cube_value"], taken["cube_owner"]) == (2, "white")
    bad = site.post_json("/api/control/cube", {"action": "redouble"}, session=token)
    assert bad.status == 400


def test_export_and_calibration(site: Site) -> None:
    token = site.login()
    site.match.roll((3, 1))
    played = site.match.play(0)
    cookie = {"Cookie": f"nardy_session={token}"}
    mat = site.get("/api/export.mat", cookie)
    assert mat.status == 200
    assert f"31: {steps_text(played)}" in mat.body.decode()  # gnubg writes every step
    corners = [[10, 20], [600, 22], [610, 470], [12, 460]]
    # The live referee recalibrates with `nardy-pi calibrate`, not from the panel: it says so.
    saved = site.post_json("/api/control/calibrate", {"corners": corners}, session=token)
    assert saved.status == 409 and saved.json()["key"] == "refusal.not_handled"
    info = site.get("/api/calibration", cookie).json()
    assert info["has_frame"] is False  # this table has no camera frames
    assert site.get("/api/calibration/frame.jpg", cookie).status == 404
    three = site.post_json("/api/control/calibrate", {"corners": corners[:3]}, session=token)
    assert three.status == 400
