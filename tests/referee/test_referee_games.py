"""The referee end to end on scripted observation sequences: events it emits, and the ones it
must not emit (no false alarm while hands pass and checkers move die by die)."""

from __future__ import annotations

from nardy_pi.referee import Phase, Referee, RefereeSettings
from nardy_pi.referee import events as ev
from nardy_pi.rules.position import Position
from nardy_pi.rules.sides import Side
from tests.referee.table import Table, die, kinds

ALARMS = (ev.IllegalMove, ev.Desync, ev.RerollRequired)


def new_table(variant: str = "backgammon", **settings: object) -> Table:
    return Table.start(Referee(variant, RefereeSettings(**settings)))  # type: ignore[arg-type]


def only(events: list[ev.RefereeEvent], kind: type) -> list:
    return [e for e in events if isinstance(e, kind)]


def open_white_65(t: Table) -> None:
    t.frames()
    t.throw(die(6, "right"), die(5, "left"))


def test_legal_opening_and_moves_with_hands_passing_raise_no_alarm() -> None:
    t = new_table()
    open_white_65(t)
    assert only(t.events, ev.OpeningRolled) == [ev.OpeningRolled(6, 5, Side.WHITE, (6, 5))]
    t.hand(4)  # a hand hovering over the board
    t.move(24, 18, white=True)  # the same checker, die by die
    t.hand(3)
    t.move(18, 13, white=True)
    t.pick_up_dice()
    played = only(t.events, ev.MovePlayed)
    assert [p.notation for p in played] == ["24/13"]
    assert t.referee.position.turn is Side.BLACK

    # Black 3-1 makes his 5 point: own 8/5 6/5 = physical 17/20 19/20.
    t.throw(die(3), die(1))
    t.move(17, 20, white=False)
    t.hand(5)
    t.move(19, 20, white=False)
    t.pick_up_dice()
    # White 4-2 makes his 4 point.
    t.throw(die(4, "left"), die(2, "left"))
    t.move(8, 4, white=True)
    t.move(6, 4, white=True)
    t.pick_up_dice()
    assert [p.notation for p in only(t.events, ev.MovePlayed)] == ["24/13", "8/5 6/5", "8/4 6/4"]
    assert only(t.events, ev.RollAccepted) == [
        ev.RollAccepted(Side.BLACK, (3, 1)),
        ev.RollAccepted(Side.WHITE, (4, 2)),
    ]
    assert not [e for e in t.events if isinstance(e, ALARMS)]
    assert t.referee.phase is Phase.ROLL and t.referee.position.turn is Side.BLACK


def test_invalid_rolls_get_a_reroll_with_the_reason() -> None:
    t = new_table()
    open_white_65(t)
    t.move(24, 18, white=True)
    t.move(18, 13, white=True)
    t.pick_up_dice()
    cases = [
        ((die(3, "left"), die(1, "right")), ("split_halves",)),
        ((die(None, flat=False), die(2)), ("cocked",)),
        ((die(None), die(2)), ("unreadable",)),  # flat, top face not read
        ((die(4, half=None, on_board=False), die(2)), ("off_board",)),
        ((die(5, on_checker=True), die(2)), ("on_checker",)),
        ((die(5),), ("missing_die",)),
        ((die(5), die(2), die(3)), ("extra_die",)),
    ]
    for dice, reasons in cases:
        new = t.throw(*dice)
        assert only(new, ev.RerollRequired) == [ev.RerollRequired(Side.BLACK, reasons)], dice
        t.frames(5)  # the void throw is flagged once, not on every frame
        t.pick_up_dice()
    assert len(only(t.events, ev.RerollRequired)) == len(cases)
    new = t.throw(die(3), die(1))
    assert only(new, ev.RollAccepted) == [ev.RollAccepted(Side.BLACK, (3, 1))]


def test_opening_tie_and_same_half_mean_throw_again() -> None:
    t = new_table()
    t.frames()
    assert only(t.throw(die(4, "right"), die(4, "left")), ev.OpeningTie) == [ev.OpeningTie(4)]
    t.pick_up_dice()
    same = t.throw(die(2, "right"), die(5, "right"))
    assert only(same, ev.RerollRequired) == [ev.RerollRequired(None, ("same_half",))]
    t.pick_up_dice()
    opened = t.throw(die(2, "right"), die(5, "left"))
    assert only(opened, ev.OpeningRolled) == [ev.OpeningRolled(2, 5, Side.BLACK, (5, 2))]
    assert t.referee.position.turn is Side.BLACK and t.referee.phase is Phase.MOVE


def test_long_nardy_opening_winner_throws_afresh() -> None:
    t = new_table("long")
    t.frames()
    t.throw(die(3, "right"), die(6, "left"))
    assert only(t.events, ev.OpeningRolled) == [ev.OpeningRolled(3, 6, Side.BLACK, None)]
    t.frames(4)
    assert t.referee.phase is Phase.ROLL  # the lying opening dice are not black's throw
    t.pick_up_dice()
    assert only(t.throw(die(6), die(5)), ev.RollAccepted) == [ev.RollAccepted(Side.BLACK, (6, 5))]
    # Black's head is physical 12; he moves 12 -> 1 (own 24 -> 13): 6 then 5 = physical 12/1.
    t.move(12, 6, white=False)
    t.move(6, 1, white=False)
    t.pick_up_dice()
    assert [p.notation for p in only(t.events, ev.MovePlayed)] == ["24/13"]


def test_illegal_move_flagged_with_reason_then_corrected() -> None:
    t = new_table()
    open_white_65(t)
    t.move(24, 18, white=True)  # plays the 6 only, though the 5 can be played too
    new = t.pick_up_dice()
    alarms = only(new, ev.IllegalMove)
    assert len(alarms) == 1 and alarms[0].code == "die_unused"
    assert alarms[0].message_en and alarms[0].message_ru
    assert t.referee.phase is Phase.MOVE and not only(t.events, ev.MovePlayed)
    t.frames(10)
    assert len(only(t.events, ev.IllegalMove)) == 1  # said once, not on every frame
    fixed = t.move(18, 13, white=True)
    assert [p.notation for p in only(fixed, ev.MovePlayed)] == ["24/13"]
    assert t.referee.alarm is None and t.referee.phase is Phase.ROLL


def test_illegal_move_taken_back_clears_the_alarm_and_the_redo_is_not_judged_half_way() -> None:
    t = new_table()
    open_white_65(t)
    t.move(13, 6, white=True)  # 7 pips with one checker: no die shows 7
    t.pick_up_dice()
    assert [a.code for a in only(t.events, ev.IllegalMove)] == ["wrong_distance"]
    assert only(t.move(6, 13, white=True), ev.AlarmCleared) == [ev.AlarmCleared()]
    t.move(13, 7, white=True)  # half of the redo: no judgement
    t.wait(5)
    assert len(only(t.events, ev.IllegalMove)) == 1
    t.move(13, 8, white=True)
    t.wait(4)  # a complete legal play standing still is finished by the timer
    # The rules core's notation orders parts by start, then end, highest first.
    assert [p.notation for p in only(t.events, ev.MovePlayed)] == ["13/8 13/7"]


def test_desync_while_waiting_for_a_roll_and_recovery() -> None:
    t = new_table(desync_seconds=1.0)
    open_white_65(t)
    t.move(24, 18, white=True)
    t.move(18, 13, white=True)
    t.pick_up_dice()
    t.move(6, 5, white=True)  # someone knocks a white checker along
    t.wait(0.4)
    assert not only(t.events, ev.Desync)
    t.wait(1.2)
    assert [d.code for d in only(t.events, ev.Desync)] == ["board_changed"]
    assert t.referee.desync == "board_changed"
    t.throw(die(3), die(1))  # black throws anyway: not accepted on a wrong board
    assert not only(t.events, ev.RollAccepted)
    t.pick_up_dice()
    back = t.move(5, 6, white=True)
    assert only(back, ev.Resynced) == [ev.Resynced("board_restored")]
    assert only(t.throw(die(3), die(1)), ev.RollAccepted) == [ev.RollAccepted(Side.BLACK, (3, 1))]


def test_lost_checker_is_a_desync_not_an_illegal_move() -> None:
    t = new_table()
    open_white_65(t)
    t.move(24, 18, white=True)
    t.move(18, 13, white=True)
    saved = t.position
    pts = list(saved.points)
    pts[5] -= 1  # a white checker from the 6 point falls off the table
    t.position = Position(tuple(pts), saved.bar, saved.off)
    new = t.pick_up_dice()
    desync = only(new, ev.Desync)
    assert [d.code for d in desync] == ["checker_count"] and not only(new, ev.IllegalMove)
    t.position = saved
    restored = t.frames()
    assert [p.notation for p in only(restored, ev.MovePlayed)] == ["24/13"]
    assert only(restored, ev.Resynced) == [ev.Resynced("board_restored")]


def test_lifted_checker_reports_where_it_may_go() -> None:
    t = new_table()
    open_white_65(t)
    new = t.lift(24, white=True)
    # 24/19 is black's 6 point (5 checkers): only the 6 then the 5 are open: 18 and 13.
    assert only(new, ev.MoveProgress) == [ev.MoveProgress(Side.WHITE, 24, (18, 13))]
    t.put(18, white=True)
    t.lift(18, white=True)
    assert only(t.events, ev.MoveProgress)[-1] == ev.MoveProgress(Side.WHITE, 18, (13,))
    assert not [e for e in t.events if isinstance(e, ALARMS)]


def test_undo_then_confirm_records_the_play_again() -> None:
    t = new_table()
    open_white_65(t)
    t.move(24, 18, white=True)
    t.move(18, 13, white=True)
    t.pick_up_dice()
    undone = t.referee.undo()
    assert undone == [ev.Undone(Side.WHITE, (6, 5), Position.start("backgammon"))]
    t.wait(5)  # the board still shows the undone play: not taken again by itself
    assert len(only(t.events, ev.MovePlayed)) == 1
    t.move(13, 18, white=True)  # white changes his mind: 24/18 13/8 instead
    t.move(18, 24, white=True)
    t.move(24, 18, white=True)
    t.move(13, 8, white=True)
    again = t.referee.confirm(t.now)
    assert [p.notation for p in only(again, ev.MovePlayed)] == ["24/18 13/8"]


def test_manual_correction_resets_the_record() -> None:
    t = new_table(desync_seconds=1.0)
    open_white_65(t)
    t.move(24, 18, white=True)
    t.move(18, 13, white=True)
    t.pick_up_dice()
    t.move(6, 5, white=True)
    t.wait(2)
    assert t.referee.desync == "board_changed"
    board = Position(t.position.points, t.position.bar, t.position.off, Side.BLACK)
    fixed = t.referee.correct(board)
    assert fixed == [ev.Corrected(board), ev.Resynced("corrected")]
    t.wait(2)
    assert t.referee.desync is None
    assert only(t.throw(die(2), die(1)), ev.RollAccepted) == [ev.RollAccepted(Side.BLACK, (2, 1))]


def test_last_checker_off_finishes_the_game_and_a_new_setup_starts_the_next() -> None:
    t = new_table()
    t.frames()
    pts = [0] * 24
    pts[0] = 1  # white's last checker on his 1 point
    pts[23] = -2
    end = Position(tuple(pts), (0, 0), (14, 13), Side.WHITE)
    t.position = Position(end.points, end.bar, end.off)
    t.referee.correct(end)
    t.frames()
    t.throw(die(2), die(1))
    t.move(1, 0, white=True)
    done = t.pick_up_dice()
    assert kinds(done)[-2:] == ["MovePlayed", "GameFinished"]
    assert only(done, ev.GameFinished) == [ev.GameFinished(Side.WHITE)]
    t.position = Position.start("backgammon")
    assert only(t.frames(), ev.BoardReset) == [ev.BoardReset()]
    assert t.referee.phase is Phase.OPENING


def test_change_of_mind_after_the_timer_reopens_the_move() -> None:
    t = new_table(move_settle_seconds=1.0)
    open_white_65(t)
    t.move(24, 18, white=True)
    t.move(18, 13, white=True)
    t.wait(1.6)  # complete and standing: taken by the timer, dice still down
    assert [p.notation for p in only(t.events, ev.MovePlayed)] == ["24/13"]
    t.move(13, 18, white=True)  # white takes it back and plays 24/18 13/8 instead
    t.move(13, 8, white=True)
    assert only(t.events, ev.Undone) == [ev.Undone(Side.WHITE, (6, 5), Position.start())]
    t.pick_up_dice()
    assert [p.notation for p in only(t.events, ev.MovePlayed)] == ["24/13", "24/18 13/8"]
    assert not [e for e in t.events if isinstance(e, ALARMS)]
