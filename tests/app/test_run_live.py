"""`nardy-pi run` (the demo table through real vision, referee, engine and web page) plays
every variant live: a New match from the panel switches referee, engine and table alike, and
the panel's Export opens in the real GNU Backgammon program with the same score."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

from nardy_pi.rules.variants import VARIANTS
from nardy_pi.vision.start_positions import start_field
from tests.app.test_run_smoke import control, free_port
from tests.records.gnubg_program import imported

PIN = "2468"
PER_VARIANT_S = 60.0


def get(port: int, path: str, cookie: str = "") -> bytes:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}",
                                     headers={"Cookie": cookie} if cookie else {})
    with urllib.request.urlopen(request, timeout=10) as reply:
        return reply.read()  # type: ignore[no-any-return]


def state(port: int) -> dict[str, Any]:
    return json.loads(get(port, "/api/state"))["state"]  # type: ignore[no-any-return]


def session_cookie(port: int) -> str:
    base = f"http://127.0.0.1:{port}"
    login = urllib.request.Request(f"{base}/api/login", json.dumps({"pin": PIN}).encode(),
                                   {"Content-Type": "application/json", "Origin": base},
                                   method="POST")
    with urllib.request.urlopen(login, timeout=5) as reply:
        return str(reply.headers["Set-Cookie"].split(";")[0])


def wait_until(port: int, test: Any, timeout: float) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    last: dict[str, Any] = {}
    while time.monotonic() < deadline:
        try:
            last = state(port)
        except OSError:
            time.sleep(0.5)
            continue
        if test(last):
            return last
        time.sleep(0.5)
    raise AssertionError(f"timed out; last state: phase {last.get('phase')}, variant "
                         f"{last.get('variant')}, alerts {last.get('alerts')}")


def test_every_variant_plays_live_and_the_export_opens_in_gnubg(tmp_path: Path) -> None:
    config = tmp_path / "nardy.toml"
    config.write_text(f'[game]\nvariant = "gulbar"\nmatch_length = 3\n[web]\npin = "{PIN}"\n')
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "nardy_pi", "run", "--config", str(config), "--duration", "900",
         "--port", str(port), "--host", "127.0.0.1"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        first = wait_until(port, lambda s: s["variant"] == "gulbar", 90)
        assert first["board"] == start_field("gulbar")
        order = ["gulbar", *(v for v in VARIANTS if v != "gulbar")]
        for variant in order:
            if variant != "gulbar":
                status, body = control(port, PIN, "new_match",
                                       {"variant": variant, "match_length": 3})
                assert status == 200, body
            # The referee judged the opening throw on the table and the engine accepted it.
            live = wait_until(port, lambda s, v=variant: s["variant"] == v
                              and s["phase"] not in ("opening", "idle"), PER_VARIANT_S)
            assert live["match_length"] == 3 and live["turn"] in ("white", "black")
        # Back to backgammon until plays are recorded, then the panel's Export.
        control(port, PIN, "new_match", {"variant": "backgammon", "match_length": 5})
        played = wait_until(port, lambda s: s["variant"] == "backgammon"
                            and len(s["moves"]) >= 2, 4 * PER_VARIANT_S)
        mat = get(port, "/api/export.mat", session_cookie(port)).decode()
        assert (" 5 point match" in mat and played["moves"][0]["text"].split()[0] in mat) \
            or "Game 1" in mat
        path = tmp_path / "panel.mat"
        path.write_text(mat, encoding="utf-8")
        games, score, _ = imported(path)
        now = state(port)
        assert score == (now["white"]["score"], now["black"]["score"])
        assert games == (now["game_number"] - 1 if now["phase"] != "match_over" else games)
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err[-3000:]
    assert "Traceback" not in err, err[-3000:]
