"""Analysis extra: GNU Backgammon's neural net (gnubg-nn) on backgammon-family positions.

Install with `pip install nardy-pi[engine]`. The library is imported only when asked for;
without it every function raises `AnalysisUnavailable` with an install hint (a clear
message, never an ImportError). Long nardy has no such engine: asking is an error too.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType

from nardy_pi.rules.movegen import legal_plays, parse_dice
from nardy_pi.rules.notation.move_text import find_play
from nardy_pi.rules.play import Play, point_name
from nardy_pi.rules.position import Position
from nardy_pi.rules.variants import get_variant

INSTALL_HINT = "analysis needs the engine extra: pip install 'nardy-pi[engine]' (gnubg-nn)"


class AnalysisUnavailable(RuntimeError):
    """The engine is not installed, or the position is outside what it knows."""


def _engine() -> ModuleType:
    try:
        import gnubg_nn
    except ImportError:
        raise AnalysisUnavailable(INSTALL_HINT) from None
    return gnubg_nn


@dataclass(frozen=True, slots=True)
class Probabilities:
    """Cubeless outcome chances for the side to move (gnubg's 0-ply net)."""

    win: float
    win_gammon: float
    win_backgammon: float
    lose_gammon: float
    lose_backgammon: float

    @property
    def equity(self) -> float:
        """Cubeless money equity per unit stake."""
        lose = 1.0 - self.win
        return (self.win - lose + self.win_gammon - self.lose_gammon
                + self.win_backgammon - self.lose_backgammon)  # fmt: skip


@dataclass(frozen=True, slots=True)
class BestPlay:
    play: Play | None  # None: the roll cannot be played
    probabilities: Probabilities | None  # after the play, for the side that moved


@dataclass(frozen=True, slots=True)
class CubeAdvice:
    probabilities: Probabilities
    #: gnubg's match-play verdict with a centred cube (None in money play: gnubg-nn's cube
    #: evaluator covers match scores only)
    double: bool | None = None
    take: bool | None = None


def _board(position: Position, variant: str) -> list[list[int]]:
    v = get_variant(variant)
    if v.family != "backgammon":
        raise AnalysisUnavailable(f"the engine analyses the backgammon family only, not {v.name}")
    own, _ = position.view(v, position.turn)
    theirs, _ = position.view(v, position.turn.opponent)
    return [list(theirs[1:26]), list(own[1:26])]


def _probabilities(values: tuple[float, ...]) -> Probabilities:
    return Probabilities(*(float(x) for x in values[:5]))


def position_probabilities(position: Position, variant: str = "backgammon") -> Probabilities:
    gnubg = _engine()
    return _probabilities(gnubg.probabilities(_board(position, variant), 0))


def best_play(
    position: Position, dice: tuple[int, int] | str, variant: str = "backgammon"
) -> BestPlay:
    """gnubg's best play for the side to move, as one of our legal plays."""
    gnubg = _engine()
    roll = parse_dice(dice)
    board = _board(position, variant)
    plays = legal_plays(position, roll, variant)
    if not plays:
        return BestPlay(None, None)
    steps = gnubg.best_move(board, roll[0], roll[1])
    text = " ".join(f"{point_name(a)}/{point_name(b)}" for a, b in steps)
    play = find_play(plays, text)
    after = _board(play.result.with_turn(position.turn), variant)
    # After our move the opponent is on roll; gnubg evaluates for the side on roll.
    opp_view = gnubg.probabilities([after[1], after[0]], 0)
    w, wg, wb, lg, lb = (float(x) for x in opp_view[:5])
    return BestPlay(play, Probabilities(1.0 - w, lg, lb, wg, wb))


def cube_advice(
    position: Position,
    variant: str = "backgammon",
    match_length: int = 0,
    score: tuple[int, int] = (0, 0),
) -> CubeAdvice:
    """Chances for the side to move, and in match play gnubg's double/take verdict."""
    gnubg = _engine()
    board = _board(position, variant)
    probs = _probabilities(gnubg.probabilities(board, 0))
    if match_length <= 0:
        return CubeAdvice(probs)
    mover = position.turn
    us_away = max(1, match_length - score[mover])
    them_away = max(1, match_length - score[mover.opponent])
    gnubg.set.score(us_away, them_away)
    verdict = gnubg.evaluate_cube_decision(gnubg.key_of_board(board), 0, -1, b"O", 1)
    return CubeAdvice(probs, bool(verdict[0]), bool(verdict[1]))
