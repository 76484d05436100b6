"""Pure parts of the club: board names, topics, broker URLs, the `[club]` settings, the
page's table of boards and the checked snapshot behind each small board."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from nardy_pi.club.boards import BoardTable
from nardy_pi.club.broker_url import parse_broker_url
from nardy_pi.club.names import BoardTopic, parse_topic, state_topic, valid_board_name
from nardy_pi.club.snapshot import board_state, board_svg
from nardy_pi.config import parse_config
from nardy_pi.state import State


@pytest.mark.parametrize("name", ["a", "Table_7", "cafe-2", "x" * 32, "0"])
def test_good_board_names(name: str) -> None:
    assert valid_board_name(name)
    assert parse_topic(state_topic(name)) == BoardTopic(name, "state")


@pytest.mark.parametrize("name", ["", "x" * 33, "a b", "a/b", "a+", "#", "стол", "a.b", "a\n"])
def test_bad_board_names(name: str) -> None:
    assert not valid_board_name(name)
    with pytest.raises(ValueError, match="1-32 characters"):
        state_topic(name)
    assert isinstance(parse_topic(f"nardy/boards/{name}/state"), str)


def test_topics_that_are_not_a_board_state_or_status() -> None:
    for topic in ("nardy/boards/t1", "nardy/boards/t1/state/x", "nardy/boards/t1/score",
                  "other/t1/state", "nardy/boards//state"):
        assert isinstance(parse_topic(topic), str), topic


def test_broker_urls() -> None:
    plain = parse_broker_url("mqtt://club.local")
    assert (plain.host, plain.port, plain.tls, plain.username) == ("club.local", 1883, False,
                                                                     None)
    tls = parse_broker_url("mqtts://ann:p%40ss@10.0.0.2:9999?ca=/etc/ca.pem")
    assert (tls.host, tls.port, tls.tls) == ("10.0.0.2", 9999, True)
    assert (tls.username, tls.password, tls.ca_file) == ("ann", "p@ss", "/etc/ca.pem")
    assert str(tls) == "mqtts://ann@10.0.0.2:9999"  # no password in logs
    assert parse_broker_url("mqtts://h").port == 8883
    for bad, why in [("http://h", "mqtt:// or mqtts://"), ("mqtt://", "no host"),
                     ("mqtt://h:99999", "out of range"), ("mqtt://h/x", "path"),
                     ("mqtt://h?ca=/x", "needs mqtts"), ("mqtts://h?cert=/x", "unknown"),
                     ("h:1883", "mqtt://")]:
        with pytest.raises(ValueError, match=why):
            parse_broker_url(bad)


def test_club_settings() -> None:
    config = parse_config({"club": {"broker": "mqtt://127.0.0.1:1883", "board": "t1"}})
    assert config.club.board == "t1"
    assert parse_config({}).club.broker == ""
    with pytest.raises(ValueError, match=r"\[club\] board must name"):
        parse_config({"club": {"broker": "mqtt://h"}})
    with pytest.raises(ValueError, match=r"\[club\] board name 'a b'"):
        parse_config({"club": {"broker": "mqtt://h", "board": "a b"}})
    with pytest.raises(ValueError, match=r"\[club\] broker URL"):
        parse_config({"club": {"broker": "tcp://h", "board": "t1"}})
    with pytest.raises(ValueError, match="unknown key"):
        parse_config({"club": {"brokers": "mqtt://h"}})


@pytest.mark.parametrize("args, message", [
    (["run", "--broker", "mqtt://127.0.0.1:1", "--board", "bad name"], "board name"),
    (["run", "--broker", "ftp://x", "--board", "t1"], "mqtt://"),
    (["run", "--broker", "mqtt://127.0.0.1:1"], "board must name"),
    (["club", "--broker", "nonsense"], "mqtt://"),
    (["club", "--broker", "mqtts://127.0.0.1:1?ca=/nonexistent/ca.pem", "--port", "0"],
     "certificate authority file /nonexistent/ca.pem: No such file"),
])
def test_command_line_errors_are_one_line(args: list[str], message: str) -> None:
    proc = subprocess.run([sys.executable, "-m", "nardy_pi", *args], capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 2
    assert message in proc.stderr and proc.stderr.strip().count("\n") == 0, proc.stderr


def _state_json(**over: object) -> bytes:
    data = State(variant="backgammon", board="-" * 26, points=(2,) + (0,) * 22 + (-2,),
                 turn="white", phase="rolling", seq=4).to_json()
    data.update(over)
    return json.dumps(data).encode()


def test_board_table_keeps_status_and_newest_state() -> None:
    clock = iter(f"2026-01-01T00:00:0{i}.000Z" for i in range(10))
    table = BoardTable(clock=lambda: next(clock))
    table.receive("nardy/boards/t1/status", b"online")
    version, _ = table.snapshot()
    table.receive("nardy/boards/t1/state", _state_json())
    table.receive("nardy/boards/t2/state", _state_json(seq=9))
    changed = table.wait_changes(version, 0.1)
    assert changed is not None
    assert [e.board for e in changed[1]] == ["t1", "t2"]
    table.receive("nardy/boards/t2/status", b"offline")
    _, entries = table.snapshot()
    t1, t2 = (e.to_json() for e in entries)
    assert t1 == {"board": "t1", "status": "online", "state": json.loads(_state_json()),
                  "updated": "2026-01-01T00:00:01.000Z"}
    assert t2["status"] == "offline" and t2["state"]["seq"] == 9  # the last state stays
    assert table.wait_changes(table.snapshot()[0], 0.05) is None  # nothing newer
    # Only what changed since a version is handed to a stream.
    last = table.snapshot()[0]
    table.receive("nardy/boards/t1/state", _state_json(seq=5))
    assert [e.board for e in table.wait_changes(last, 0.1)[1]] == ["t1"]
    # Junk is counted and ignored.
    for topic, payload in [("nardy/boards/t1/state", b"[1,2]"), ("nardy/boards/t1/state",
                           b"\xff"), ("nardy/boards/t1/status", b"maybe"),
                           ("nardy/boards/no way/state", _state_json())]:
        assert table.receive(topic, payload) is None
    assert table.ignored == 4


def test_small_board_draws_only_checked_numbers() -> None:
    good = json.loads(_state_json(dice=[6, 5], last_move_points=[24, 18]))
    assert board_state(good) is not None
    assert board_svg(good).startswith("<svg") and 'data-value="6"' in board_svg(good)
    assert board_svg(None) == ""
    for bad in ({"points": "<script>"}, {"points": [0] * 23}, {"points": [True] * 24},
                {"turn": "<b>"}, {"cube_owner": "x"}, {"dice": [7]}, {"dice": "66"},
                {"cube_value": "2"}, {"white": {"borne_off": -1}}, {"white": []},
                {"last_move_points": [99]}):
        assert board_state({**good, **bad}) is None, bad
        assert board_svg({**good, **bad}) == ""
