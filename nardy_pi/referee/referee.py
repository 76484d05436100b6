"""The referee's state machine: settled observations and buttons in, `RefereeEvent`s out.

It keeps the record the board is checked against: the position, whose turn, the dice. Cube
and score belong to the match; the app tells the referee when a game ended some other way
(`end_game`, e.g. a dropped double) and when a person corrected or undid something.

A move is judged only when it is finished: the dice are picked up, the confirm button is
pressed, another throw appears, or (for a board showing a complete legal play) the board has
stood still for `move_settle_seconds`. Until then any board is followed silently, so a checker
moved die by die or a hand over the board raises no alarm.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from nardy_pi.game.plays import movements_play
from nardy_pi.game.state import Phase
from nardy_pi.referee import events as ev
from nardy_pi.referee.board import (
    BoardKey,
    MoveMap,
    board_key,
    board_position,
    build_move_map,
    observed_position,
    view_key,
)
from nardy_pi.referee.decode import DEFAULT_RULE, DecodeRule, decode
from nardy_pi.referee.roll import HalfRule, judge_opening, judge_throw
from nardy_pi.referee.settle import DiceKey, Settler, dice_key
from nardy_pi.rules.errors import TooManyPlaysError
from nardy_pi.rules.inference import Diagnosis, infer
from nardy_pi.rules.movegen import PLAY_LIST_LIMIT, legal_plays
from nardy_pi.rules.play import Play
from nardy_pi.rules.position import Position
from nardy_pi.rules.settings import DEFAULT_SETTINGS, RuleSettings
from nardy_pi.rules.sides import Side
from nardy_pi.rules.variants import Variant, get_variant
from nardy_pi.vision.types import Observation

# Diagnoses that mean "the board is not this game any more" rather than "a rule was broken".
#: more distinct plays than this are not listed at a roll (a ladder of doubles can have
#: hundreds of thousands): the referee then judges each settled board by inference alone
REFEREE_PLAY_LIMIT = PLAY_LIST_LIMIT
DESYNC_CODES = frozenset({"checker_count", "opponent_disturbed", "wrong_side"})

#: above this many legal plays the part-way boards are not offered to the decoder (the move
#: map of a big double is costly; complete results and the record still are)
PARTIAL_BOARDS_LIMIT = 500

DESYNC_TEXT = {
    "board_changed": (
        "the board changed while waiting for a roll: put it back or correct the record",
        "позиция изменилась до броска: верните шашки или исправьте запись",
    ),
    "not_start": (
        "the board does not show the starting position",
        "на доске не начальная расстановка",
    ),
}


@dataclass(frozen=True, slots=True)
class RefereeSettings:
    settle_frames: int = 2  # identical frames in a row before a reading counts
    #: a board showing a complete legal play is taken as finished after standing this long
    #: (0 = only dice pick-up, the confirm button or the next throw finish a move)
    move_settle_seconds: float = 3.0
    #: a changed board while waiting for a roll becomes a desync after this long
    desync_seconds: float = 2.0
    #: does the opening winner play the two opening dice? None = by variant family
    #: (short nardy: yes; long nardy: he throws afresh, DIGEST §1.2)
    opening_dice_played: bool | None = None
    half_rule: HalfRule = "any"
    #: when a slot-by-slot reading stands against every board the game allows
    #: (referee/decode.py: a margin in nats and floors on what one slot can cost)
    decode_rule: DecodeRule = DEFAULT_RULE


class Referee:
    def __init__(
        self,
        variant: str | Variant = "backgammon",
        settings: RefereeSettings | None = None,
        rules: RuleSettings = DEFAULT_SETTINGS,
    ) -> None:
        self.variant = get_variant(variant)
        self.settings = settings or RefereeSettings()
        self.rules = rules
        self._settler = Settler(self.settings.settle_frames)
        self.position = Position.start(self.variant)
        self.phase = Phase.OPENING
        self.dice: tuple[int, int] | None = None
        self.desync: str | None = None  # code while the board disagrees with the record
        self.alarm: ev.IllegalMove | None = None
        self.last_desync: ev.Desync | None = None  # what the current desync is about
        self.history: list[ev.MovePlayed] = []
        self._rejected_dice: DiceKey | None = None  # dice already judged: not a new throw
        self._move_map: MoveMap | None = None  # built on first use: doubles make it costly
        self._plays: list[Play] = []
        # None: too many plays to list (a long ladder of doubles), judged one board at a time
        self._results: frozenset[tuple[int, ...]] | None = frozenset()
        self._board: BoardKey | None = None  # last settled board
        self._board_since = 0.0
        self._dice_now: DiceKey = ()  # dice lying with the last settled board
        self._dice_armed = False  # the dice of this move were seen: picking them up finishes
        self._ignore_board: BoardKey | None = None  # an undone play's board: no auto-accept
        self._reopenable = False  # last move finished by the timer, its dice still lie there
        self._progress: tuple[int | None, tuple[int, ...]] = (None, ())
        self._last_on_the_way: tuple[int, ...] | None = None  # for reading a lifted checker
        #: the match engine's game number this referee follows (see `follow`)
        self.game_number = 1
        #: gulbar: the opponent plays the movements the mover left; no throw of its own
        self._movements = False
        self._stale_dice: DiceKey | None = None  # dice lying from the previous throw
        self._setup_pending = False  # the engine began the next game; the board is not set up
        self._allowed: tuple[object, list[BoardKey]] = (None, [])  # decode's candidates, cached

    @property
    def plays(self) -> list[Play]:
        """The legal plays of the move being made (empty outside a move)."""
        return list(self._plays) if self.phase is Phase.MOVE else []

    @property
    def start_board(self) -> BoardKey:
        return board_key(Position.start(self.variant))

    # --- inputs ---------------------------------------------------------------------------------
    def observe(self, obs: Observation, now: float) -> list[ev.RefereeEvent]:
        taken = self.decoded(obs)
        settled = None if taken is None else self._settler.feed(taken)
        if settled is None:
            return self.tick(now)
        board = board_key(observed_position(settled, self.variant, self.position.turn))
        if board != self._board:
            self._board, self._board_since = board, now
        self._dice_now = dice_key(settled.dice)
        handler = {
            Phase.OPENING: self._on_opening,
            Phase.ROLL: self._on_roll,
            Phase.MOVE: self._on_move,
            Phase.GAME_OVER: self._on_game_over,
        }[self.phase]
        return handler(settled, board) + self.tick(now)

    def decoded(self, obs: Observation, rule: DecodeRule | None = None) -> Observation | None:
        """The reading as the referee takes it: snapped to the likeliest board the game allows
        when that is close (`rule`, the settings' by default; referee/decode.py), else as seen.

        A point out of view (None) is filled in from the allowed board that explains the rest
        of the frame; when none does, the frame yields no position (None), as an occluded
        one. Without the reader's probabilities only a whole reading is taken."""
        unseen = [i for i, c in enumerate(obs.points) if c is None]
        if obs.occluded or obs.point_probs is None:
            return None if unseen else obs
        probs = list(obs.point_probs)
        for i in unseen:  # no belief about what the camera does not see
            probs[i] = (1.0 / len(probs[i]),) * len(probs[i])
        filled = replace(obs, points=tuple(0 if c is None else c for c in obs.points))
        seen = board_key(observed_position(filled, self.variant, self.position.turn))
        allowed = self.allowed_boards()
        taken = decode(probs, seen, allowed, rule or self.settings.decode_rule)
        if not taken.snapped and (not unseen or taken.board not in allowed):
            return None if unseen else obs
        b = taken.board  # the allowed board whole: its borne-off counts too
        return replace(obs, points=b[:24], bar_white=b[24], bar_black=b[25], off_white=b[26],
                       off_black=b[27])

    def allowed_boards(self) -> list[BoardKey]:
        """Boards the game can show now: the record; in a move every legal result and the
        boards part-way through one (so a half-made move is not read as a finished one)."""
        key = (self.phase, self.position, self.dice)
        if self._allowed[0] == key:
            return self._allowed[1]
        allowed = [board_key(self.position)]
        if self.phase is Phase.MOVE:
            allowed += [board_key(p.result) for p in self._plays]
            if len(self._plays) <= PARTIAL_BOARDS_LIMIT:
                mover = self.position.turn
                allowed += [
                    board_key(Position.from_view(self.variant, mover, list(k[:26]),
                                                 list(k[26:])))
                    for k in self._map().next_steps
                ]
        elif self.phase is Phase.GAME_OVER:
            allowed.append(self.start_board)
        self._allowed = (key, allowed)
        return allowed

    def tick(self, now: float) -> list[ev.RefereeEvent]:
        """Timers: a standing complete play is finished; a standing change becomes a desync."""
        if self._board is None:
            return []
        standing = now - self._board_since
        if (
            self.phase is Phase.ROLL
            and self.desync is None
            and self._board != board_key(self.position)
            and standing >= self.settings.desync_seconds
        ):
            return [self._enter_desync("board_changed")]
        if (
            self.phase is Phase.MOVE
            and self.alarm is None
            and self.settings.move_settle_seconds > 0
            and standing >= self.settings.move_settle_seconds
            and self._board != self._ignore_board
            and self._is_complete_play(self._board)
        ):
            events = self._finish_move(self._board)
            self._reopenable = bool(self._dice_now) and self.phase is Phase.ROLL
            return events
        return []

    def confirm(self, now: float) -> list[ev.RefereeEvent]:
        """The confirm/next button: finish the move shown on the board, or start a new game."""
        if self.phase is Phase.MOVE and self._board is not None:
            return self._finish_move(self._board)
        if self.phase is Phase.GAME_OVER and self._board == self.start_board:
            return self._new_game()
        return []

    def undo(self) -> list[ev.RefereeEvent]:
        """Take the last play back in the record; its side plays the same dice again."""
        if not self.history:
            return []
        last = self.history.pop()
        self.position = last.before
        self._start_move(last.dice)
        self._ignore_board = board_key(last.after)
        self.alarm = None
        self.desync = None
        self._settler.forget()
        return [ev.Undone(last.side, last.dice, last.before)]

    def correct(
        self, position: Position, dice: tuple[int, int] | None = None
    ) -> list[ev.RefereeEvent]:
        """A person sets the record: this position, its side to move (and dice, if rolled)."""
        self.position = position
        self.alarm = None
        self.desync = None
        if dice is None:
            self.phase, self.dice, self._move_map = Phase.ROLL, None, None
            self._rejected_dice = self._dice_now or None
        else:
            self._start_move(dice)
        self._settler.forget()
        return [ev.Corrected(position, dice), ev.Resynced("corrected")]

    def end_game(self) -> None:
        """The game ended off the board (a dropped double, a resignation)."""
        self.phase, self.dice, self._move_map = Phase.GAME_OVER, None, None
        self.alarm = None
        self.desync = None
        self._settler.forget()

    def new_game(self) -> list[ev.RefereeEvent]:
        return self._new_game()

    def follow(
        self,
        game: int,
        phase: Phase,
        position: Position,
        dice: tuple[int, ...] | None,
        plays: Sequence[Play] | None,
        movements: bool = False,
        left_board: Position | None = None,
    ) -> None:
        """The match engine decided: its game, phase, position (turn = the side to act), dice
        and legal plays (None: too many to list, each board is judged by aimed inference)
        become the record the board is checked against. A gulbar extra
        throw, an opponent's left-over movements, a pass and an undo all arrive this way.
        `left_board`: the board an undone play left, which must not count as that play again.
        """
        if game > self.game_number:  # the engine ended the game (a drop, the last checker)
            self.game_number = game
            if self.phase is not Phase.GAME_OVER:
                self.end_game()
            self._setup_pending = True
        elif game < self.game_number:  # an undo reached back into the finished game
            self.game_number = game
            self._setup_pending = False
        if phase is Phase.MATCH_OVER or (self._setup_pending and self.phase is Phase.GAME_OVER):
            return  # the board is being set up again; the start position opens the next game
        if phase in (Phase.CUBE, Phase.RESIGN):
            phase = Phase.ROLL  # a question to answer: the board must stay as it is
        if (phase, position, dice) == (self.phase, self.position, self.dice):
            return
        self.position = position
        self.alarm = None
        self.desync = None
        if phase is Phase.MOVE and dice is not None:
            self._start_move(dice, plays, movements)
            if left_board is not None:
                self._ignore_board = board_key(left_board)
        else:
            self.phase, self.dice, self._move_map = phase, None, None
            self._movements = False
            self._rejected_dice = self._dice_now or None  # the dice lying are not a throw
        self._settler.forget()

    # --- phases ---------------------------------------------------------------------------------
    def _on_opening(self, obs: Observation, board: BoardKey) -> list[ev.RefereeEvent]:
        if board != self.start_board:
            if self.desync is None and not obs.dice:
                return [self._enter_desync("not_start")]
            return []
        out = self._clear_desync()
        if not obs.dice:
            self._rejected_dice = None
            return out
        key = dice_key(obs.dice)
        if key == self._rejected_dice:
            return out
        self._rejected_dice = key
        throw, white, black = judge_opening(obs.dice)
        if not throw.valid:
            return [*out, ev.RerollRequired(None, throw.reasons)]
        assert white is not None and black is not None
        if white == black:
            return [*out, ev.OpeningTie(white)]
        starter = Side.WHITE if white > black else Side.BLACK
        self.position = self.position.with_turn(starter)
        plays_opening = self.settings.opening_dice_played
        if plays_opening is None:
            plays_opening = self.variant.family == "backgammon"
        if not plays_opening:  # the starter throws afresh; these dice are not his throw
            self.phase = Phase.ROLL
            return [*out, ev.OpeningRolled(white, black, starter, None)]
        dice = (white, black) if starter is Side.WHITE else (black, white)
        self._start_move(dice)
        self._dice_armed = True
        return [*out, ev.OpeningRolled(white, black, starter, dice)]

    def _on_roll(self, obs: Observation, board: BoardKey) -> list[ev.RefereeEvent]:
        if board != board_key(self.position):
            if self._reopenable and self.history:  # a change of mind after the timer
                return self.undo() + self._on_move(obs, board)
            return []  # the tick turns a lasting change into a desync
        out = self._clear_desync()
        if not obs.dice:
            self._rejected_dice = None
            self._reopenable = False
            return out
        key = dice_key(obs.dice)
        if key == self._rejected_dice:
            return out
        self._rejected_dice = key
        self._reopenable = False
        side = self.position.turn
        throw = judge_throw(obs.dice, side, self.settings.half_rule)
        if not throw.valid:
            return [*out, ev.RerollRequired(side, throw.reasons)]
        dice = (throw.values[0], throw.values[1])
        self._start_move(dice)
        self._dice_armed = True
        return [*out, ev.RollAccepted(side, dice)]

    def _on_move(self, obs: Observation, board: BoardKey) -> list[ev.RefereeEvent]:
        assert self.dice is not None
        if self.alarm is not None or self.desync is not None:
            return self._recover(board)  # fixes are followed, not judged half-way
        if obs.dice and dice_key(obs.dice) == self._stale_dice:
            return self._follow(board)  # the previous throw still lies there (movements)
        if obs.dice:
            self._dice_armed = True
            if self._is_new_throw(obs):  # the next throw is there: this move is over
                out = self._finish_move(board)
                return out + (self._on_roll(obs, board) if self.phase is Phase.ROLL else [])
        elif self._dice_armed:  # dice picked up: the move is finished
            return self._finish_move(board)
        return self._follow(board)

    def _is_new_throw(self, obs: Observation) -> bool:
        """Valid dice showing other numbers than this move's (a bumped or lifted die is not)."""
        assert self.dice is not None
        throw = judge_throw(obs.dice, self.position.turn.opponent, "any")
        return throw.valid and sorted(throw.values) != sorted(self.dice)

    def _on_game_over(self, obs: Observation, board: BoardKey) -> list[ev.RefereeEvent]:
        if board == self.start_board and not obs.dice:
            return self._new_game()
        return []

    # --- moves ----------------------------------------------------------------------------------
    def _start_move(
        self, dice: tuple[int, ...], plays: Sequence[Play] | None = None, movements: bool = False
    ) -> None:
        self.phase = Phase.MOVE
        self.dice = dice  # type: ignore[assignment]  # movements may be more than two
        self._movements = movements
        self._stale_dice = self._dice_now if movements else None
        self._dice_armed = False
        self._ignore_board = None
        self._progress = (None, ())
        mover = self.position.turn
        try:
            if plays is None and movements:  # the engine found too many to list
                raise TooManyPlaysError(REFEREE_PLAY_LIMIT)
            if plays is None:
                plays = legal_plays(
                    self.position, (dice[0], dice[1]), self.variant, self.rules,
                    limit=REFEREE_PLAY_LIMIT,
                )
            self._plays = list(plays)
            self._results = frozenset(
                view_key(p.result, self.variant, mover) for p in self._plays
            )
        except TooManyPlaysError:
            # A ladder of doubles with too many plays to list: each settled board is judged
            # by inference, aimed at it (no hints of destinations for this roll).
            self._plays, self._results = [], None
        self._move_map = None
        self._last_on_the_way = view_key(self.position, self.variant, mover)

    def _view(self, board: BoardKey) -> tuple[int, ...]:
        mover = self.position.turn
        return view_key(board_position(board, mover), self.variant, mover)

    def _is_complete_play(self, board: BoardKey) -> bool:
        # A pass (no results) finishes only by dice pick-up or the confirm button.
        if self._results is None:
            assert self.dice is not None
            if board == board_key(self.position):
                return False
            after = board_position(board, self.position.turn)
            if self._movements:
                return self._unlisted_movements_play(after) is not None
            return infer(self.position, self.dice, after, self.variant, self.rules).legal
        return self._view(board) in self._results

    def _unlisted_movements_play(self, after: Position) -> Play | None:
        """Left-over movements too many to list: only the rest of a ladder can be (in order)."""
        assert self.dice is not None
        return movements_play(self.position, tuple(self.dice), self.variant, self.rules,
                              after, ordered=self.variant.doubles_ladder)  # fmt: skip

    def _map(self) -> MoveMap:
        if self._move_map is None:
            self._move_map = build_move_map(self.position, self._plays, self.variant,
                                            self.position.turn)
        return self._move_map

    def _follow(self, board: BoardKey) -> list[ev.RefereeEvent]:
        """A settled half-made move: report a lifted checker's destinations, judge nothing."""
        key = self._view(board)
        if key == self._last_on_the_way and self._progress == (None, ()):
            return []  # nothing moved yet: no need to map the move
        mover = self.position.turn
        move_map = self._map()
        if move_map.is_on_the_way(key):
            self._last_on_the_way = key
            lifted = None
        else:
            lifted = move_map.lifted(key, self._last_on_the_way)
        progress: tuple[int | None, tuple[int, ...]] = (None, ())
        if lifted is not None:
            white = mover is Side.WHITE
            src, dests = lifted
            progress = (
                self._physical(src, white),
                tuple(self._physical(p, white) for p in dests),
            )
        if progress == self._progress:
            return []
        self._progress = progress
        return [ev.MoveProgress(mover, progress[0], progress[1])]

    def _physical(self, own_point: int, white: bool) -> int:
        if own_point in (0, 25):  # off and bar keep their pseudo numbers
            return own_point
        return self.variant.own_to_physical(white, own_point)

    def _finish_move(self, board: BoardKey) -> list[ev.RefereeEvent]:
        assert self.dice is not None
        before = self.position
        if self._movements:  # left-over movements: no throw to diagnose against
            view = self._view(board)
            mover = before.turn
            if self._results is None:
                found = self._unlisted_movements_play(board_position(board, mover))
                if found is not None:
                    return self._clear_desync() + self._record(found)
            for play in self._plays:
                if view_key(play.result, self.variant, mover) == view:
                    return self._clear_desync() + self._record(play)
            return self._flag(Diagnosis("no_legal_play", {"dice": list(self.dice)}))
        result = infer(before, self.dice, board_position(board, before.turn), self.variant,
                       self.rules)
        if not result.legal:
            assert result.diagnosis is not None
            return self._flag(result.diagnosis)
        out = self._clear_desync()
        self.alarm = None
        return out + self._record(result.play)

    def _record(self, play: Play | None) -> list[ev.RefereeEvent]:
        assert self.dice is not None
        before = self.position
        mover = before.turn
        after = play.result if play is not None else before.with_turn(mover.opponent)
        done = ev.MovePlayed(mover, self.dice, play, before, after)
        self.history.append(done)
        self.position = after
        self.dice, self._move_map = None, None
        self._rejected_dice = self._dice_now or None  # the dice still lying are not a throw
        out: list[ev.RefereeEvent] = [done]
        if after.off[mover] >= self.variant.checkers:
            self.phase = Phase.GAME_OVER
            out.append(ev.GameFinished(mover))
        else:
            self.phase = Phase.ROLL
        return out

    def _flag(self, diagnosis: Diagnosis) -> list[ev.RefereeEvent]:
        assert self.dice is not None
        if diagnosis.code in DESYNC_CODES:
            if self.desync == diagnosis.code:
                return []
            self.desync = diagnosis.code
            self.last_desync = ev.Desync(
                diagnosis.code, diagnosis.message("en"), diagnosis.message("ru")
            )
            return [self.last_desync]
        alarm = ev.IllegalMove.from_diagnosis(self.position.turn, self.dice, diagnosis)
        if self.alarm == alarm:
            return []
        self.alarm = alarm
        return [alarm]

    def _recover(self, board: BoardKey) -> list[ev.RefereeEvent]:
        """After an alarm: the board put back, or turned into a legal play, ends it."""
        if board == board_key(self.position):
            out: list[ev.RefereeEvent] = [ev.AlarmCleared()] if self.alarm else []
            self.alarm = None
            self._dice_armed = False  # the dice are gone: the redo ends by timer or button
            return out + self._clear_desync()
        if self._is_complete_play(board):
            return self._finish_move(board)
        return []

    # --- desync and new games -------------------------------------------------------------------
    def _clear_desync(self) -> list[ev.RefereeEvent]:
        if self.desync is None:
            return []
        self.desync = None
        return [ev.Resynced("board_restored")]

    def _enter_desync(self, code: str) -> ev.Desync:
        self.desync = code
        en, ru = DESYNC_TEXT[code]
        self.last_desync = ev.Desync(code, en, ru)
        return self.last_desync

    def _new_game(self) -> list[ev.RefereeEvent]:
        self._setup_pending = False
        self.position = Position.start(self.variant)
        self.phase = Phase.OPENING
        self.dice, self._move_map = None, None
        self.history.clear()
        self._rejected_dice = None
        self.alarm = None
        self.desync = None
        self._settler.forget()
        return [ev.BoardReset()]
