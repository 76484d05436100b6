"""The service files: shellcheck-clean installer whose dry run changes nothing, a unit with
the agreed properties, and a well-formed avahi service."""

from __future__ import annotations

import configparser
import os
import shutil
import stat
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SYSTEMD = ROOT / "systemd"
INSTALLER = SYSTEMD / "install.sh"
# Commands that would change the system; the dry run must call none of them.
MUTATING = (
    "apt-get", "useradd", "usermod", "install", "udevadm", "systemctl", "hostnamectl",
    "sed", "pip", "python3",
)  # fmt: skip


def _unit() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read(SYSTEMD / "nardy-pi.service")
    return parser


def test_shellcheck_is_clean() -> None:
    scripts = sorted(SYSTEMD.glob("*.sh"))
    assert scripts
    out = subprocess.run(
        ["shellcheck", "--severity=style", *map(str, scripts)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stdout + out.stderr


def test_installer_is_executable_bash() -> None:
    assert INSTALLER.stat().st_mode & stat.S_IXUSR
    assert INSTALLER.read_text().startswith("#!/usr/bin/env bash\n")


def _stub_path(tmp_path: Path) -> tuple[dict[str, str], Path]:
    """A PATH whose mutating commands only log that they were called."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "called.log"
    for name in MUTATING:
        stub = bin_dir / name
        stub.write_text(f'#!/bin/sh\necho "{name} $*" >> "{log}"\n')
        stub.chmod(0o755)
    env = dict(os.environ, PATH=f"{bin_dir}:{os.environ['PATH']}")
    return env, log


def test_dry_run_plans_every_step_and_changes_nothing(tmp_path: Path) -> None:
    env, log = _stub_path(tmp_path)
    out = subprocess.run(
        ["bash", str(INSTALLER), "--dry-run"],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert out.returncode == 0, out.stderr
    assert not log.exists(), log.read_text()
    plan = out.stdout
    assert "python3-picamera2" in plan
    assert "python3 -m venv --system-site-packages /opt/nardy-pi/venv" in plan
    assert "/etc/systemd/system/nardy-pi.service" in plan
    assert "/etc/avahi/services/nardy-pi.service" in plan
    assert "systemctl enable nardy-pi.service" in plan
    assert "systemctl restart nardy-pi.service" in plan
    rule = ROOT / "hardware" / "99-nardy-strip.rules"
    if rule.exists():
        assert "/etc/udev/rules.d/99-nardy-strip.rules" in plan
    else:
        assert "99-nardy-strip.rules not found" in out.stderr


def test_dry_run_with_no_enable_does_not_start_the_service(tmp_path: Path) -> None:
    env, _ = _stub_path(tmp_path)
    out = subprocess.run(
        ["bash", str(INSTALLER), "--dry-run", "--no-enable", "--keep-hostname"],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert out.returncode == 0, out.stderr
    assert "nardy-pi.service" in out.stdout
    assert "systemctl enable nardy-pi.service" not in out.stdout
    assert "hostnamectl" not in out.stdout


def test_bad_options_fail_with_one_line() -> None:
    for args in (["--frobnicate"], ["--hostname", "Bad_Name"], ["--hostname"]):
        out = subprocess.run(
            ["bash", str(INSTALLER), "--dry-run", *args], capture_output=True, text=True
        )
        assert out.returncode == 2, args
        assert len(out.stderr.strip().splitlines()) == 1, out.stderr
    helped = subprocess.run(["bash", str(INSTALLER), "--help"], capture_output=True, text=True)
    assert helped.returncode == 0 and "--dry-run" in helped.stdout


def test_unit_runs_as_dedicated_user_and_restarts_on_failure() -> None:
    unit = _unit()
    service = unit["Service"]
    assert service["User"] == "nardy"
    assert set(service["SupplementaryGroups"].split()) >= {"gpio", "video", "dialout"}
    assert service["Restart"] == "on-failure"
    assert service["KillSignal"] == "SIGTERM"
    assert service["ExecStart"].startswith("/opt/nardy-pi/venv/bin/nardy-pi run")
    assert unit["Install"]["WantedBy"] == "multi-user.target"
    # The installer and the unit must agree on where the venv is.
    assert 'VENV="$PREFIX/venv"' in INSTALLER.read_text()
    assert "PREFIX=/opt/nardy-pi" in INSTALLER.read_text()


def test_unit_passes_systemd_analyze() -> None:
    analyze = shutil.which("systemd-analyze")
    assert analyze, "systemd-analyze (package systemd) is needed for this test"
    out = subprocess.run(
        [analyze, "verify", str(SYSTEMD / "nardy-pi.service")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    # The only expected complaint on a build machine: the program is not installed here.
    complaints = [
        line
        for line in (out.stdout + out.stderr).splitlines()
        if line.strip() and "/opt/nardy-pi/venv/bin/nardy-pi is not executable" not in line
    ]
    assert complaints == []


def test_avahi_service_advertises_http_on_8080() -> None:
    root = ET.parse(SYSTEMD / "avahi-nardy-pi.service").getroot()
    assert root.tag == "service-group"
    service = root.find("service")
    assert service is not None
    assert service.findtext("type") == "_http._tcp"
    assert service.findtext("port") == "8080"


def test_installer_offers_gnu_backgammon_as_the_engine() -> None:
    """gnubg-nn has no arm64 wheel: on a Pi the engine is the gnubg program from apt."""

    def apt_line(*args: str) -> str:
        out = subprocess.run(["bash", str(INSTALLER), "--dry-run", *args],
                             capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        return next(line for line in out.stdout.splitlines() if "apt-get install" in line)

    assert "gnubg" in apt_line().split()
    assert "gnubg" not in apt_line("--no-engine").split()
