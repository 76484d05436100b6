"""The TOML configuration: defaults, overrides, and errors that name the bad key."""

from __future__ import annotations

import pytest

from nardy_pi.config import Config, load_config


def test_no_file_means_the_demo_with_defaults() -> None:
    config = load_config(None)
    assert config == Config()
    assert config.camera.source == "demo" and config.web.port == 8080
    assert not config.strip.port and not config.gpio.leds


def test_file_overrides_defaults(tmp_path) -> None:
    path = tmp_path / "nardy.toml"
    path.write_text(
        """
[game]
variant = "long"
match_length = 5
[referee]
move_settle_seconds = 2
settle_frames = 3
[gpio]
pin_factory = "mock"
[gpio.leds]
illegal = 13
[gpio.buttons]
confirm = 17
[strip]
port = "/dev/nardy-strip"
[camera]
learn = false
[rules]
hit_and_hide_bear_off = "allowed"
head_exception = "none"
[match]
beaver = true
auto_doubles = 2
move_seconds = 60
[results]
mars_rule = "not_all_home"
home_mars = true
[engine]
use = "gnubg"
"""
    )
    config = load_config(path)
    assert config.game.variant == "long" and config.game.match_length == 5
    assert config.referee.move_settle_seconds == 2.0 and config.referee.settle_frames == 3
    assert config.gpio.leds == {"illegal": 13} and config.gpio.buttons == {"confirm": 17}
    assert config.strip.port == "/dev/nardy-strip"
    assert not config.camera.learn and Config().camera.learn
    assert config.rules.hit_and_hide_bear_off == "allowed"
    assert config.web == Config().web
    # One configuration of the match for the referee and the engine alike.
    match = config.match_settings
    assert match.rules.head_exception == "none" and match.rules is config.rules
    assert (match.beaver, match.auto_doubles, match.move_seconds) == (True, 2, 60)
    assert match.results is not None and match.results.home_mars
    assert match.results.koks_rule == "none"  # the long family's default stays
    assert config.engine.use == "gnubg"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[web]\nprot = 1\n", "unknown key(s) in [web]: prot"),
        ("[camra]\n", "unknown section(s): camra"),
        ("[web]\nport = 'x'\n", "[web] port must be a whole number"),
        ("[web]\nport = 70000\n", "port must be 1-65535"),
        ("[game]\nvariant = 'chess'\n", "unknown variant"),
        ("[gpio.buttons]\nconfirm = 5\nundo = 5\n", "used twice"),
        ("[camera]\nsource = 'webcam'\n", "source must be demo, opencv or picamera2"),
        ("[web\n", "nardy.toml"),
        ("[demo]\nframe_size = 100000\n", "[demo] frame_size must be between 320 and 3840"),
        ("game = 5\n", "[game] must be a table"),
        ("[strip]\nleds = -1\n", "[strip] leds must be between 1 and 1024"),
        ("[camera]\nfps = nan\n", "[camera] fps must be a number, got nan"),
        ('[game]\nwhite_name = "Ann\\nBob"\n', "[game] white_name may not contain line breaks"),
        ("[web]\npin = '12x4'\n", "[web] pin must be 4 to 12 digits"),
        ("[web]\nhosts = [1]\n", "[web] hosts must be a list of names"),
        ("[gpio.leds]\nillegal = 99\n", "[gpio] leds.illegal must be a BCM pin"),
        ("a = " + "[" * 3000 + "]" * 3000 + "\n", "nested too deeply"),
        ("[match]\nbeavers = true\n", "unknown setting(s): beavers"),
        ("[match]\nhead_exception = 'none'\n", "move rules go in [rules]"),
        ("[results]\nmars_rule = 'sometimes'\n", "mars_rule must be one of"),
        ("[engine]\nuse = 'deep-blue'\n", "[engine] use must be"),
    ],
)
def test_bad_configuration_names_the_problem(tmp_path, text: str, message: str) -> None:
    path = tmp_path / "nardy.toml"
    path.write_text(text)
    with pytest.raises(ValueError, match=None) as info:
        load_config(path)
    assert message in str(info.value)
    assert str(path) in str(info.value)  # the file is named too


def test_a_configuration_that_is_not_utf8_is_named(tmp_path) -> None:
    path = tmp_path / "latin.toml"
    path.write_bytes(b"[game]\nwhite_name = '\xe9'\n")
    with pytest.raises(ValueError, match="not UTF-8"):
        load_config(path)


def test_extra_host_names_are_read() -> None:
    from nardy_pi.config import parse_config

    assert parse_config({"web": {"hosts": ["board.example.org"]}}).web.hosts == (
        "board.example.org",
    )


def test_the_shipped_example_configuration_loads() -> None:
    from pathlib import Path

    example = Path(__file__).resolve().parents[2] / "hardware" / "nardy-pi.example.toml"
    config = load_config(example)
    assert config.gpio.buttons["pass"] == 24 and config.strip.leds == 28
    assert config.camera.learn
