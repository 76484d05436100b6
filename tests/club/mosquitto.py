"""A real Mosquitto for the tests: Debian's `mosquitto` binary on a free loopback port with
its own configuration file (no system service), optionally with TLS and a password file."""

from __future__ import annotations

import getpass
import shutil
import signal
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def require_mosquitto() -> None:
    if not Path(MOSQUITTO).exists():
        pytest.fail("mosquitto is not installed (apt-get install mosquitto; .ci/run does it)")


@dataclass
class Tls:
    ca: Path
    cert: Path
    key: Path


def make_tls(folder: Path) -> Tls:
    """A throwaway certificate authority and a server certificate for 127.0.0.1 (openssl)."""
    def run(*args: str) -> None:
        subprocess.run(["openssl", *args], cwd=folder, check=True, capture_output=True)

    run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=nardy test CA",
        "-keyout", "ca.key", "-out", "ca.pem")
    run("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1",
        "-keyout", "server.key", "-out", "server.csr")
    (folder / "ext.cnf").write_text("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
    run("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
        "-CAcreateserial", "-days", "1", "-extfile", "ext.cnf", "-out", "server.pem")
    return Tls(folder / "ca.pem", folder / "server.pem", folder / "server.key")


@dataclass
class Mosquitto:
    folder: Path
    port: int = field(default_factory=free_port)
    tls: Tls | None = None
    users: dict[str, str] = field(default_factory=dict)
    proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"{'mqtts' if self.tls else 'mqtt'}://127.0.0.1:{self.port}"

    def _write_config(self) -> Path:
        # Started as root, mosquitto would drop to user "mosquitto", who cannot read the
        # test's private folder; as anyone else this line changes nothing.
        lines = [f"user {getpass.getuser()}", f"listener {self.port} 127.0.0.1",
                 "persistence false",
                 f"log_dest file {self.folder / 'mosquitto.log'}", "log_type all"]
        if self.users:
            passwd = self.folder / "passwd"
            passwd.write_text("")
            for user, password in self.users.items():
                subprocess.run(["mosquitto_passwd", "-b", str(passwd), user, password],
                               check=True, capture_output=True)
            lines += ["allow_anonymous false", f"password_file {passwd}"]
        else:
            lines.append("allow_anonymous true")
        if self.tls:
            lines += [f"cafile {self.tls.ca}", f"certfile {self.tls.cert}",
                      f"keyfile {self.tls.key}"]
        conf = self.folder / "mosquitto.conf"
        conf.write_text("\n".join(lines) + "\n")
        return conf

    def start(self) -> None:
        require_mosquitto()
        conf = self._write_config()
        self.proc = subprocess.Popen([MOSQUITTO, "-c", str(conf)], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode() if self.proc.stderr else ""
                raise RuntimeError(f"mosquitto exited at start: {err[-500:]}")
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("mosquitto did not open its port within 10 s")

    def stop(self) -> None:
        if self.proc is None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)
        self.proc = None

    def freeze(self) -> None:
        """SIGSTOP: connections stay open but nothing is answered (a hung broker)."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGSTOP)

    def kill(self) -> None:
        """SIGKILL (also of a frozen broker): its connections drop at once."""
        if self.proc is None:
            return
        self.proc.kill()
        self.proc.wait(5)
        self.proc = None

    def log(self) -> str:
        path = self.folder / "mosquitto.log"
        return path.read_text(errors="replace") if path.exists() else ""
