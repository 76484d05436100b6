"""`nardy-pi run` configuration: a TOML file over built-in defaults.

Every section and key has a default, so an empty file (or none) gives a working demo on a
laptop. Unknown sections or keys are errors that name themselves: a typo must not silently
leave a pin or a port at its default. Every value is checked against the schema (its type,
and for numbers and texts their bounds, `_BOUNDS`), so a bad file gives one line naming the
file, the table and the key, never a traceback or a MemoryError later.
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
MAX_CONFIG_BYTES = 1024 * 1024


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
    #: the learned reader keeps learning the board from each play the referee accepts
    #: (vision/board/confirmed.py); in memory only, each start begins from the calibration
    learn: bool = True


@dataclass(frozen=True, slots=True)
class WebConfig:
    enabled: bool = True
    host: str = "0.0.0.0"
    port: int = 8080
    pin: str = ""  # control PIN; empty = a random one printed at start
    #: host names the page answers to besides nardy.local, localhost, this machine's name and
    #: IP addresses (a Host allow-list against DNS rebinding)
    hosts: tuple[str, ...] = ()


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
class ClubConfig:
    #: MQTT broker of the club's tournament page (spec/club.md); empty = not published
    broker: str = ""  # mqtt://[user:password@]host[:port] or mqtts://...
    board: str = ""  # this table's name on the page: 1-32 of [A-Za-z0-9_-]


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
    club: ClubConfig = field(default_factory=ClubConfig)

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
    "club": ClubConfig,
}
#: sections read into `MatchSettings` rather than a section class of their own
_MATCH_SECTIONS = ("match", "results")


#: (table, key) -> (low, high) for numbers, or the longest length for texts and lists
_BOUNDS: dict[tuple[str, str], tuple[float, float] | int] = {
    ("game", "match_length"): (0, 99),
    ("game", "white_name"): 40,
    ("game", "black_name"): 40,
    ("camera", "device"): 1024,
    ("camera", "calibration"): 4096,
    ("camera", "fps"): (0.1, 60.0),
    ("web", "host"): 255,
    ("web", "pin"): 12,
    ("web", "hosts"): 32,
    ("strip", "port"): 1024,
    ("strip", "baudrate"): (1200, 4_000_000),
    ("strip", "leds"): (1, 1024),
    ("strip", "brightness"): (0, 255),
    ("store", "path"): 4096,
    ("demo", "seed"): (0, 2**32 - 1),
    # the rendered demo frame is frame_size x 3/4 frame_size pixels, three bytes each
    ("demo", "frame_size"): (320, 3840),
}


def _bounded(section: str, key: str, value: Any) -> None:
    bound = _BOUNDS.get((section, key))
    if bound is None:
        return
    if isinstance(bound, tuple):
        low, high = bound
        if not low <= value <= high:
            raise ValueError(f"[{section}] {key} must be between {low} and {high}, got {value!r}")
    elif len(value) > bound:
        raise ValueError(f"[{section}] {key} is longer than {bound}")
    if isinstance(value, str) and ("\x00" in value or "\n" in value or "\r" in value):
        raise ValueError(f"[{section}] {key} may not contain line breaks or NUL characters")


def _typed(section: str, key: str, default: Any, value: Any) -> Any:
    """`value` when it has the default's type (an int is fine for a float, a list of texts
    for a tuple); else an error."""
    if default is None:  # optional settings: the dataclass checks them
        return value
    if isinstance(default, tuple) and isinstance(value, list):
        if not all(isinstance(v, str) and v and len(v) <= 255 for v in value):
            raise ValueError(f"[{section}] {key} must be a list of names")
        _bounded(section, key, value)
        return tuple(value)
    if isinstance(default, dict) and isinstance(value, dict):  # [gpio] name = BCM pin
        for name, pin in value.items():
            if isinstance(pin, bool) or not isinstance(pin, int) or not 0 <= pin <= 27:
                raise ValueError(f"[{section}] {key}.{name} must be a BCM pin 0-27, got {pin!r}")
        return value
    if isinstance(default, float) and type(value) is int:
        return float(value)
    if type(value) is not type(default):
        want = {bool: "true or false", int: "a whole number", float: "a number",
                str: "a text", dict: "a table"}.get(type(default), type(default).__name__)
        shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:40] + "..."
        raise ValueError(f"[{section}] {key} must be {want}, got {shown}")
    if type(value) is float and value != value:
        raise ValueError(f"[{section}] {key} must be a number, got nan")
    _bounded(section, key, value)
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
    parts = {name: _section(name, value) for name, value in data.items()
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
    if config.web.pin and not (config.web.pin.isdigit() and 4 <= len(config.web.pin) <= 12):
        raise ValueError("[web] pin must be 4 to 12 digits (or empty for a random one)")
    for side, name in (("white_name", config.game.white_name),
                       ("black_name", config.game.black_name)):  # fmt: skip
        if not name.strip() or not name.isprintable() or '"' in name:
            raise ValueError(f"[game] {side} must be a printable name without quotes")
    check_club(config.club)
    return config


def check_club(club: ClubConfig) -> None:
    """A broker needs a valid board name, and both must be well-formed (ValueError)."""
    from nardy_pi.club.broker_url import parse_broker_url
    from nardy_pi.club.names import check_board_name

    if club.broker and not club.board:
        raise ValueError("[club] board must name this table when a broker is given")
    try:
        if club.broker:
            parse_broker_url(club.broker)
        if club.board:
            check_board_name(club.board)
    except ValueError as exc:
        raise ValueError(f"[club] {exc}") from None


def load_config(path: str | Path | None) -> Config:
    """The configuration in `path` over the defaults; no path = all defaults."""
    if path is None:
        return Config()
    p = Path(path)
    try:
        if p.stat().st_size > MAX_CONFIG_BYTES:
            raise ValueError(f"{p}: a configuration file is at most {MAX_CONFIG_BYTES} bytes")
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise OSError(f"configuration file {p} not found") from None
    except UnicodeDecodeError:
        raise ValueError(f"{p}: not UTF-8 text") from None
    except IsADirectoryError:
        raise OSError(f"configuration file {p} is a directory") from None
    return parse_config_text(text, str(p))


def parse_config_text(text: str, name: str = "configuration") -> Config:
    """The configuration in TOML `text`; ValueError starting with `name` otherwise."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{name}: {exc}") from None
    except RecursionError:
        raise ValueError(f"{name}: values nested too deeply") from None
    try:
        return parse_config(data)
    except ValueError as exc:
        raise ValueError(f"{name}: {exc}") from None
