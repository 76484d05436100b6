"""OpenSpiel's backgammon, played inside OpenSpiel, read back as our positions.

OpenSpiel has no set-position API, so we play seeded random games in it and compare at every
turn. Facts about its implementation this module relies on (open_spiel/games/backgammon):
- `state.board(player, pos)`, pos 0..23: player 1 ("o") moves 23 -> 0 and its own point is
  pos + 1; player 0 ("x") moves 0 -> 23 and its own point is 24 - pos. Both give physical
  point pos + 1, so "o" is our white and "x" our black. Bar and borne-off counts are in the
  observation tensor: after 2 x 24 x 4 board features come (bar, score, to-move) of the
  observing player and then of the opponent, then the two dice.
- An action plays at most two checker moves. A double is two decisions: after one that used
  both dice the same player moves again with the dice restored. The forced-move rule is
  applied per decision only, so a first half after which nothing can move is offered next to
  halves that lead to four moves; `turn_results` therefore reports how many dice each full
  turn used and the caller keeps the maximum (DIGEST §1.5 item 5).
- A roll that can only be played in part: a decision that moves one checker ends the turn
  (for a non-double OpenSpiel keeps only plays of the larger die when either die fits); a
  turn that cannot move at all is a single "Pass" action that leaves the board unchanged.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

import pyspiel

from nardy_pi.rules.position import Position
from nardy_pi.rules.sides import Side
from tests.rules.reference.compare import BoardKey, board_key

X_PLAYER = 0  # black
O_PLAYER = 1  # white
_FEATURES = 2 * 24 * 4  # per-point features of both players in the observation tensor


def load_game(hyper: bool = False) -> pyspiel.Game:
    return pyspiel.load_game("backgammon", {"hyper_backgammon": hyper})


def side_of(player: int) -> Side:
    return Side.WHITE if player == O_PLAYER else Side.BLACK


def position_of(state: pyspiel.State, turn: Side) -> Position:
    points = tuple(state.board(O_PLAYER, p) - state.board(X_PLAYER, p) for p in range(24))
    obs = state.observation_tensor(O_PLAYER)
    o_bar, o_off = int(obs[_FEATURES]), int(obs[_FEATURES + 1])
    x_bar, x_off = int(obs[_FEATURES + 3]), int(obs[_FEATURES + 4])
    return Position(points, (o_bar, x_bar), (o_off, x_off), turn)


def dice_of(state: pyspiel.State) -> tuple[int, int]:
    obs = state.observation_tensor(O_PLAYER)
    return int(obs[-2]), int(obs[-1])


def checker_moves(state: pyspiel.State, action: int) -> int:
    """How many checkers the action moves (0, 1 or 2; pass halves have num -1)."""
    player = state.current_player()
    return sum(1 for m in state.spiel_move_to_checker_moves(player, action) if m.num > 0)


def turn_results(state: pyspiel.State) -> dict[BoardKey, int]:
    """Every board a full turn can reach from this decision -> the most dice used to reach it.

    Enumerates the second decision of a double too, so the keys are full-turn outcomes.
    """
    player = state.current_player()
    turn = side_of(player)
    results: dict[BoardKey, int] = {}

    def record(after: pyspiel.State, used: int) -> None:
        key = board_key(position_of(after, turn))
        results[key] = max(used, results.get(key, 0))

    for action in state.legal_actions():
        used = checker_moves(state, action)
        child = state.child(action)
        if not child.is_terminal() and child.current_player() == player:
            for second in child.legal_actions():
                record(child.child(second), used + checker_moves(child, second))
        else:
            record(child, used)
    return results


def most_dice(results: dict[BoardKey, int]) -> frozenset[BoardKey]:
    """Apply "use as many dice as possible" across the two halves of a double."""
    best = max(results.values())
    return frozenset(k for k, used in results.items() if used == best)


@dataclass(frozen=True)
class Decision:
    """A turn start in an OpenSpiel game, converted, with OpenSpiel's full-turn outcomes."""

    position: Position
    dice: tuple[int, int]
    results: dict[BoardKey, int]
    state: pyspiel.State  # a copy at the decision, for timing OpenSpiel itself


def random_decisions(seed: int, count: int, hyper: bool = False) -> Iterator[Decision]:
    """Play seeded random games inside OpenSpiel; yield the first `count` turn starts."""
    rng = random.Random(seed)
    game = load_game(hyper)
    produced = 0
    while produced < count:
        state = game.new_initial_state()
        second_half = False
        while not state.is_terminal() and produced < count:
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, weights)[0])
                continue
            player = state.current_player()
            if not second_half:
                position = position_of(state, side_of(player))
                yield Decision(position, dice_of(state), turn_results(state), state.clone())
                produced += 1
            state.apply_action(rng.choice(state.legal_actions()))
            second_half = not state.is_terminal() and state.current_player() == player
