"""A command line loads only its own command module, and every command is still reachable."""

from __future__ import annotations

import argparse
import subprocess
import sys

from nardy_pi.cli import main as cli_main


def _commands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def test_every_command_maps_to_the_module_that_adds_it() -> None:
    everything = set(_commands(cli_main.build_parser()))
    assert everything == set(cli_main._MODULE_OF)
    for command, module in cli_main._MODULE_OF.items():
        assert command in _commands(cli_main.build_parser((module,)))


def test_only_the_named_command_is_loaded() -> None:
    assert cli_main._modules_for(["analyze", "x.png", "--json"]) == ("nardy_pi.cli.vision",)
    assert cli_main._modules_for(["--help"]) == cli_main._COMMAND_MODULES
    assert cli_main._modules_for(["analyse", "x.png"]) == cli_main._COMMAND_MODULES


def test_analyze_does_not_import_the_event_loop_or_the_rules_engine() -> None:
    code = (
        "import sys\n"
        "from nardy_pi.cli.main import main\n"
        "main(['analyze', '/nonexistent.png', '--json'])\n"
        "print(sorted(m for m in ('asyncio', 'flask', 'nardy_pi.web', 'nardy_pi.rules.movegen',"
        " 'torch') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
    assert "nonexistent.png" in out.stderr


def test_a_misspelt_command_still_lists_every_command() -> None:
    out = subprocess.run([sys.executable, "-m", "nardy_pi", "analyse"], capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 2
    assert "invalid choice" in out.stderr and "'moves'" in out.stderr
