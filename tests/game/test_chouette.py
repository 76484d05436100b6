"""Chouette: rotation, cubes, takes and passes, and scores that always sum to zero, over
scripted sessions and random ones (hypothesis)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nardy_pi.game import chouette as ch
from nardy_pi.game.chouette import (
    ChouetteAnswer,
    ChouetteDouble,
    ChouetteGameOver,
    ChouetteJoin,
    ChouetteLeave,
    ChouetteStarted,
)
from nardy_pi.game.errors import IllegalEventError


def run(events: list) -> ch.ChouetteState:
    state = ch.start(events[0])
    for event in events[1:]:
        state = ch.apply(state, event)
    return state


def scores(state: ch.ChouetteState) -> dict[str, int]:
    return dict(state.scores)


def test_a_scripted_session_with_one_cube() -> None:
    log: list = [ChouetteStarted(("Ann", "Ben", "Cat", "Dan"), "single")]
    state = run(log)
    assert (state.box, state.captain, state.line) == ("Ann", "Ben", ("Ben", "Cat", "Dan"))

    # Game 1: the box wins a single game against all three: he stays, Ben goes to the end.
    log.append(ChouetteGameOver("box"))
    state = run(log)
    assert scores(state) == {"Ann": 3, "Ben": -1, "Cat": -1, "Dan": -1}
    assert (state.box, state.captain, state.line) == ("Ann", "Cat", ("Cat", "Dan", "Ben"))
    assert state.game_number == 2

    # Game 2: the box doubles; Cat and Ben take, Dan passes and pays 1; the team wins a
    # gammon on the 2-cube: the box pays 4 to each taker and Cat, the captain, takes the box.
    log += [ChouetteDouble("Ann"), ChouetteAnswer("Cat", True), ChouetteAnswer("Dan", False)]
    mid = run(log)
    assert mid.offer is not None and mid.offer.answering == ("Ben",)
    assert mid.stake("Dan").out and mid.stake("Cat").cube == 2
    log += [ChouetteAnswer("Ben", True), ChouetteGameOver("team", 2)]
    state = run(log)
    assert scores(state) == {"Ann": -4, "Ben": 3, "Cat": 3, "Dan": -2}
    assert (state.box, state.captain, state.line) == ("Cat", "Dan", ("Dan", "Ben", "Ann"))
    assert state.games[-1].payments == (("Ann", -7), ("Ben", 4), ("Cat", 4), ("Dan", -1))

    # Game 3: the captain passes the box's double while the others take: Ben becomes
    # captain, Dan goes to the end; Ben redoubles, the box takes and wins (4 from each).
    log += [ChouetteDouble("Cat"), ChouetteAnswer("Dan", False), ChouetteAnswer("Ben", True),
            ChouetteAnswer("Ann", True)]
    mid = run(log)
    assert (mid.captain, mid.line) == ("Ben", ("Ben", "Ann", "Dan"))
    with pytest.raises(IllegalEventError, match="only the captain"):
        ch.apply(mid, ChouetteDouble("Ann"))
    log += [ChouetteDouble("Ben"), ChouetteAnswer("Cat", True)]
    mid = run(log)
    assert [(s.member, s.cube, s.owner) for s in mid.playing] == [("Ben", 4, "box"),
                                                                  ("Ann", 4, "box")]
    log.append(ChouetteGameOver("box"))
    state = run(log)
    assert scores(state) == {"Ann": -8, "Ben": -1, "Cat": 12, "Dan": -3}
    assert (state.box, state.captain, state.line) == ("Cat", "Ann", ("Ann", "Dan", "Ben"))

    # Game 4: everybody passes the box's double: the game is over at once, box stays.
    log += [ChouetteDouble("Cat"), ChouetteAnswer("Ann", False), ChouetteAnswer("Dan", False),
            ChouetteAnswer("Ben", False)]
    state = run(log)
    assert state.game_number == 5 and state.box == "Cat"
    assert scores(state) == {"Ann": -9, "Ben": -2, "Cat": 15, "Dan": -4}
    assert state.line == ("Dan", "Ben", "Ann")

    # Game 5: Eve joins at the end of the line (and plays this game: no cube turned yet);
    # the box passes the team's double: he pays each member 1 and loses the box.
    log += [ChouetteJoin("Eve"), ChouetteDouble("Dan"), ChouetteAnswer("Cat", False)]
    state = run(log)
    assert state.box == "Dan" and state.line == ("Ben", "Ann", "Eve", "Cat")
    assert scores(state) == {"Ann": -8, "Ben": -1, "Cat": 11, "Dan": -3, "Eve": 1}
    assert sum(scores(state).values()) == 0
    assert len(state.games) == 5

    # The log round-trips through JSON and replays to the same state.
    again = ch.replay([ch.event_from_json(ch.event_to_json(e)) for e in log])
    assert again == state
    shown = ch.summary(state)
    assert shown["box"] == "Dan" and shown["captain"] == "Ben"
    assert {"player": "Cat", "score": 11} in shown["scores"]


def test_one_cube_per_member() -> None:
    log: list = [ChouetteStarted(("Ann", "Ben", "Cat", "Dan"), "per_member")]
    # The box doubles Ben alone; Cat doubles the box on his own cube and the box passes.
    log += [ChouetteDouble("Ann", ("Ben",)), ChouetteAnswer("Ben", True),
            ChouetteDouble("Cat"), ChouetteAnswer("Ann", False)]
    mid = run(log)
    assert [(s.member, s.cube, s.owner, s.out) for s in mid.stakes] == [
        ("Ben", 2, "member", False), ("Cat", 1, "center", True), ("Dan", 1, "center", False)]
    assert scores(mid)["Cat"] == 1
    with pytest.raises(IllegalEventError, match="other side"):
        ch.apply(mid, ChouetteDouble("Ann", ("Ben",)))  # Ben owns his cube now
    log.append(ChouetteGameOver("box"))
    state = run(log)
    assert scores(state) == {"Ann": 2, "Ben": -2, "Cat": 1, "Dan": -1}
    assert state.box == "Ann" and state.line == ("Cat", "Dan", "Ben")

    # The box refuses the captain's double, then wins the board against the rest: he
    # collects from them but did not beat the captain, so the captain takes the box.
    log += [ChouetteDouble("Cat"), ChouetteAnswer("Ann", False)]
    mid = run(log)
    assert mid.roller == "Dan"  # the captain is out: the next member rolls for the team
    log.append(ChouetteGameOver("box"))
    state = run(log)
    assert scores(state) == {"Ann": 3, "Ben": -3, "Cat": 2, "Dan": -2}
    assert sum(scores(state).values()) == 0
    assert state.box == "Cat" and state.line == ("Dan", "Ben", "Ann")


def test_refusals_name_the_reason_and_change_nothing() -> None:
    state = run([ChouetteStarted(("Ann", "Ben", "Cat"))])
    for event, why in [
        (ChouetteDouble("Cat"), "only the captain"),
        (ChouetteAnswer("Ben", True), "no double to answer"),
        (ChouetteGameOver("both"), "box or the team"),
        (ChouetteGameOver("box", 4), "single"),
        (ChouetteJoin("Ben"), "already"),
        (ChouetteJoin(" "), "name"),
        (ChouetteJoin("Eve\r\nGame 2"), "printable"),
        (ChouetteJoin("Eve\x00"), "printable"),
        (ChouetteLeave("Ann"), "needs 3 players"),
        (ChouetteDouble("Zed"), "not playing"),
    ]:
        with pytest.raises(IllegalEventError, match=why):
            ch.apply(state, event)
    offered = ch.apply(state, ChouetteDouble("Ann"))
    for event, why in [(ChouetteDouble("Ben"), "waiting"),
                       (ChouetteGameOver("box"), "answer the double"),
                       (ChouetteAnswer("Ann", True), "no double")]:
        with pytest.raises(IllegalEventError, match=why):
            ch.apply(offered, event)
    bigger = ch.apply(ch.apply(state, ChouetteJoin("Dan")), ChouetteDouble("Ann"))
    with pytest.raises(IllegalEventError, match="finish it first"):
        ch.apply(bigger, ChouetteLeave("Ben"))
    for players, why in [(("A", "B"), "3-16"), (("A", "A", "B"), "name of his own"),
                         (("A", "B", "C\nD"), "printable")]:
        with pytest.raises(IllegalEventError, match=why):
            ch.start(ChouetteStarted(players))
    with pytest.raises(IllegalEventError, match="cube mode"):
        ch.start(ChouetteStarted(("A", "B", "C"), "two"))
    with pytest.raises(ValueError, match="not a chouette event"):
        ch.event_from_json('{"kind": "move"}')


NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")
events = st.one_of(
    st.builds(ChouetteDouble, st.sampled_from(NAMES),
              st.lists(st.sampled_from(NAMES), max_size=2, unique=True).map(tuple)),
    st.builds(ChouetteDouble, st.sampled_from(NAMES)),
    st.builds(ChouetteAnswer, st.sampled_from(NAMES), st.booleans()),
    st.builds(ChouetteGameOver, st.sampled_from(("box", "team")), st.integers(1, 3)),
    st.builds(ChouetteJoin, st.sampled_from(NAMES)),
    st.builds(ChouetteLeave, st.sampled_from(NAMES)),
)


@settings(max_examples=300, deadline=None)
@given(st.integers(3, 5), st.sampled_from(ch.CUBE_MODES), st.lists(events, max_size=60))
def test_scores_always_sum_to_zero(players: int, mode: str, tried: list) -> None:
    log: list = [ChouetteStarted(NAMES[:players], mode)]
    state = ch.start(log[0])
    for event in tried:
        try:
            state = ch.apply(state, event)
        except IllegalEventError:
            continue
        log.append(event)
        assert sum(scores(state).values()) == 0
        assert len(set(state.players)) == len(state.players) >= ch.MIN_PLAYERS
        assert state.box not in state.line and state.captain in state.line
        assert {s.member for s in state.stakes} <= set(state.line)
        assert all(s.cube in (1, 2, 4, 8, 16, 32, 64) for s in state.stakes)
        for record in state.games:
            assert sum(points for _, points in record.payments) == 0
    assert ch.replay(log) == state
