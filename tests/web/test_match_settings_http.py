"""New match settings sent over HTTP reach the match engine, not only the referee: a long
nardy 6-6 on the first turn is the forced play 24/18 under head rule "none" (lit on the
point strip) and the forced 24/18(2) under the default reading."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import pytest

from nardy_pi.devices.strip.emulator import StripEmulator
from nardy_pi.devices.strip.link import StripLink
from nardy_pi.devices.strip.output import StripOutput
from nardy_pi.rules.position import Position
from tests.web.helpers import Site, running_site


def wait_for(condition: Callable[[], bool], timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return condition()


@pytest.fixture
def lit_site() -> Iterator[tuple[Site, StripEmulator]]:
    emulator = StripEmulator(leds=28)
    emulator.start()
    link = StripLink(emulator.port)
    link.start()
    try:
        with running_site(strip=StripOutput(link, 28, 255)) as site:
            yield site, emulator
    finally:
        link.close()
        emulator.close()


def long_match(site: Site, token: str, head_exception: str | None) -> None:
    settings = {} if head_exception is None else {"head_exception": head_exception}
    reply = site.post_json("/api/control/new_match",
                           {"variant": "long", "match_length": 3, "settings": settings},
                           session=token)
    assert reply.status == 200, reply.body
    site.match.roll((5, 3))  # the opening throw: white starts and throws afresh (long nardy)
    assert site.state()["turn"] == "white" and site.state()["phase"] == "rolling"


def two_from_the_head() -> Position:
    start = Position.start("long")
    points = list(start.points)
    points[23] -= 2  # two white checkers leave the head (physical 24) ...
    points[17] += 2  # ... for physical 18
    return Position(tuple(points), start.bar, start.off, start.turn)


def test_head_rule_none_makes_6_6_one_forced_play_lit_on_the_strip(
    lit_site: tuple[Site, StripEmulator],
) -> None:
    site, emulator = lit_site
    token = site.login()
    long_match(site, token, "none")
    assert site.state()["settings"]["rules"]["head_exception"] == "none"  # the engine's
    site.match.roll((6, 6))
    state = site.state()
    assert state["forced_play"] == "24/18"  # one checker only; 18/12 is black's head
    said = next(a for a in state["alerts"] if a["code"] == "forced_play")  # the page says so
    assert said["params"]["play"] == "24/18" and "24/18" in said["message_ru"]
    # The strip lights the only play: source 24 blue, destination 18 green.
    assert wait_for(lambda: emulator.pixels()[23][2] > emulator.pixels()[23][1])
    assert wait_for(lambda: emulator.pixels()[17][1] > max(emulator.pixels()[17][0],
                                                           emulator.pixels()[17][2]))
    site.match.misplay(two_from_the_head())  # legal only under the first-turn exception
    state = site.state()
    assert any(a["kind"] == "illegal_move" for a in state["alerts"])
    assert state["moves"] == []  # the engine did not record it either


def test_default_head_rule_lets_two_checkers_leave_on_a_first_6_6(site: Site) -> None:
    token = site.login()
    long_match(site, token, None)
    site.match.roll((6, 6))
    # Two checkers must leave the head: the most of the roll that can be played.
    assert site.state()["forced_play"] == "24/18(2)"
    site.match.misplay(two_from_the_head())  # the engine books it
    state = site.state()
    assert not any(a["kind"] == "illegal_move" for a in state["alerts"])
    assert state["moves"][-1]["text"] == "24/18(2)"
    assert state["turn"] == "black"
