"""Over HTTP against the real engine: undo steps back one event at a time across a take, a
double and a hand correction, saying which; a roll with no legal play passes the turn with
a clear message."""

from __future__ import annotations

from nardy_pi.rules.notation.board_field import format_board_field
from nardy_pi.rules.position import Position
from tests.web.helpers import Site


def undo(site: Site, token: str) -> dict:
    reply = site.post_json("/api/control/undo", {}, session=token)
    assert reply.status == 200, reply.body
    state = site.state()
    notice = next(a for a in state["alerts"] if a["code"] == "undone")
    return {"kind": notice["params"]["kind"], "state": state}


def test_undo_across_correction_take_and_double(site: Site) -> None:
    token = site.login()
    site.match.roll((3, 1))
    site.match.play(0)
    assert site.post_json("/api/control/cube", {"action": "double"}, session=token).status == 200
    assert site.post_json("/api/control/cube", {"action": "take"}, session=token).status == 200
    before = site.state()
    points = list(before["points"])
    points[11] += 1  # a black checker knocked from 12 to 11, set right by hand
    points[10] -= 1
    board = format_board_field(points, 0, 0)
    fixed = site.post_json("/api/control/correct_position", {"board": board, "turn": "black"},
                           session=token)
    assert fixed.status == 200, fixed.body
    assert site.state()["board"] == board

    first = undo(site, token)
    assert first["kind"] == "correction" and first["state"]["board"] == before["board"]
    assert first["state"]["cube_value"] == 2  # the take is still there
    second = undo(site, token)
    assert second["kind"] == "take" and second["state"]["phase"] == "cube_offered"
    third = undo(site, token)
    assert third["kind"] == "double" and third["state"]["cube_offered"] is False
    assert "black" in next(a for a in third["state"]["alerts"] if a["code"] == "undone")[
        "message_en"]
    fourth = undo(site, token)
    assert fourth["kind"] == "play" and fourth["state"]["turn"] == "white"


def test_a_roll_with_no_legal_play_passes_the_turn_with_a_message(site: Site) -> None:
    token = site.login()
    site.match.roll((3, 1))
    site.match.play(0)
    # White on the bar against a closed black home board (black's 1-6 = physical 19-24).
    points = [0] * 24
    for p in range(18, 24):
        points[p] = -2
    points[5] = 14
    board = format_board_field(points, 1, 0)
    reply = site.post_json("/api/control/correct_position",
                           {"board": board, "turn": "white", "off_black": 3}, session=token)
    assert reply.status == 200, reply.body
    assert site.state()["turn"] == "white"
    site.match.roll((6, 5))
    state = site.state()
    assert state["turn"] == "black" and state["phase"] == "rolling"
    notice = next(a for a in state["alerts"] if a["code"] == "no_legal_play_pass")
    assert "white cannot play 6-5" in notice["message_en"]
    assert state["moves"][-1]["text"] == "(no play)"
    # The dice statistics count every two-dice roll, the pass included.
    assert state["dice_stats"]["white"]["rolls"] == 1
    assert state["dice_stats"]["white"]["faces"] == [0, 0, 0, 0, 1, 1]
    assert state["dice_stats"]["all"]["reliable"] is False  # far too few rolls to judge
    assert state["points"] == list(Position(tuple(points), (1, 0), (0, 3)).points)
