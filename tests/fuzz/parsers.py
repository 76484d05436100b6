"""Mutation fuzzing of every text parser (tests and bench/fuzz_parsers.py).

Each parser gets inputs mutated from valid seeds (characters flipped, inserted, deleted,
duplicated, spliced from the other seeds, cut short, grown long). A parser passes an input
when it returns or raises ValueError (our errors all are ValueErrors): anything else, a
RecursionError, TypeError, KeyError, IndexError or a MemoryError, is a failure.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from nardy_pi.cli.moves import _batch_line
from nardy_pi.commands import PARSERS
from nardy_pi.config import parse_config_text
from nardy_pi.records.mat_text import parse_mat
from nardy_pi.rules.notation.board_field import parse_board_field
from nardy_pi.rules.notation.gnubg_id import parse_gnubg_id
from nardy_pi.rules.notation.move_text import parse_move_text
from nardy_pi.rules.notation.xgid import parse_xgid
from nardy_pi.validation import parse_json

XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10"
MAT = (
    " 3 point match\n\n Game 1\n Ann : 0                        Bob : 0\n"
    "  1)                             52: 8/3 6/3\n  2) 31: 8/5 6/5                 Doubles => 2\n"
    "  3) Takes                       64: 24/18 13/9\n      Wins 2 points\n"
)
CONFIG = (
    '[game]\nvariant = "long"\nmatch_length = 5\nwhite_name = "Ann"\n[web]\nport = 8080\n'
    'pin = "2468"\nhosts = ["board.local"]\n[demo]\nframe_size = 960\n[strip]\nleds = 28\n'
    "[gpio.leds]\nillegal = 13\n"
)
BATCH = json.dumps({"variant": "backgammon", "position": XGID, "dice": [6, 5]})
CONTROL = (
    ("new_match", json.dumps({"variant": "long", "match_length": 3, "white_name": "Ann",
                              "settings": {"hit_and_hide_bear_off": "allowed"}})),
    ("correct_position", json.dumps({"board": "-b----E-C---eE---c-e----B-", "turn": "white",
                                     "off_white": 0})),
    ("cube", '{"action": "double"}'),
    ("calibrate", '{"corners": [[1, 2], [300, 2], [300, 200], [1, 200]]}'),
)


def _control(text: str) -> Any:
    """Every control action's parser on the same body: each accepts it or says why not."""
    data = parse_json(text)
    accepted = 0
    for action, _ in CONTROL:
        try:
            PARSERS[action](data)
            accepted += 1
        except ValueError:
            pass
    return accepted


def _batch(text: str) -> Any:
    answer = _batch_line(text, limit=2000)
    if not (isinstance(answer, dict) and (set(answer) in ({"plays"}, {"error"}))):
        raise AssertionError(f"batch answer of the wrong shape: {answer!r}")
    return answer


#: parser name -> (function of one text, valid seeds)
TARGETS: dict[str, tuple[Callable[[str], Any], tuple[str, ...]]] = {
    "xgid": (parse_xgid, (XGID, "XGID=-a----E-C---eE---c-e----B-:1:1:-1:00:3:2:0:5:8")),
    "board field": (
        parse_board_field, ("-b----E-C---eE---c-e----B-", "------------o-----------O-")
    ),
    "gnubg id": (parse_gnubg_id, ("4HPwATDgc/ABMA:cAkAAAAAAAAA", "4HPwATDgc/ABMA:QYkqASAAIAAA")),
    "move text": (parse_move_text, ("24/18 13/11", "bar/22* 6/off(2)", "8/5*/3 6/3", "25/21 3/0")),
    ".mat": (parse_mat, (MAT,)),
    "config": (parse_config_text, (CONFIG,)),
    "batch line": (_batch, (BATCH, json.dumps({"position": "------------o-----------O-:1",
                                              "variant": "long", "dice": "63"}))),
    "control json": (_control, tuple(body for _, body in CONTROL)),
}

_NOISE = "0123456789:/*()[]{}\",.-+eE\\ \n\r\t\x00abcdefopOPXGIDbarofftruenullNaN\u00e9\U0001f600"


def mutate(rng: random.Random, seeds: tuple[str, ...]) -> str:
    text = rng.choice(seeds)
    for _ in range(rng.choice((1, 1, 2, 3, 8))):
        op = rng.randrange(8)
        i = rng.randrange(len(text) + 1)
        if op == 0:
            text = text[:i] + rng.choice(_NOISE) + text[i + 1 :]
        elif op == 1:
            text = text[:i] + rng.choice(_NOISE) * rng.randint(1, 4) + text[i:]
        elif op == 2:
            text = text[:i] + text[i + rng.randint(1, 6) :]
        elif op == 3:
            j = rng.randrange(len(text) + 1)
            text = text[:i] + text[min(i, j) : max(i, j)] + text[i:]
        elif op == 4:
            other = rng.choice(seeds)
            text = text[:i] + other[rng.randrange(len(other) + 1) :]
        elif op == 5:
            text = text[:i]
        elif op == 6:  # something long or deep
            grow = rng.choice(("9" * rng.randint(20, 6000), "[" * rng.randint(10, 3000),
                               "{\"a\":" * rng.randint(10, 800), "x" * rng.randint(50, 5000)))
            text = text[:i] + grow + text[i:]
        else:
            text = text.swapcase() if rng.random() < 0.5 else text[::-1]
    return text


@dataclass
class FuzzResult:
    name: str
    tried: int = 0
    failures: list[tuple[str, str]] = field(default_factory=list)  # (input, error)


def fuzz(name: str, count: int, seed: int = 0) -> FuzzResult:
    func, seeds = TARGETS[name]
    rng = random.Random(f"{name}:{seed}")
    result = FuzzResult(name)
    for text in _inputs(rng, seeds, count):
        result.tried += 1
        try:
            func(text)
        except ValueError:
            pass
        except Exception as exc:  # the point of the fuzz: report every other kind
            if len(result.failures) < 20:
                result.failures.append((text[:200], f"{type(exc).__name__}: {exc}"[:200]))
            else:
                result.failures.append(("", type(exc).__name__))
    return result


def _inputs(rng: random.Random, seeds: tuple[str, ...], count: int) -> Iterator[str]:
    yield from seeds
    for _ in range(count - len(seeds)):
        yield mutate(rng, seeds)
