"""`nardy-pi run` end to end: the demo table through the real vision, referee, engine and web
page, for a few seconds, then a clean exit."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def control(port: int, pin: str, action: str, body: dict) -> tuple[int, dict]:
    base = f"http://127.0.0.1:{port}"
    headers = {"Content-Type": "application/json", "Origin": base}
    login = urllib.request.Request(f"{base}/api/login", json.dumps({"pin": pin}).encode(),
                                   headers, method="POST")
    with urllib.request.urlopen(login, timeout=5) as r:
        cookie = r.headers["Set-Cookie"].split(";")[0]
    request = urllib.request.Request(f"{base}/api/control/{action}", json.dumps(body).encode(),
                                     {**headers, "Cookie": cookie}, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def test_run_demo_serves_the_state_and_stops_cleanly(tmp_path) -> None:
    config = tmp_path / "nardy.toml"
    config.write_text('[strip]\nemulate = true\n[web]\npin = "2468"\n')
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "nardy_pi", "run", "--config", str(config), "--duration", "18",
         "--port", str(port), "--host", "127.0.0.1"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    states = []
    answers: list[tuple[int, dict]] = []
    deadline = time.monotonic() + 25
    while proc.poll() is None and time.monotonic() < deadline:
        time.sleep(1.0)
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=2) as r:
                states.append(json.loads(r.read())["state"])
        except OSError:
            continue
        if not answers:  # once: a panel action crossing from a web thread into the loop
            answers.append(control(port, "2468", "cube", {"action": "take"}))
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err[-2000:]
    assert "Traceback" not in err
    assert states, f"the web page never answered:\n{err[-2000:]}"
    last = states[-1]
    assert last["devices"]["camera"] == "ok"
    assert last["devices"]["strip"] == "ok"  # the firmware emulator on a pty
    assert last["devices"]["web"] == "ok"
    assert "gpio" in last["devices"]  # no GPIO header here: shown, not fatal
    # Nothing was offered, so "take" is refused with the engine's reason, not a crash.
    status, body = answers[0]
    assert status == 409 and body["code"] == "refused" and "take" in body["error"]
    # The demo's first game opens with a tied throw: the console says so in one short line.
    assert "opening dice show" in err
    assert " frames (" in err and "referee events" in err
    # A calm console: the banner (address, PIN, how to stop), then short lines only.
    assert f":{port}/" in err and "PIN 2468" in err and "Ctrl-C" in err
    assert max(len(line) for line in err.splitlines()[:-1]) <= 130


def test_run_rejects_bad_arguments_with_one_line() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "nardy_pi", "run", "--duration", "-1"],
        capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 2
    assert proc.stderr.strip().count("\n") == 0 and "duration" in proc.stderr
    missing = subprocess.run(
        [sys.executable, "-m", "nardy_pi", "run", "--config", "/nonexistent/nardy.toml"],
        capture_output=True, text=True, timeout=60,
    )
    assert missing.returncode == 2 and "not found" in missing.stderr
    assert "Traceback" not in missing.stderr
