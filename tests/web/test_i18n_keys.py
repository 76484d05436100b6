"""Every text the page can show exists in both languages: the keys the scripts and templates
ask for, and every refusal key the package raises (`key="refusal.…"`, dotted keys)."""

from __future__ import annotations

import re
from pathlib import Path

import nardy_pi
from nardy_pi.messages_en import MESSAGES as ENGINE_EN
from nardy_pi.web.i18n import MESSAGES

PACKAGE = Path(nardy_pi.__file__).parent
WEB = PACKAGE / "web"
# Dotted message keys as Python code names them: "refusal.wrong_phase", "calibration.failed".
DOTTED = re.compile(r"""["']((?:refusal|command|calibration|error)\.[a-z0-9_.]+)["']""")
JS_KEY = re.compile(r"""\bt\(\s*"([a-z0-9_.]+)"[,)]""")
TEMPLATE_KEY = re.compile(r"""\bt\.([a-z0-9_]+)|\bt\[['"]([a-z0-9_.]+)['"]\]""")
# Keys the scripts build from a prefix plus a value the state carries.
PREFIXES = {
    "phase_": ["opening", "rolling", "moving", "cube_offered", "game_over", "match_over",
               "roll", "move", "cube", "resign"],
    "alert_": ["reroll", "illegal_move", "desync", "info", "timeout"],
    "status_": ["ok", "absent", "error", "reconnecting", "disabled"],
    "result_": ["single", "gammon", "backgammon", "oin", "mars", "koks", "home_mars", "drop",
                "resign", "timeout", "draw"],
    "fair_": ["none", "too_few", "ok", "odd", "bad"],
    "corner_": ["top_left", "top_right", "bottom_right", "bottom_left"],
    "tool_": ["add_white", "remove_white", "add_black", "remove_black"],
}


def _python_keys() -> set[str]:
    found: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        if path.name == "i18n.py":
            continue
        found |= set(DOTTED.findall(path.read_text(encoding="utf-8")))
    return found


def _page_keys() -> set[str]:
    found: set[str] = set()
    for path in (WEB / "static").glob("*.js"):
        found |= set(JS_KEY.findall(path.read_text(encoding="utf-8")))
    for path in (WEB / "templates").glob("*.html"):
        for plain, indexed in TEMPLATE_KEY.findall(path.read_text(encoding="utf-8")):
            found.add(plain or indexed)
    for prefix, values in PREFIXES.items():
        found |= {prefix + v for v in values}
    return found


def test_the_scan_finds_what_it_should() -> None:
    # The scans are the test; make sure they see the keys we know are there.
    assert {"refusal.busy", "calibration.mismatch", "calibration.no_frame"} <= _python_keys()
    assert {"cube_who_double", "cal_failed", "next_game", "move_no"} <= _page_keys()


def test_every_key_has_both_languages() -> None:
    keys = _python_keys() | _page_keys() | set(ENGINE_EN)
    missing = {
        lang: sorted(k for k in keys if k not in MESSAGES[lang])
        for lang in ("en", "ru")
    }
    assert missing == {"en": [], "ru": []}


def test_russian_texts_are_russian() -> None:
    latin = re.compile(r"[A-Za-z]{2,}")
    allowed = {"PIN", "mat", "p"}
    english = {
        key: text for key, text in MESSAGES["ru"].items()
        if set(latin.findall(re.sub(r"\{\w+\}", "", text))) - allowed
    }
    assert english == {}
