"""Status LEDs and buttons on the Pi's GPIO header, through gpiozero.

The pin factory is the one seam: gpiozero's default on a Pi (lgpio on a Pi 5), `MockFactory`
in tests and demos. Button callbacks arrive on gpiozero's own thread, so they are only handed
to `on_button`, which the app makes thread-safe (loop.call_soon_threadsafe).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from nardy_pi.state import DeviceStatus, State

log = logging.getLogger(__name__)

ButtonName = Literal["confirm", "undo", "double", "take", "pass", "hint"]
LedName = Literal["turn_white", "turn_black", "illegal", "reroll", "camera_ok"]
BUTTONS: tuple[ButtonName, ...] = ("confirm", "undo", "double", "take", "pass", "hint")
LEDS: tuple[LedName, ...] = ("turn_white", "turn_black", "illegal", "reroll", "camera_ok")


@dataclass(frozen=True, slots=True)
class GpioConfig:
    """BCM pin numbers; a name left out is simply not wired."""

    leds: dict[str, int] = field(default_factory=dict)
    buttons: dict[str, int] = field(default_factory=dict)
    pin_factory: Literal["auto", "mock", "lgpio", "rpigpio", "pigpio", "native"] = "auto"
    bounce_seconds: float = 0.05

    def __post_init__(self) -> None:
        for name in self.leds:
            if name not in LEDS:
                raise ValueError(f"unknown status LED {name!r}; known: {', '.join(LEDS)}")
        for name in self.buttons:
            if name not in BUTTONS:
                raise ValueError(f"unknown button {name!r}; known: {', '.join(BUTTONS)}")
        pins = list(self.leds.values()) + list(self.buttons.values())
        if len(pins) != len(set(pins)):
            raise ValueError("a GPIO pin is used twice in the [gpio] configuration")


def make_pin_factory(kind: str) -> Any:
    """The gpiozero pin factory for `kind` ("auto" = gpiozero's own choice, i.e. None)."""
    if kind == "auto":
        return None
    if kind == "mock":
        from gpiozero.pins.mock import MockFactory

        return MockFactory()
    if kind == "lgpio":
        from gpiozero.pins.lgpio import LGPIOFactory

        return LGPIOFactory()
    if kind == "rpigpio":
        from gpiozero.pins.rpigpio import RPiGPIOFactory

        return RPiGPIOFactory()
    if kind == "pigpio":
        from gpiozero.pins.pigpio import PiGPIOFactory

        return PiGPIOFactory()
    if kind == "native":
        from gpiozero.pins.native import NativeFactory

        return NativeFactory()
    raise ValueError(f"unknown pin factory {kind!r}")


def led_states(state: State) -> dict[LedName, bool]:
    """What each status LED shows for a snapshot."""
    kinds = {a.kind for a in state.alerts}
    return {
        "turn_white": state.turn == "white",
        "turn_black": state.turn == "black",
        "illegal": bool(kinds & {"illegal_move", "desync"}),
        "reroll": "reroll" in kinds,
        "camera_ok": state.devices.get("camera") == "ok",
    }


class GpioPanel:
    """The LEDs and buttons. Never raises after construction; `status` tells how it went."""

    def __init__(
        self,
        config: GpioConfig,
        on_button: Callable[[ButtonName], None],
        pin_factory: Any = None,
    ) -> None:
        self.config = config
        self.status: DeviceStatus = "disabled"
        self.leds: dict[str, Any] = {}
        self.buttons: dict[str, Any] = {}
        if not config.leds and not config.buttons:
            return
        try:
            from gpiozero import LED, Button

            factory = pin_factory if pin_factory is not None else make_pin_factory(
                config.pin_factory
            )
            for name, pin in config.leds.items():
                self.leds[name] = LED(pin, pin_factory=factory)
            for name, pin in config.buttons.items():
                button = Button(pin, bounce_time=config.bounce_seconds, pin_factory=factory)
                button.when_pressed = _press_handler(on_button, name)  # type: ignore[arg-type]
                self.buttons[name] = button
            self.status = "ok"
        except Exception as exc:  # gpiozero raises many kinds: no GPIO here, pin busy...
            log.warning("gpio unavailable: %s", exc)
            self.close()
            self.status = "absent"

    def show(self, state: State) -> None:
        for name, on in led_states(state).items():
            led = self.leds.get(name)
            if led is not None and led.is_lit != on:
                if on:
                    led.on()
                else:
                    led.off()

    def close(self) -> None:
        """Turn every LED off and release the pins."""
        for device in (*self.leds.values(), *self.buttons.values()):
            try:
                if device in self.leds.values():
                    device.off()
                device.close()
            except Exception as exc:
                log.debug("gpio close: %s", exc)
        self.leds.clear()
        self.buttons.clear()


def _press_handler(on_button: Callable[[ButtonName], None], name: str) -> Callable[[], None]:
    def pressed() -> None:
        on_button(name)  # type: ignore[arg-type]

    return pressed
