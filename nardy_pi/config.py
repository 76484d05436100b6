"""`nardy-pi run` configuration: a TOML file over built-in defaults.

Every section and key has a default, so an empty file (or none) gives a working demo on a
laptop. Unknown sections or keys are errors that name themselves: a typo must not silently
leave a pin or a port at its default.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Literal

from nardy_pi.devices.gpio import GpioConfig
from nardy_pi.evaluation import EngineChoice
from nardy_pi.game.settings import DEFAULT_MATCH_SETTINGS, MatchSettings
from nardy_pi.referee.referee import RefereeSettings
from nardy_pi.rules.settings import RuleSettings
from nardy_pi.rules.variants import get_variant

CameraSource = Literal["demo", "opencv", "picamera2"]


@dataclass(frozen=True, slots=True)
class GameConfig:
    variant: str = "backgammon"
    match_length: int = 0  # 0 = money play
    white_name: str = "White"
    black_name: str = "Black"


@dataclass(frozen=True, slots=True)
class CameraConfig:
    #: "demo" = the synthetic board playing by itself; used whenever no camera is configured
    source: CameraSource = "demo"
    device: str = "0"  # opencv: index or path/URL
    calibration: str = ""  # calibration JSON from `nardy-pi calibrate`
    fps: float = 5.0  # at most this many frames a second are read and observed


@dataclass(frozen=True, slots=True)
class WebConfig:
    enabled: bool = True
    host: str = "0.0.0.0"
    port: int = 8080
    pin: str = ""  # control PIN; empty = a random one printed at start


@dataclass(frozen=True, slots=True)
class StripConfig:
    port: str = ""  # e.g. /dev/nardy-strip (udev rule in hardware/); empty = no strip
    baudrate: int = 115200
    leds: int = 28
    brightness: int = 64
    emulate: bool = False  # run the firmware emulator on a pty (demo without hardware)


@dataclass(frozen=True, slots=True)
class StoreConfig:
    #: SQLite event log of the match, so a crash or power cut loses nothing. "auto": the file
    #: matches.sqlite in the working directory with a camera (/var/lib/nardy-pi under systemd),
    #: none for the demo table; "" = keep the match in memory only.
    path: str = "auto"


@dataclass(frozen=True, slots=True)
class DemoConfig:
    seed: int = 1
    # Rendered frame width in pixels. At 640 the dice reader misses many rendered sixes
    # (a die is ~15 px wide), so the demo would ask for needless re-rolls; 960 reads them.
    frame_size: int = 960


@dataclass(frozen=True, slots=True)
class EngineConfig:
    #: the evaluation engine for hints and settling a game: "auto" = gnubg-nn if installed,
    #: else the GNU Backgammon program; "none" = no engine
    use: EngineChoice = "auto"
    gnubg: str = ""  # path of the gnubg program; "" = look on PATH and in /usr/games


@dataclass(frozen=True, slots=True)
class Config:
    game: GameConfig = field(default_factory=GameConfig)
    rules: RuleSettings = field(default_factory=RuleSettings)
    #: [match] cube options, opening, timer...; [results] win types (`MatchSettings`)
    match: MatchSettings = DEFAULT_MATCH_SETTINGS
    referee: RefereeSettings = field(default_factory=RefereeSettings)
    camera: CameraConfig = field(default_factory=CameraConfig)
    web: WebConfig = field(default_factory=WebConfig)
    gpio: GpioConfig = field(default_factory=GpioConfig)
    strip: StripConfig = field(default_factory=StripConfig)
    store: StoreConfig = field(default_factory=StoreConfig)
    demo: DemoConfig = field(default_factory=DemoConfig)
    engine: EngineConfig = field(default_factory=EngineConfig)

    @property
    def match_settings(self) -> MatchSettings:
        """Everything the referee and the engine play by: [rules], [match], [results]."""
        return replace(self.match, rules=self.rules)


_CLASSES = {
    "game": GameConfig,
    "rules": RuleSettings,
    "referee": RefereeSettings,
    "camera": CameraConfig,
    "web": WebConfig,
    "gpio": GpioConfig,
    "strip": StripConfig,
    "store": StoreConfig,
    "demo": DemoConfig,
    "engine": EngineConfig,
}
#: sections read into `MatchSettings` rather than a section class of their own
_MATCH_SECTIONS = ("match", "results")


def _typed(section: str, key: str, default: Any, value: Any) -> Any:
    """`value` when it has the default's type (an int is fine for a float); else an error."""
    if default is None:  # optional settings: the dataclass checks them
        return value
    if isinstance(default, float) and type(value) is int:
        return float(value)
    if type(value) is not type(default):
        want = {bool: "true or false", int: "a whole number", float: "a number",
                str: "a text", dict: "a table"}.get(type(default), type(default).__name__)
        raise ValueError(f"[{section}] {key} must be {want}, got {value!r}")
    return value


def _section(name: str, data: Any) -> Any:
    cls = _CLASSES[name]
    if not isinstance(data, dict):
        raise ValueError(f"[{name}] must be a table")
    known = {f.name: f for f in fields(cls)}
    unknown = sorted(set(data) - set(known))
    if unknown:
        raise ValueError(f"unknown key(s) in [{name}]: {', '.join(unknown)}")
    defaults = cls()
    values = {key: _typed(name, key, getattr(defaults, key), value) for key, value in data.items()}
    try:
        return cls(**values)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"[{name}]: {exc}") from None


def _match(data: dict[str, Any], family: str) -> MatchSettings:
    from nardy_pi.commands import match_settings

    table = data.get("match", {})
    results = data.get("results")
    for name, value in (("match", table), ("results", results)):
        if value is not None and not isinstance(value, dict):
            raise ValueError(f"[{name}] must be a table")
    rule_keys = {f.name for f in fields(RuleSettings)}
    misplaced = sorted(set(table) & (rule_keys | {"rules", "results"}))
    if misplaced:
        raise ValueError(f"[match] {', '.join(misplaced)}: move rules go in [rules], win "
                         "types in [results]")
    try:
        return match_settings({**table, **({"results": results} if results else {})}, family)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"[match]/[results]: {exc}") from None


def parse_config(data: dict[str, Any]) -> Config:
    unknown = sorted(set(data) - set(_CLASSES) - set(_MATCH_SECTIONS))
    if unknown:
        raise ValueError(f"unknown section(s): {', '.join(unknown)}")
    parts = {name: _section(name, dict(value)) for name, value in data.items()
             if name not in _MATCH_SECTIONS}
    config = Config(**parts)
    variant = get_variant(config.game.variant)  # raises with the list of known variants
    config = replace(config, match=_match(data, variant.family))
    if config.engine.use not in ("auto", "gnubg-nn", "gnubg", "none"):
        raise ValueError(f"[engine] use must be auto, gnubg-nn, gnubg or none, not "
                         f"{config.engine.use!r}")
    if config.camera.source not in ("demo", "opencv", "picamera2"):
        raise ValueError(f"[camera] source must be demo, opencv or picamera2, not "
                         f"{config.camera.source!r}")
    if not 1 <= config.web.port <= 65535:
        raise ValueError(f"[web] port must be 1-65535, got {config.web.port}")
    return config


def load_config(path: str | Path | None) -> Config:
    """The configuration in `path` over the defaults; no path = all defaults."""
    if path is None:
        return Config()
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise OSError(f"configuration file {p} not found") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{p}: {exc}") from None
    try:
        return parse_config(data)
    except ValueError as exc:
        raise ValueError(f"{p}: {exc}") from None
