"""Reading .mat as gnubg and eXtreme Gammon write it, and reporting what is wrong."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from nardy_pi.cli.main import main
from nardy_pi.records.mat_replay import MatReplayError, replay_record
from nardy_pi.records.mat_text import MatFormatError, parse_mat
from nardy_pi.records.xgid_export import match_xgids
from nardy_pi.rules.notation.xgid import parse_xgid
from tests.records.gnubg_selfplay import SelfPlayMatch, play_match

_CELL_LINE = re.compile(r"^\s*(\d+)\)")


@pytest.fixture(scope="module")
def played() -> SelfPlayMatch:
    return play_match(5, seed=3)


def _xg_cell(cell: str) -> str:
    """XG's spelling of a gnubg cell: bar/off words, repeated steps as `(n)`."""
    cell = cell.strip()
    if ":" not in cell[:3]:
        return cell
    dice, _, moves = cell.partition(":")
    steps = [re.sub(r"^25/", "bar/", re.sub(r"/0$", "/off", s)) for s in moves.split()]
    counts = Counter(steps)
    parts = []
    for step in dict.fromkeys(steps):
        parts.append(step if counts[step] == 1 else f"{step}({counts[step]})")
    return f"{dice}: {' '.join(parts)}".rstrip()


def xg_style(text: str) -> str:
    """Rewrite gnubg-layout text the way XG lays it out (BOM, headers, wider columns,
    unindented game and score lines, numbered win lines)."""
    out = [
        '\ufeff; [Site "XG Mobile"]',
        '; [Player 1 "gnubg_a"]',
        '; [Player 2 "gnubg_b"]',
        '; [Variation "Backgammon"]',
        '; [Crawford "On"]',
        '; [CubeLimit "1024"]',
        "",
    ]
    last_number = 0
    for line in text.splitlines():
        if m := _CELL_LINE.match(line):
            last_number = int(m[1])
            left, right = _xg_cell(line[5:33]), _xg_cell(line[33:])
            out.append(f"{last_number:2d}) {left:<32} {right}".rstrip())
        elif "Wins" in line:
            text_part = line.strip()
            if line.index("Wins") < 30:
                out.append(f"{last_number + 1:2d})  {text_part}")
            else:
                out.append(f"{last_number + 1:2d}) {'':<32}  {text_part}")
        elif line.strip().startswith("Game"):
            out.append(line.strip())
        elif " : " in line:
            a, b = line.split("gnubg_b")
            out.append(f"{a.strip():<37}gnubg_b{b}")
        else:
            out.append(line.strip())
    return "\n".join(out) + "\n"


def test_xg_spelling_replays_like_gnubgs(played: SelfPlayMatch) -> None:
    xg = xg_style(played.text)
    assert "(2)" in xg or "bar/" in xg  # the rewrite really changed spellings
    gnubg = replay_record(parse_mat(played.text))
    record = parse_mat(xg)
    assert record.headers["Site"] == "XG Mobile"
    via_xg = replay_record(record)
    assert via_xg.state.results == gnubg.state.results
    assert via_xg.state.score == gnubg.state.score


def test_unreadable_line_is_reported_with_its_number(played: SelfPlayMatch) -> None:
    lines = played.text.splitlines()
    at = next(i for i, line in enumerate(lines) if _CELL_LINE.match(line))
    lines.insert(at + 1, "  2) hello there")
    with pytest.raises(MatFormatError, match=rf"^line {at + 2}: cannot read 'hello there'"):
        parse_mat("\n".join(lines))
    with pytest.raises(MatFormatError, match=r"not a \.mat file"):
        parse_mat("just some text\n")


def _first_white_move(text: str) -> tuple[int, str]:
    for i, line in enumerate(text.splitlines()):
        cell = line[5:33].strip()
        if _CELL_LINE.match(line) and re.match(r"^\d\d: \S", cell):
            return i, cell
    raise AssertionError("no white move")


def test_an_illegal_move_names_game_move_and_reason(played: SelfPlayMatch) -> None:
    lines = played.text.splitlines()
    i, cell = _first_white_move(played.text)
    dice = cell[:2]
    bad = f"{dice}: 24/10"  # no roll moves one checker 14 pips
    lines[i] = lines[i][:5] + f"{bad:<27} " + lines[i][33:]
    number = int(_CELL_LINE.match(lines[i])[1])  # type: ignore[index]
    with pytest.raises(MatReplayError) as err:
        replay_record(parse_mat("\n".join(lines)))
    message = str(err.value)
    assert message.startswith(f"game 1, move {number} (white {bad}): ")
    assert "14" in message  # the diagnosis names the distance no die covers


def test_a_wrong_win_line_is_reported(played: SelfPlayMatch) -> None:
    first = played.games[0]
    wrong = played.text.replace(f"Wins {first.points} point", f"Wins {first.points + 5} point", 1)
    with pytest.raises(MatReplayError, match="the record says"):
        replay_record(parse_mat(wrong))


def test_every_position_has_an_xgid(played: SelfPlayMatch) -> None:
    replayed = replay_record(parse_mat(played.text))
    ids = match_xgids(replayed.events)
    assert len(ids) > 20
    for pid in ids[:60]:
        record = parse_xgid(pid.xgid)
        assert record.match_length == 5
    start = parse_xgid(ids[0].xgid)
    assert start.dice is not None  # the opening play: dice shown, position is the start


# --- the command ------------------------------------------------------------------------
def test_cli_json_output(
    played: SelfPlayMatch, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    path = tmp_path / "m.mat"
    path.write_text(played.text)
    assert main(["match", "replay", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["match_length"] == 5
    assert data["score"] == {"white": played.score[0], "black": played.score[1]}
    assert [g["points"] for g in data["games"]] == [g.points for g in played.games]
    assert set(data["games"][0]) == {"winner", "points", "result", "cube"}
    assert main(["match", "replay", str(path)]) == 0
    text = capsys.readouterr().out
    assert "game 1:" in text and "score:" in text


def test_cli_illegal_move_exits_1_with_one_line(
    played: SelfPlayMatch, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    lines = played.text.splitlines()
    i, cell = _first_white_move(played.text)
    lines[i] = lines[i][:5] + f"{cell[:2] + ': 24/10':<27} " + lines[i][33:]
    path = tmp_path / "bad.mat"
    path.write_text("\n".join(lines))
    assert main(["match", "replay", str(path)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("nardy-pi: game 1, move ")


def test_cli_bad_input_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    path = tmp_path / "x.mat"
    path.write_text("nothing to see\n")
    assert main(["match", "replay", str(path)]) == 2
    assert main(["match", "replay", str(tmp_path / "missing.mat")]) == 2
    assert main(["match", "replay", str(path), "--variant", "chess"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.count("nardy-pi:") == 3
