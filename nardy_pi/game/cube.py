"""The doubling cube of one game: who may turn it, and what an answer does (DIGEST §2.1.8-9).

Pure functions on a frozen `CubeState`. They return the new state or raise
`IllegalEventError` with the reason; the match engine decides *when* cube actions are in
order (turn, phase), this module decides *whether* the cube allows them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from nardy_pi.game.errors import IllegalEventError
from nardy_pi.game.settings import MatchSettings
from nardy_pi.rules.sides import Side

OfferKind = Literal["double", "beaver", "raccoon"]


@dataclass(frozen=True, slots=True)
class CubeState:
    value: int = 1
    owner: Side | None = None  # None = centred
    #: a pending offer: the value proposed, by whom, and of what kind
    offered: int | None = None
    offered_by: Side | None = None
    offer_kind: OfferKind | None = None
    #: the game's stake before any player's double (after automatic doubles)
    initial: int = 1
    #: a double was accepted in this game (the Jacoby rule looks at this)
    turned: bool = False
    auto_doubles: int = 0


@dataclass(frozen=True, slots=True)
class CubeContext:
    """What the cube rules need to know about the match around this game."""

    money: bool
    crawford_game: bool = False
    #: post-Crawford game under the Holland rule, and this side is the trailer who has not
    #: yet seen both sides play two rolls
    holland_blocks: bool = False
    #: the side one point short in a Crawford game (for crawford_scope "trailer")
    crawford_leader: Side | None = None


def automatic_double(cube: CubeState, settings: MatchSettings, money: bool) -> CubeState:
    """An opening tie: the stake doubles and the cube stays centred (money play, capped)."""
    if not money or cube.auto_doubles >= settings.auto_doubles:
        return cube
    value = settings.next_cube_value(cube.value)
    if not settings.within_limit(value):
        return cube
    return replace(cube, value=value, initial=value, auto_doubles=cube.auto_doubles + 1)


def double_refusal(cube: CubeState, side: Side, settings: MatchSettings, ctx: CubeContext) -> str:
    """The message key of why `side` may not double now, or "" when it may."""
    if not settings.cube:
        return "refusal.cube_unused"
    if cube.offered is not None:
        return "refusal.double_pending"
    if ctx.crawford_game and (
        settings.crawford_scope == "both" or side is not ctx.crawford_leader
    ):
        return "refusal.crawford"
    if ctx.holland_blocks:
        return "refusal.holland"
    if cube.owner is not None and cube.owner is not side:
        return "refusal.cube_owned"
    if not settings.within_limit(settings.next_cube_value(cube.value)):
        return "refusal.cube_limit"
    return ""


def offer_double(
    cube: CubeState, side: Side, settings: MatchSettings, ctx: CubeContext
) -> CubeState:
    reason = double_refusal(cube, side, settings, ctx)
    if reason:
        owner = cube.owner.label if cube.owner is not None else None
        raise IllegalEventError(reason, owner=owner, limit=settings.cube_limit)
    return replace(
        cube, offered=settings.next_cube_value(cube.value), offered_by=side, offer_kind="double"
    )


def _answerer(cube: CubeState) -> Side:
    assert cube.offered_by is not None
    return cube.offered_by.opponent


def take(cube: CubeState, side: Side) -> CubeState:
    """Accept the offer. A normal double gives the taker the cube; beaver and raccoon leave
    it with the beaverer ([M]: animals do not change hands)."""
    if cube.offered is None:
        raise IllegalEventError("refusal.nothing_to_take")
    if side is not _answerer(cube):
        raise IllegalEventError("refusal.own_double", side=side.label)
    owner = side if cube.offer_kind == "double" else cube.owner
    return CubeState(
        cube.offered, owner, None, None, None, cube.initial, True, cube.auto_doubles
    )


def refusal_points(cube: CubeState, side: Side, settings: MatchSettings) -> int:
    """What refusing the pending offer costs (§4 item 2)."""
    if cube.offered is None:
        raise IllegalEventError("refusal.nothing_to_pass")
    if side is not _answerer(cube):
        raise IllegalEventError("refusal.own_double", side=side.label)
    return cube.value if settings.refusal_cost == "before" else cube.initial


def _animal(
    cube: CubeState, side: Side, settings: MatchSettings, ctx: CubeContext, kind: OfferKind
) -> CubeState:
    allowed = settings.beaver if kind == "beaver" else settings.raccoon
    previous = "double" if kind == "beaver" else "beaver"
    if not ctx.money and not settings.beaver_in_matches:
        raise IllegalEventError("refusal.no_animals_in_match", kind=kind)
    if not allowed:
        raise IllegalEventError("refusal.animal_not_allowed", kind=kind)
    if cube.offered is None or cube.offer_kind != previous:
        raise IllegalEventError("refusal.animal_not_pending", kind=kind, previous=previous)
    if side is not _answerer(cube):
        raise IllegalEventError("refusal.own_double", side=side.label)
    value = settings.next_cube_value(cube.offered)
    if not settings.within_limit(value):
        raise IllegalEventError("refusal.cube_limit", limit=settings.cube_limit)
    # The answer takes the pending offer and proposes the next value at once. A beaverer
    # becomes (and stays) the owner; a raccoon does not change hands.
    owner = side if kind == "beaver" else cube.owner
    return replace(
        cube, value=cube.offered, owner=owner, offered=value, offered_by=side, offer_kind=kind,
        turned=True,
    )  # fmt: skip


def beaver(cube: CubeState, side: Side, settings: MatchSettings, ctx: CubeContext) -> CubeState:
    return _animal(cube, side, settings, ctx, "beaver")


def raccoon(cube: CubeState, side: Side, settings: MatchSettings, ctx: CubeContext) -> CubeState:
    return _animal(cube, side, settings, ctx, "raccoon")
