"""The `gnubg-nn` adapter: GNU Backgammon's neural nets as a Python package ([engine] extra).

The package offers no cubeful money equity, so `Evaluation.cubeful` stays None here and a
settlement uses the cubeless equity (the `gnubg` program adapter gives cubeful)."""

from __future__ import annotations

import importlib.util
from types import ModuleType

from nardy_pi.evaluation.types import CubeView, Evaluation
from nardy_pi.rules.play import Play
from nardy_pi.rules.position import BAR, OFF, Position
from nardy_pi.rules.variants import get_variant


def gnubg_board(position: Position) -> list[list[int]]:
    """gnubg's board: [side not on roll, side on roll], own points 1..24 then the bar."""
    v = get_variant("backgammon")
    mover, _ = position.view(v, position.turn)
    other, _ = position.view(v, position.turn.opponent)
    return [list(other[1:26]), list(mover[1:26])]


class GnubgNN:
    """The nets load on first use: they take ~37 MB, and a game that asks for no hint and
    settles nothing never needs them (`nardy-pi run` on a small Pi)."""

    name = "gnubg-nn"

    def __init__(self, module: ModuleType | None = None) -> None:
        self._module = module

    @classmethod
    def load(cls) -> GnubgNN | None:
        """The adapter when the package is installed (found, not yet imported), else None."""
        try:
            found = importlib.util.find_spec("gnubg_nn") is not None
        except (ImportError, ValueError):
            found = False
        return cls() if found else None

    @property
    def _nn(self) -> ModuleType:
        if self._module is None:
            try:
                import gnubg_nn
            except ImportError as exc:  # installed but broken: a failed evaluation
                raise RuntimeError(f"gnubg-nn does not load: {exc}") from None
            self._module = gnubg_nn
        return self._module

    def best_play(
        self, position: Position, dice: tuple[int, int], plays: list[Play]
    ) -> Play | None:
        v = get_variant("backgammon")
        _moves, key = self._nn.best_move(gnubg_board(position), dice[0], dice[1], b=1)
        mover, other = self._nn.boardfromkey(key)  # best_move gives the mover first
        own = [v.checkers - sum(mover), *mover[:24], mover[24]]
        opp = [0] * 26
        opp[OFF] = v.checkers - sum(other)
        opp[BAR] = other[24]
        for q in range(1, 25):  # the opponent's own point q is our own point 25 - q
            opp[25 - q] = other[q - 1]
        for play in plays:
            if play.result.view(v, position.turn) == (own, opp):
                return play
        return None

    def evaluate(self, position: Position, cube: CubeView) -> Evaluation:
        # 1 ply: at 0 ply the bear-off database gives no gammon chances at all.
        values = self._nn.probabilities(gnubg_board(position), 1)[:5]
        w, wg, wb, lg, lb = (float(x) for x in values)
        cubeless = 2 * w - 1 + wg - lg + wb - lb
        return Evaluation(w, wg, wb, lg, lb, cubeless, None)
