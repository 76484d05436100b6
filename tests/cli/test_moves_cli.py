"""`nardy-pi moves` through a real subprocess, exactly as spec/cli.md writes it."""

from __future__ import annotations

import json
import subprocess
import sys

START = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"
LONG_START = "------------o-----------O-:1"
OPENING = START
SPREAD = "---------AAAoAAAAAAAAAAAA-:1"  # crazy-long 1-1 from here: far too many plays to list


def nardy(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "nardy_pi", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_lists_each_play_with_the_resulting_position() -> None:
    out = nardy("moves", START, "65")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert len(lines) == 7
    moves = {line.rsplit(" ", 1)[0].strip(): line.rsplit(" ", 1)[1] for line in lines}
    assert moves["24/13"] == "XGID=-b----E-C---eF---c-e----A-:0:0:-1:00:0:0:0:0:10"


def test_dice_default_to_the_xgid_dice() -> None:
    rolled = START.replace(":1:00:", ":1:65:")
    assert nardy("moves", rolled).stdout == nardy("moves", START, "65").stdout


def test_json_output() -> None:
    out = nardy("moves", START, "31", "--json")
    doc = json.loads(out.stdout)
    assert len(doc["plays"]) == 16
    play = next(p for p in doc["plays"] if p["move"] == "8/5 6/5")
    assert play["board"] == "-b---BD-B---eE---c-e----B-"


def test_long_nardy_start_position_with_a_leading_dash() -> None:
    out = nardy("moves", "--variant", "long", LONG_START, "63")
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["24/15", "------------o--A--------N-:-1"]


def test_no_legal_play_prints_nothing_and_exits_zero() -> None:
    # White's last checker is on the bar; black holds all six entry points (19-24).
    board = "-" + "-" * 18 + "bbbbbb" + "A"
    out = nardy("moves", f"{board}:1", "66", "--variant", "backgammon")
    assert out.returncode == 0, out.stderr
    assert out.stdout == ""


def test_batch_answers_every_line_in_order() -> None:
    lines = [
        json.dumps({"variant": "backgammon", "position": START, "dice": [6, 5]}),
        "not json",
        json.dumps({"position": "XGID=garbage", "dice": [6, 5]}),
        json.dumps({"variant": "long", "position": LONG_START, "dice": [6, 6]}),
        json.dumps({"position": START, "dice": [7, 1]}),
    ]
    out = nardy("moves", "--batch", stdin="\n".join(lines) + "\n")
    assert out.returncode == 0, out.stderr
    answers = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(answers) == 5
    assert len(answers[0]["plays"]) == 7
    assert "error" in answers[1] and "error" in answers[2] and "error" in answers[4]
    # Output writes repeated paths out: `(2)` is for input only (cli.md).
    assert answers[3] == {"plays": [{"move": "24/18 24/18", "board": "------------o-----B-----M-"}]}


def test_bad_input_is_one_line_on_stderr_without_traceback() -> None:
    for args in (("moves", "XGID=bad", "65"), ("moves", START, "77"), ("moves", START)):
        out = nardy(*args)
        assert out.returncode != 0
        assert "Traceback" not in out.stderr
        assert len(out.stderr.strip().splitlines()) == 1, out.stderr
        assert out.stderr.startswith("nardy-pi: ")


def test_help() -> None:
    out = nardy("moves", "--help")
    assert out.returncode == 0 and "--batch" in out.stdout


def test_output_never_uses_multipliers_but_input_may() -> None:
    out = nardy("moves", START, "66")
    assert out.returncode == 0 and "(" not in out.stdout
    assert "24/18 24/18 13/7 13/7" in out.stdout.splitlines()[0]


def test_hostile_batch_lines_each_get_their_own_error_and_the_rest_are_answered() -> None:
    good = json.dumps({"position": OPENING, "dice": [6, 5]})
    hostile = [
        "[" * 3000 + "]" * 3000,  # deep nesting
        json.dumps({"position": OPENING}).replace('"' + OPENING + '"', "9" * 5000),
        '{"position": ' + "1" * 4000 + "}",  # a long number within the line limit
        json.dumps({"position": OPENING, "dice": [6, True]}),
        json.dumps({"position": OPENING, "dice": {"a": 1}}),
        '{"position": NaN}',
        json.dumps({"variant": ["long"], "position": OPENING}),
        json.dumps({"variant": "crazy-long", "position": SPREAD, "dice": [1, 1]}),
    ]
    lines = [good, *[x for h in hostile for x in (h, good)]]
    out = nardy("moves", "--batch", "--max-plays", "2000", stdin="\n".join(lines) + "\n")
    assert out.returncode == 0, out.stderr
    answers = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(answers) == len(lines)
    for i, answer in enumerate(answers):
        if i % 2 == 0:
            assert len(answer["plays"]) > 1, (i, answer)
        else:
            assert list(answer) == ["error"] and answer["error"], (i, answer)
    assert "more than 2000" in answers[-2]["error"]


def test_a_too_big_ladder_is_refused_with_a_message() -> None:
    out = nardy("moves", "--variant", "crazy-long", SPREAD, "11", "--max-plays", "2000")
    assert out.returncode == 2 and out.stdout == ""
    assert "more than 2000" in out.stderr and "--max-plays" in out.stderr
    assert "Traceback" not in out.stderr
