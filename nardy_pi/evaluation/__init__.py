"""The evaluation engine behind the best-play hint and the settling of an abandoned game.

One interface (`Evaluator`), two real adapters: the `gnubg-nn` Python package where it
installs (`[engine]` extra; no arm64 wheel), and GNU Backgammon itself (Debian / Raspberry Pi
OS package `gnubg`) driven through its text mode everywhere else. `find_evaluator` picks
the first that works; without either, actions that need one are refused with a clear reason.
Both know the backgammon family only.
"""

from __future__ import annotations

import logging

from nardy_pi.errors import CommandRefused
from nardy_pi.evaluation.gnubg_cli import GnubgProgram
from nardy_pi.evaluation.gnubg_nn import GnubgNN
from nardy_pi.evaluation.types import (
    ENGINE_VARIANTS,
    CubeView,
    EngineChoice,
    Evaluation,
    Evaluator,
)
from nardy_pi.game.state import MatchState, Phase
from nardy_pi.rules.play import Play
from nardy_pi.rules.position import Position
from nardy_pi.rules.settings import RuleSettings
from nardy_pi.rules.sides import Side
from nardy_pi.rules.variants import get_variant

__all__ = ["ENGINE_VARIANTS", "CubeView", "EngineChoice", "Evaluation", "Evaluator",
           "GnubgNN", "GnubgProgram", "cube_view", "engine_best_play", "find_evaluator",
           "settle_game"]

log = logging.getLogger(__name__)

def find_evaluator(choice: EngineChoice = "auto", gnubg_path: str = "") -> Evaluator | None:
    """The engine to use: `choice`, or with "auto" gnubg-nn, then the gnubg program."""
    if choice == "none":
        return None
    if choice in ("auto", "gnubg-nn"):
        nn = GnubgNN.load()
        if nn is not None or choice == "gnubg-nn":
            return nn
    return GnubgProgram.find(gnubg_path)


def cube_view(state: MatchState) -> CubeView:
    game = state.game
    return CubeView(game.cube.value, game.cube.owner, state.match_length, state.score,
                    game.crawford, state.settings.jacoby)


def settle_game(evaluator: Evaluator | None, state: MatchState) -> tuple[Side, int]:
    """Who wins an abandoned game and at which level (1 single, 2 gammon, 3 backgammon).

    The side the engine's equity favours wins; the level is the equity rounded to whole
    points of the cube (at least 1, at most 3), as online rooms settle a game left after a
    disconnect. Cubeful equity where the engine gives it, cubeless otherwise.
    """
    if evaluator is None:
        raise CommandRefused("refusal.no_engine")
    game = state.game
    if game.phase not in (Phase.ROLL, Phase.MOVE) or game.turn is None:
        raise CommandRefused("refusal.no_game_to_settle")
    if get_variant(state.variant).name not in ENGINE_VARIANTS:
        raise CommandRefused("refusal.settle_variant", variant=state.variant)
    on_roll = game.turn
    try:
        result = evaluator.evaluate(game.position.with_turn(on_roll), cube_view(state))
    except (OSError, ValueError, RuntimeError) as exc:
        raise CommandRefused("refusal.engine_failed", detail=str(exc)) from None
    equity = result.equity
    winner = on_roll if equity >= 0 else on_roll.opponent
    level = max(1, min(3, round(abs(equity))))
    log.info("settled by %s: equity %+.3f for %s -> %s wins level %d", evaluator.name, equity,
             on_roll.label, winner.label, level)
    return winner, level


def engine_best_play(
    evaluator: Evaluator | None, position: Position, dice: tuple[int, int], variant: str,
    rules: RuleSettings, plays: list[Play],
) -> Play | None:
    """The engine's best play, or None (no engine, another variant, an engine failure)."""
    if evaluator is None or get_variant(variant).name not in ENGINE_VARIANTS or not plays:
        return None
    try:
        return evaluator.best_play(position, dice, plays)
    except (OSError, ValueError, RuntimeError) as exc:  # advice only: never break the game
        log.warning("%s best move failed: %s", evaluator.name, exc)
        return None
