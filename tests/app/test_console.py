"""What `nardy-pi run` prints: the banner, one short line per game event, and a busy port
said in words."""

from __future__ import annotations

import errno
import socket
import subprocess
import sys
from dataclasses import replace

from nardy_pi.app.console import banner, busy_port_message, event_lines, page_urls
from nardy_pi.state import Alert, MoveRecord, PlayerState, State


def _state(**kw) -> State:
    base = State(variant="backgammon", board="-" * 26, points=(0,) * 24, turn="white",
                 phase="rolling", white=PlayerState("Ашот", 0, 167, 0, 0),
                 black=PlayerState("Борис", 0, 167, 0, 0), devices={"camera": "ok"})
    return replace(base, **kw)


def test_banner_has_the_address_the_pin_and_how_to_stop() -> None:
    text = banner("demo table", "backgammon", ["http://10.0.0.5:8080/",
                                               "http://nardy.local:8080/"], "123456")
    assert "http://10.0.0.5:8080/" in text and "http://nardy.local:8080/" in text
    assert "PIN 123456" in text and "Ctrl-C" in text
    assert max(len(line) for line in text.splitlines()) < 80


def test_page_urls_name_the_local_name_on_every_interface() -> None:
    assert page_urls("127.0.0.1", 8080) == ["http://127.0.0.1:8080/"]
    urls = page_urls("0.0.0.0", 8080)
    assert urls[-1] == f"http://{socket.gethostname().split('.')[0]}.local:8080/"
    assert all(":8080/" in u and "127.0.0.1" not in u for u in urls)


def test_one_short_line_per_event() -> None:
    first = _state()
    lines = event_lines(None, first)
    assert lines == ["game 1: Ашот - Борис, money game, score 0:0"]
    rolled = replace(first, dice=(6, 5), phase="moving")
    assert event_lines(first, rolled) == ["Ашот (white) rolled 6-5"]
    moved = replace(rolled, dice=(), turn="black", moves=(MoveRecord(1, "white", (6, 5),
                                                                       "24/18 18/13"),))
    assert event_lines(rolled, moved) == ["Ашот (white) 65: 24/18 18/13"]
    alert = Alert("illegal_move", "x", "Moved too far " * 30, "…")
    noisy = replace(moved, alerts=(alert,), devices={"camera": "error"})
    lines = event_lines(moved, noisy)
    assert lines[-1] == "camera: error"
    assert all(len(line) <= 120 for line in lines)
    won = replace(noisy, winner="white", white=replace(noisy.white, score=2))
    assert "game 1 over: Ашот (white) wins; score 2:0" in event_lines(noisy, won)
    assert event_lines(won, won) == []


def test_busy_port_message() -> None:
    busy = OSError(errno.EADDRINUSE, "Address already in use")
    assert "already using it" in busy_port_message(busy, 8080)
    assert busy_port_message(OSError(errno.ENOENT, "x"), 8080) is None


def test_run_on_a_busy_port_says_so_in_one_line() -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        proc = subprocess.run(
            [sys.executable, "-m", "nardy_pi", "run", "--port", str(port), "--host",
             "127.0.0.1", "--duration", "5", "--quiet"],
            capture_output=True, text=True, timeout=120,
        )
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert f"port {port}" in proc.stderr and "already using it" in proc.stderr
    assert "Errno" not in proc.stderr and "Traceback" not in proc.stderr
