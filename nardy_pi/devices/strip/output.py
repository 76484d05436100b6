"""The point strip as an output of the loop: snapshots (plus the current hints) to LED frames."""

from __future__ import annotations

from nardy_pi.devices.strip.layout import strip_colors
from nardy_pi.devices.strip.link import StripLink
from nardy_pi.state import DeviceStatus, State


class StripOutput:
    name = "strip"

    def __init__(self, link: StripLink, leds: int, brightness: int) -> None:
        self.link = link
        self.leds = leds
        self.brightness = brightness
        self.hint_sources: tuple[int, ...] = ()
        self.hint_points: tuple[int, ...] = ()

    def set_hints(self, sources: tuple[int, ...], points: tuple[int, ...]) -> None:
        """Hints are not part of `State`; the loop hands them over before publishing."""
        self.hint_sources, self.hint_points = sources, points

    def show(self, state: State) -> None:
        colors = strip_colors(state, self.hint_points, self.hint_sources, self.leds)
        self.link.show(colors, self.brightness)

    def status(self) -> DeviceStatus:
        return self.link.status()

    def close(self) -> None:
        self.link.close(blank_leds=self.leds)
