"""Status LEDs and buttons on gpiozero's MockFactory (pins driven and read like real ones)."""

from __future__ import annotations

import queue

import pytest
from gpiozero.pins.mock import MockFactory

from nardy_pi.devices.gpio import GpioConfig, GpioPanel
from nardy_pi.state import Alert, State

CONFIG = GpioConfig(
    leds={"turn_white": 5, "turn_black": 6, "illegal": 13, "reroll": 19, "camera_ok": 26},
    buttons={"confirm": 17, "undo": 27, "double": 22, "take": 23, "pass": 24},
    bounce_seconds=0.0,
)


def state(turn: str | None = "white", alerts: tuple[Alert, ...] = (), camera: str = "ok") -> State:
    return State(
        variant="backgammon", board="-" * 26, points=(0,) * 24, turn=turn,  # type: ignore[arg-type]
        phase="moving", alerts=alerts, devices={"camera": camera},  # type: ignore[dict-item]
    )


@pytest.fixture
def factory() -> MockFactory:
    f = MockFactory()
    yield f
    f.reset()


def lit(factory: MockFactory, pin: int) -> bool:
    return bool(factory.pin(pin).state)


def test_leds_follow_the_snapshot(factory: MockFactory) -> None:
    panel = GpioPanel(CONFIG, lambda name: None, pin_factory=factory)
    assert panel.status == "ok"
    panel.show(state("white"))
    assert [lit(factory, p) for p in (5, 6, 13, 19, 26)] == [True, False, False, False, True]
    alarm = Alert("illegal_move", "die_unused", "5 unused", "5 не сыграна")
    panel.show(state("black", (alarm,), camera="reconnecting"))
    assert [lit(factory, p) for p in (5, 6, 13, 19, 26)] == [False, True, True, False, False]
    reroll = Alert("reroll", "cocked", "cocked die", "кость стоит косо")
    panel.show(state("black", (reroll,)))
    assert [lit(factory, p) for p in (13, 19)] == [False, True]
    panel.close()
    assert not lit(factory, 6)


def test_button_presses_arrive_through_the_callback(factory: MockFactory) -> None:
    pressed: queue.Queue[str] = queue.Queue()
    panel = GpioPanel(CONFIG, pressed.put, pin_factory=factory)
    for pin in (17, 27, 22, 23, 24):
        factory.pin(pin).drive_low()  # buttons pull up: pressing connects the pin to ground
        factory.pin(pin).drive_high()
    names = [pressed.get(timeout=2.0) for _ in range(5)]
    assert names == ["confirm", "undo", "double", "take", "pass"]
    panel.close()


def test_nothing_configured_is_disabled() -> None:
    assert GpioPanel(GpioConfig(), lambda name: None).status == "disabled"


def test_bad_configuration_is_refused() -> None:
    with pytest.raises(ValueError, match="twice"):
        GpioConfig(leds={"illegal": 5}, buttons={"confirm": 5})
    with pytest.raises(ValueError, match="unknown button"):
        GpioConfig(buttons={"resign": 5})


def test_unavailable_gpio_is_absent_not_fatal() -> None:
    class Broken:
        def __getattr__(self, name: str) -> object:
            raise RuntimeError("no GPIO chip on this computer")

    panel = GpioPanel(CONFIG, lambda name: None, pin_factory=Broken())
    assert panel.status == "absent"
    panel.show(state())  # a later snapshot does not raise either
