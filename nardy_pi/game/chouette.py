"""Chouette (DIGEST §2.1.10): three or more players, the box alone against a team whose
captain rolls and moves for it, rotating after every game.

A pure state machine like the match engine: `apply(state, event) -> state`, refusing an
illegal event with `IllegalEventError` and the reason. The board game itself is refereed as
an ordinary two-player game (the box on one side, the captain on the other); this module
keeps what the two-player engine cannot: every team member's stake against the box, the
cubes, each member's take or pass, the rotation and a running score per person.

Rules followed (the sources allow many local variations; these are the common ones):
- Order: `ChouetteStarted.players` is the rotation from the setup roll, highest first: the
  box, the captain, then the rest of the team. Newcomers join at the end of the line.
- Cubes: `single` — one team cube; the box's double is answered by each member for himself,
  those who pass pay and are out of the game; the team's double is turned by the captain and
  the box answers it for the whole team. `per_member` — each member has his own cube: the box
  may double members one by one, and each member may double the box by himself.
- A captain who passes while others play on: the next member still in the game becomes
  captain and the old captain goes to the end of the line (single cube). With one cube per
  member the captain stays the captain for the rotation (the box "keeps the box if he beats
  the captain") and the next member still in the game rolls for the team.
- Rotation after a game: a box who wins (against the captain) stays, the captain goes to the
  end of the line and the next member becomes captain; a box who loses goes to the end of
  the line and the captain becomes the box.
- Every payment moves points from one person to another, so the scores always sum to zero.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields, replace
from typing import Any, ClassVar, Literal

from nardy_pi.game.errors import IllegalEventError

CubeMode = Literal["single", "per_member"]
Owner = Literal["center", "box", "member"]
Winner = Literal["box", "team"]
CUBE_MODES = ("single", "per_member")
MIN_PLAYERS = 3
MAX_PLAYERS = 16
MAX_CUBE = 64
MAX_NAME = 32


# --- events (recorded in the log, JSON round trip) -----------------------------------------
@dataclass(frozen=True, slots=True)
class ChouetteStarted:
    kind: ClassVar[str] = "chouette_started"
    #: the rotation from the setup roll: box, captain, then the rest of the team
    players: tuple[str, ...]
    cube_mode: str = "single"


@dataclass(frozen=True, slots=True)
class ChouetteDouble:
    """The box doubles (`to`: the members doubled; empty = every member he may double), or a
    member doubles the box (single cube: the captain, for the whole team)."""

    kind: ClassVar[str] = "chouette_double"
    player: str
    to: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ChouetteAnswer:
    """A member answering the box's double, or the box answering a member's (or the team's)."""

    kind: ClassVar[str] = "chouette_answer"
    player: str
    take: bool


@dataclass(frozen=True, slots=True)
class ChouetteGameOver:
    """The board game ended: who won it and how much (1 single, 2 gammon/mars, 3 backgammon
    /koks), per unit of each stake's cube."""

    kind: ClassVar[str] = "chouette_game_over"
    winner: str  # "box" | "team"
    multiplier: int = 1


@dataclass(frozen=True, slots=True)
class ChouetteJoin:
    kind: ClassVar[str] = "chouette_join"
    player: str


@dataclass(frozen=True, slots=True)
class ChouetteLeave:
    kind: ClassVar[str] = "chouette_leave"
    player: str


ChouetteEvent = (
    ChouetteStarted | ChouetteDouble | ChouetteAnswer | ChouetteGameOver | ChouetteJoin
    | ChouetteLeave
)
CHOUETTE_EVENT_TYPES: dict[str, type] = {
    cls.kind: cls
    for cls in (ChouetteStarted, ChouetteDouble, ChouetteAnswer, ChouetteGameOver,
                ChouetteJoin, ChouetteLeave)
}


def event_to_dict(event: ChouetteEvent) -> dict[str, Any]:
    data: dict[str, Any] = {"kind": event.kind}
    for f in fields(event):
        value = getattr(event, f.name)
        data[f.name] = list(value) if isinstance(value, tuple) else value
    return data


def event_from_dict(data: Any) -> ChouetteEvent:
    """Inverse of `event_to_dict`; ValueError naming what is wrong."""
    cls = CHOUETTE_EVENT_TYPES.get(data.get("kind")) if isinstance(data, dict) else None
    if cls is None:
        raise ValueError(f"not a chouette event: {data!r}"[:200])
    names = {f.name for f in fields(cls)}
    values = {k: tuple(v) if isinstance(v, list) else v for k, v in data.items() if k in names}
    try:
        return cls(**values)  # type: ignore[no-any-return]
    except TypeError as exc:
        raise ValueError(f"bad {cls.kind} event: {exc}") from None


def event_to_json(event: ChouetteEvent) -> str:
    return json.dumps(event_to_dict(event), ensure_ascii=False, sort_keys=True,
                      separators=(",", ":"))


def event_from_json(text: str) -> ChouetteEvent:
    try:
        return event_from_dict(json.loads(text))
    except json.JSONDecodeError as exc:
        raise ValueError(f"chouette event is not JSON: {exc}") from None


# --- state ---------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Stake:
    """One team member's game against the box."""

    member: str
    cube: int = 1
    owner: Owner = "center"
    out: bool = False  # settled early by a pass (either way): no longer in this game


@dataclass(frozen=True, slots=True)
class Offer:
    doubler: str
    #: who still has to answer (members for the box's double, the box for a member's)
    answering: tuple[str, ...]
    #: the stakes the double is about
    members: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class GameRecord:
    number: int
    box: str
    captain: str
    winner: Winner
    #: person -> points won (+) or lost (-) in this game, passes included
    payments: tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class ChouetteState:
    cube_mode: CubeMode
    box: str
    #: the team in rotation order; the captain is first at the start of each game
    line: tuple[str, ...]
    captain: str
    stakes: tuple[Stake, ...]  # this game's, in line order
    scores: tuple[tuple[str, int], ...]  # everyone who ever played, in joining order
    offer: Offer | None = None
    game_number: int = 1
    games: tuple[GameRecord, ...] = ()
    #: payments already made in this game (passes), person -> points
    paid: tuple[tuple[str, int], ...] = ()
    cube_turned: bool = False  # any double offered in this game (joiners then wait)

    @property
    def players(self) -> tuple[str, ...]:
        return (self.box, *self.line)

    def score(self, player: str) -> int:
        return dict(self.scores)[player]

    def stake(self, member: str) -> Stake | None:
        return next((s for s in self.stakes if s.member == member), None)

    @property
    def playing(self) -> tuple[Stake, ...]:
        """Stakes still in the game."""
        return tuple(s for s in self.stakes if not s.out)

    @property
    def roller(self) -> str | None:
        """Who rolls and moves for the team now: the captain, or with one cube per member
        and the captain out, the next member still in the game."""
        stake = self.stake(self.captain)
        if stake is not None and not stake.out:
            return self.captain
        return self.playing[0].member if self.playing else None


def _check_name(name: Any) -> str:
    if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
        raise IllegalEventError(f"a player's name is 1-{MAX_NAME} characters, got {name!r}")
    if name != name.strip():
        raise IllegalEventError(f"a player's name has no surrounding spaces: {name!r}")
    if not name.isprintable():  # a line break would split the log's and the page's lines
        raise IllegalEventError(f"a player's name holds only printable characters: {name!r}")
    return name


def start(event: ChouetteStarted) -> ChouetteState:
    if not isinstance(event, ChouetteStarted):
        raise IllegalEventError("a chouette log must begin with chouette_started")
    players = tuple(_check_name(p) for p in event.players)
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise IllegalEventError(
            f"a chouette has {MIN_PLAYERS}-{MAX_PLAYERS} players, got {len(players)}"
        )
    if len(set(players)) != len(players):
        raise IllegalEventError("every player in a chouette needs a name of his own")
    if event.cube_mode not in CUBE_MODES:
        raise IllegalEventError(f"cube mode is single or per_member, not {event.cube_mode!r}")
    mode: CubeMode = "single" if event.cube_mode == "single" else "per_member"
    line = players[1:]
    return ChouetteState(
        cube_mode=mode, box=players[0], line=line, captain=line[0],
        stakes=tuple(Stake(m) for m in line), scores=tuple((p, 0) for p in players),
    )


def replay(events: list[ChouetteEvent]) -> ChouetteState:
    if not events:
        raise IllegalEventError("an empty log holds no chouette")
    state = start(events[0])  # type: ignore[arg-type]
    for event in events[1:]:
        state = apply(state, event)
    return state


def apply(state: ChouetteState, event: ChouetteEvent) -> ChouetteState:
    handler = _HANDLERS.get(type(event))
    if handler is None:
        raise IllegalEventError(f"{getattr(event, 'kind', event)!r} cannot happen in a chouette")
    return handler(state, event)


# --- payments ------------------------------------------------------------------------------
def _pay(state: ChouetteState, payer: str, payee: str, points: int) -> ChouetteState:
    """`payer` pays `payee`: both the running score and this game's tally."""
    scores = dict(state.scores)
    scores[payer] -= points
    scores[payee] += points
    paid = dict(state.paid)
    paid[payer] = paid.get(payer, 0) - points
    paid[payee] = paid.get(payee, 0) + points
    return replace(state, scores=tuple(scores.items()), paid=tuple(paid.items()))


def _set_stake(state: ChouetteState, member: str, **values: Any) -> ChouetteState:
    stakes = tuple(replace(s, **values) if s.member == member else s for s in state.stakes)
    return replace(state, stakes=stakes)


# --- doubles -------------------------------------------------------------------------------
def _may_double(stake: Stake, by_box: bool) -> str:
    """Why this stake's cube may not be turned by that side, or ""."""
    if stake.out:
        return f"{stake.member} is out of this game"
    holder = "box" if by_box else "member"
    if stake.owner not in ("center", holder):
        return f"{stake.member}'s cube is on the other side"
    if stake.cube * 2 > MAX_CUBE:
        return f"{stake.member}'s cube is at {stake.cube}, the highest"
    return ""


def _on_double(state: ChouetteState, event: ChouetteDouble) -> ChouetteState:
    if state.offer is not None:
        raise IllegalEventError("a double is waiting for its answer")
    if event.player == state.box:
        return _box_doubles(state, event.to)
    stake = state.stake(event.player)
    if stake is None:
        raise IllegalEventError(f"{event.player!r} is not playing this game")
    if event.to:
        raise IllegalEventError("only the box names whom he doubles")
    if state.cube_mode == "single":
        if event.player != state.captain:
            raise IllegalEventError(f"with one cube only the captain ({state.captain}) "
                                    "doubles for the team")
        members = tuple(s.member for s in state.playing)
    else:
        members = (event.player,)
    for member in members:
        why = _may_double(state.stake(member), by_box=False)  # type: ignore[arg-type]
        if why:
            raise IllegalEventError(f"{event.player} may not double: {why}")
    offer = Offer(event.player, (state.box,), members)
    return replace(state, offer=offer, cube_turned=True)


def _box_doubles(state: ChouetteState, to: tuple[str, ...]) -> ChouetteState:
    if state.cube_mode == "single":
        if to and set(to) != {s.member for s in state.playing}:
            raise IllegalEventError("with one cube the box doubles the whole team")
        targets = tuple(s.member for s in state.playing)
    else:
        targets = tuple(to) or tuple(
            s.member for s in state.playing if not _may_double(s, by_box=True)
        )
    if not targets:
        raise IllegalEventError("the box has nobody he may double")
    for member in targets:
        stake = state.stake(member)
        if stake is None:
            raise IllegalEventError(f"{member!r} is not playing this game")
        why = _may_double(stake, by_box=True)
        if why:
            raise IllegalEventError(f"the box may not double: {why}")
    return replace(state, offer=Offer(state.box, targets, targets), cube_turned=True)


def _on_answer(state: ChouetteState, event: ChouetteAnswer) -> ChouetteState:
    offer = state.offer
    if offer is None or event.player not in offer.answering:
        raise IllegalEventError(f"{event.player!r} has no double to answer")
    if not isinstance(event.take, bool):
        raise IllegalEventError("an answer is take (true) or pass (false)")
    if event.player == state.box:
        state = _box_answers(state, offer, event.take)
    else:
        state = _member_answers(state, offer, event.player, event.take)
    return _game_over_if_settled(state)


def _member_answers(state: ChouetteState, offer: Offer, member: str,
                    take: bool) -> ChouetteState:
    stake = state.stake(member)
    assert stake is not None
    if take:
        state = _set_stake(state, member, cube=stake.cube * 2, owner="member")
    else:  # a pass pays the cube as it was and leaves the game
        state = _pay(state, member, state.box, stake.cube)
        state = _set_stake(state, member, out=True)
    left = tuple(m for m in offer.answering if m != member)
    state = replace(state, offer=replace(offer, answering=left) if left else None)
    if not left and state.cube_mode == "single":
        state = _new_captain_if_out(state)
    return state


def _new_captain_if_out(state: ChouetteState) -> ChouetteState:
    """One cube: a captain who passed while others play on hands over to the next member
    still in the game and goes to the end of the line."""
    stake = state.stake(state.captain)
    if stake is None or not stake.out or not state.playing:
        return state
    old = state.captain
    line = (*(m for m in state.line if m != old), old)
    return replace(state, line=line, captain=state.playing[0].member)


def _box_answers(state: ChouetteState, offer: Offer, take: bool) -> ChouetteState:
    for member in offer.members:
        stake = state.stake(member)
        assert stake is not None
        if take:
            state = _set_stake(state, member, cube=stake.cube * 2, owner="box")
        else:
            state = _pay(state, state.box, member, stake.cube)
            state = _set_stake(state, member, out=True)
    return replace(state, offer=None)


def _captain_paid_box(state: ChouetteState) -> bool:
    """The captain's stake was settled by a pass in the box's favour."""
    return dict(state.paid).get(state.captain, 0) < 0


def _game_over_if_settled(state: ChouetteState) -> ChouetteState:
    """Every stake settled by passes: the game is over without a board result. The box
    keeps the box if he beat the captain (with one cube the captain is then the last one
    who passed, or the one whose double the box refused)."""
    if state.playing:
        return state
    return _rotate(state, "box" if _captain_paid_box(state) else "team")


# --- the end of a game ---------------------------------------------------------------------
def _on_game_over(state: ChouetteState, event: ChouetteGameOver) -> ChouetteState:
    if state.offer is not None:
        raise IllegalEventError("answer the double before the game can end")
    if event.winner not in ("box", "team"):
        raise IllegalEventError(f"the winner is the box or the team, not {event.winner!r}")
    if event.multiplier not in (1, 2, 3) or type(event.multiplier) is not int:
        raise IllegalEventError("a game is won single (1), gammon (2) or backgammon (3)")
    for stake in state.playing:
        points = stake.cube * event.multiplier
        if event.winner == "box":
            state = _pay(state, stake.member, state.box, points)
        else:
            state = _pay(state, state.box, stake.member, points)
    box_won = event.winner == "box"
    captain = state.stake(state.captain)
    if captain is not None and captain.out:  # one cube per member: the captain passed
        box_won = _captain_paid_box(state)  # he keeps the box if he beat the captain
    return _rotate(state, "box" if box_won else "team")


def _rotate(state: ChouetteState, winner: Winner) -> ChouetteState:
    """Book the game, turn the line and deal the next game's stakes."""
    paid = dict(state.paid)
    payments = tuple((p, paid.get(p, 0)) for p, _ in state.scores if paid.get(p, 0))
    record = GameRecord(state.game_number, state.box, state.captain, winner, payments)
    captain = state.captain
    rest = tuple(m for m in state.line if m != captain)
    if winner == "box":
        box, line = state.box, (*rest, captain)
    else:
        box, line = captain, (*rest, state.box)
    return ChouetteState(
        cube_mode=state.cube_mode, box=box, line=line, captain=line[0],
        stakes=tuple(Stake(m) for m in line), scores=state.scores,
        game_number=state.game_number + 1, games=(*state.games, record),
    )


# --- joining and leaving -------------------------------------------------------------------
def _on_join(state: ChouetteState, event: ChouetteJoin) -> ChouetteState:
    name = _check_name(event.player)
    if name in state.players:
        raise IllegalEventError(f"{name} is already in the chouette")
    if len(state.players) >= MAX_PLAYERS:
        raise IllegalEventError(f"a chouette has at most {MAX_PLAYERS} players")
    scores = state.scores if name in dict(state.scores) else (*state.scores, (name, 0))
    stakes = state.stakes if state.cube_turned else (*state.stakes, Stake(name))
    return replace(state, line=(*state.line, name), scores=scores, stakes=stakes)


def _on_leave(state: ChouetteState, event: ChouetteLeave) -> ChouetteState:
    name = event.player
    if name not in state.players:
        raise IllegalEventError(f"{name!r} is not in the chouette")
    if len(state.players) <= MIN_PLAYERS:
        raise IllegalEventError(f"a chouette needs {MIN_PLAYERS} players: nobody may leave")
    stake = state.stake(name)
    in_game = name == state.box or (stake is not None and not stake.out)
    if in_game and state.cube_turned:
        raise IllegalEventError(f"{name} is still in a game with a turned cube: finish it first")
    if name == state.box:
        box, line = state.captain, tuple(m for m in state.line if m != state.captain)
    else:
        box, line = state.box, tuple(m for m in state.line if m != name)
    captain = state.captain if state.captain in line else line[0]
    stakes = tuple(s for s in state.stakes if s.member in line)
    return replace(state, box=box, line=line, captain=captain, stakes=stakes)


_HANDLERS: dict[type, Any] = {
    ChouetteDouble: _on_double,
    ChouetteAnswer: _on_answer,
    ChouetteGameOver: _on_game_over,
    ChouetteJoin: _on_join,
    ChouetteLeave: _on_leave,
}


# --- what the scoreboard shows ---------------------------------------------------------------
def summary(state: ChouetteState) -> dict[str, Any]:
    """A JSON-ready picture for the scoreboard, the panel and the club page."""
    offer = state.offer
    return {
        "cube_mode": state.cube_mode,
        "game_number": state.game_number,
        "box": state.box,
        "captain": state.captain,
        "roller": state.roller,
        "line": list(state.line),
        "stakes": [{"member": s.member, "cube": s.cube, "owner": s.owner, "out": s.out}
                   for s in state.stakes],
        "offer": None if offer is None else {"doubler": offer.doubler,
                                              "answering": list(offer.answering),
                                              "members": list(offer.members)},
        "scores": [{"player": p, "score": s} for p, s in state.scores],
        "games": len(state.games),
        "summary": f"chouette: box {state.box}, captain {state.captain}; "
                   + ", ".join(f"{p} {s:+d}" for p, s in state.scores),
    }

