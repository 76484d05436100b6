"""The whole club on loopback: a real Mosquitto, two `nardy-pi run` demo tables and
`nardy-pi club`, all as subprocesses. A table killed outright goes offline through its last
will, a cleanly stopped one says so itself, and both sides live through a broker restart."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.club.helpers import wait_for
from tests.club.mosquitto import Mosquitto, free_port


def get_json(url: str) -> Any:
    try:
        with urllib.request.urlopen(url, timeout=3) as r:
            return json.loads(r.read())
    except OSError:
        return None


class Procs:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.running: dict[str, subprocess.Popen[bytes]] = {}

    def start(self, name: str, *args: str) -> subprocess.Popen[bytes]:
        err = (self.folder / f"{name}.log").open("wb")
        proc = subprocess.Popen([sys.executable, "-m", "nardy_pi", *args],
                                stdout=subprocess.DEVNULL, stderr=err)
        self.running[name] = proc
        return proc

    def log(self, name: str) -> str:
        return (self.folder / f"{name}.log").read_text(errors="replace")

    def stop_all(self) -> None:
        for proc in self.running.values():
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)


@pytest.fixture
def procs(tmp_path: Path) -> Iterator[Procs]:
    made = Procs(tmp_path)
    yield made
    made.stop_all()


def test_tables_on_the_club_page_survive_kill_stop_and_broker_restart(
    broker: Mosquitto, procs: Procs
) -> None:
    club_port, t1_port, t2_port = free_port(), free_port(), free_port()
    procs.start("club", "club", "--broker", broker.url, "--port", str(club_port),
                "--host", "127.0.0.1")
    for name, port in (("t1", t1_port), ("t2", t2_port)):
        procs.start(name, "run", "--broker", broker.url, "--board", name, "--port", str(port),
                    "--host", "127.0.0.1")
    boards_url = f"http://127.0.0.1:{club_port}/api/boards"

    def tables() -> dict[str, dict]:
        data = get_json(boards_url)
        return {b["board"]: b for b in data["boards"]} if data else {}

    def both_playing() -> bool:
        seen = tables()
        return all(seen.get(n, {}).get("status") == "online" and seen[n]["state"]
                   and seen[n]["state"]["devices"]["camera"] == "ok" for n in ("t1", "t2"))

    wait_for(both_playing, 40, "both tables on the club page")
    data = get_json(boards_url)
    assert set(data) == {"boards"}
    for entry in data["boards"]:
        assert set(entry) == {"board", "status", "state", "updated"}
        assert entry["state"]["variant"] == "backgammon"
        assert set(entry["state"]["devices"]) >= {"camera", "club", "web"}
    # The club page serves the tables with their small boards.
    with urllib.request.urlopen(f"http://127.0.0.1:{club_port}/?lang=ru", timeout=5) as r:
        html = r.read().decode()
    assert 'lang="ru"' in html and "<title>Столы клуба</title>" in html
    initial = json.loads(html.split('<script id="initial" type="application/json">')[1]
                         .split("</script>")[0])
    assert {t["board"] for t in initial["tables"]} == {"t1", "t2"}
    assert all(t["board_svg"].startswith("<svg") for t in initial["tables"])

    # --- the broker goes away and comes back on the same port -------------------------------
    broker.stop()
    gone = wait_for(lambda: (s := get_json(f"http://127.0.0.1:{t1_port}/api/state"))
                    and s["state"]["devices"]["club"] == "reconnecting" and s, 10,
                    "t1 to show the lost link")
    assert gone["state"]["devices"]["camera"] == "ok"  # refereeing goes on meanwhile
    seq_while_down = gone["state"]["seq"]
    restarted = time.time()
    broker.start()  # a fresh broker: no retained message survived

    def back() -> bool:
        seen = tables()
        return all(
            seen.get(n, {}).get("status") == "online" and seen[n]["state"]
            and seen[n]["state"]["devices"]["club"] == "ok" for n in ("t1", "t2")
        )

    wait_for(back, 40, "both tables back on the club page after the broker restart")
    assert tables()["t1"]["state"]["seq"] >= seq_while_down  # the newest, not a stale one
    reconnected_after = time.time() - restarted

    # --- a table killed outright goes offline through its last will -------------------------
    procs.running["t2"].send_signal(signal.SIGKILL)
    killed = time.monotonic()
    wait_for(lambda: tables().get("t2", {}).get("status") == "offline", 10,
             "the killed table to go offline")
    offline_after = time.monotonic() - killed
    assert tables()["t1"]["status"] == "online"
    assert tables()["t2"]["state"] is not None  # its last snapshot stays on the page

    # --- a clean stop says offline itself ---------------------------------------------------
    procs.running["t1"].send_signal(signal.SIGTERM)
    assert procs.running["t1"].wait(20) == 0, procs.log("t1")[-2000:]
    wait_for(lambda: tables()["t1"]["status"] == "offline", 3, "the stopped table's goodbye")
    procs.running["club"].send_signal(signal.SIGTERM)
    assert procs.running["club"].wait(15) == 0, procs.log("club")[-2000:]
    for name in ("club", "t1"):
        assert "Traceback" not in procs.log(name), procs.log(name)[-3000:]
    print(f"\nbroker restart: tables back after {reconnected_after:.1f} s; "
          f"killed table offline after {offline_after:.2f} s")
