"""The gnubg-nn nets load when first asked, not when the referee starts (`nardy-pi run` on a
small Pi): a game that asks for no hint never pays their memory."""

from __future__ import annotations

import subprocess
import sys

import pytest

pytest.importorskip("gnubg_nn", reason="the [engine] extra (gnubg-nn) is not installed")


def test_nets_load_on_the_first_evaluation_only() -> None:
    code = (
        "import sys\n"
        "from nardy_pi.evaluation import find_evaluator\n"
        "from nardy_pi.rules.position import Position\n"
        "nn = find_evaluator('gnubg-nn')\n"
        "print(nn.name, 'gnubg_nn' in sys.modules)\n"
        "from nardy_pi.evaluation.types import CubeView\n"
        "e = nn.evaluate(Position.start('backgammon'), CubeView())\n"
        "print('gnubg_nn' in sys.modules, round(e.win, 2))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    first, second = out.stdout.splitlines()
    assert first == "gnubg-nn False"
    loaded, win = second.split()
    assert loaded == "True" and 0.4 < float(win) < 0.6
