"""GNU Backgammon's move generator (gnubg-nn) on our positions.

gnubg's board is `[side not on roll, side on roll]`, each 25 counts in that side's own
numbering (index 0..23 = own points 1..24, index 24 = bar); borne-off checkers are implied.
Its generator ignores the layout, so any short-nardy variant (backgammon, nackgammon,
hypergammon) can be checked. A pass comes back as no move at all; we report the unchanged board.
"""

from __future__ import annotations

import gnubg_nn

from nardy_pi.rules.position import BAR, Position
from nardy_pi.rules.variants import get_variant
from tests.rules.reference.compare import BoardKey, board_key

GnubgBoard = list[list[int]]


def to_gnubg(position: Position, variant: str) -> GnubgBoard:
    v = get_variant(variant)
    mover, _ = position.view(v, position.turn)
    other, _ = position.view(v, position.turn.opponent)
    return [other[1:26], mover[1:26]]


def from_gnubg(board: tuple[tuple[int, ...], ...], before: Position, variant: str) -> BoardKey:
    """The board gnubg reached from `before` (same orientation: the mover is board[1])."""
    v = get_variant(variant)
    other_side, mover_side = board
    own = [v.checkers - sum(mover_side), *mover_side]
    # `from_view` wants the opponent's checkers in the mover's numbering (own p = their 25-p).
    opp = [0] * 26
    opp[0] = v.checkers - sum(other_side)
    opp[BAR] = other_side[24]
    for q in range(1, 25):
        opp[25 - q] = other_side[q - 1]
    return board_key(Position.from_view(v, before.turn, own, opp))


def gnubg_results(position: Position, dice: tuple[int, int], variant: str) -> frozenset[BoardKey]:
    board = to_gnubg(position, variant)
    keys = gnubg_nn.moves(board, dice[0], dice[1])
    if not keys:
        return frozenset({board_key(position)})
    return frozenset(from_gnubg(gnubg_nn.boardfromkey(k), position, variant) for k in keys)
