"""`raten hint/solve/bench --boards N` through CliRunner, bad input included."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from raten.cli.main import main
from raten.engine.feedback import format_pattern, pattern


def run(*args: str, input: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), input=input)
    return result.exit_code, result.output


def _pats(guess: str, answers: list[str]) -> str:
    return ",".join(format_pattern(pattern(guess, a)) for a in answers)


def test_hint_four_boards() -> None:
    answers = ["cigar", "humph", "blush", "model"]
    code, out = run("hint", "--boards", "4", "-n", "3", f"soare={_pats('soare', answers)}")
    assert code == 0, out
    assert "Quordle: 1 of 9 guesses played" in out and "board 4:" in out and "best next guesses" in out


def test_hint_json_with_a_solved_board() -> None:
    answers = ["cigar", "humph"]
    moves = [f"humph={_pats('humph', answers)}", "cigar=!!!!!,-"]
    code, out = run("hint", "--boards", "2", "--json", *moves)
    assert code == 0, out
    doc = json.loads(out)
    assert doc["done"] and doc["variant"] == "Dordle" and [b["solved_at"] for b in doc["boards"]] == [2, 1]


def test_hint_wrong_number_of_patterns() -> None:
    code, out = run("hint", "--boards", "4", "soare=.....,.....")
    assert code != 0 and "SOARE needs 4 patterns, one per board, not 2" in out
    code, out = run("hint", "--boards", "2", "--hard", "soare=.....,.....")
    assert code != 0 and "no hard mode" in out
    code, out = run("hint", "--boards", "0")
    assert code != 0 and "--boards" in out


def test_solve_two_boards() -> None:
    answers = ["cigar", "humph"]
    typed = f"humph\n{_pats('humph', answers)}\ncigar\n!!!!!,-\n"
    code, out = run("solve", "--boards", "2", input=typed)
    assert code == 0, out
    assert "all 2 boards solved in 2" in out


def test_solve_bad_patterns_then_quit() -> None:
    code, out = run("solve", "--boards", "2", input="humph\n.....\nquit\n")
    assert code == 0 and "needs 2 patterns" in out


@pytest.mark.slow
def test_bench_boards_json_and_text(tmp_path) -> None:
    args = ["bench", "--words", "de", "--boards", "2", "--games", "5", "--seed", "3", "--json", "--worst", "2"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    r = json.loads(result.stdout)["results"][0]  # a progress line, if any, went to stderr
    assert r["games"] == 5 and r["limit"] == 7 and len(r["worst"]) == 2 and len(r["worst"][0]["answers"]) == 2
    code, out = run("bench", "--words", "de", "--boards", "2", "--games", "3", "-s", "finish,expected")
    assert code == 0, out
    assert "Dordle, 2 boards in 7 guesses, 3 random answer tuples (seed 0)" in out and "expected, opener" in out
    code, out = run("bench", "--words", "de", "--boards", "2", "--games", "3", "--plot", str(tmp_path / "b.png"))
    assert code == 0 and (tmp_path / "b.png").exists(), out


def test_bench_boards_errors() -> None:
    code, out = run("bench", "--boards", "2", "--hard")
    assert code != 0 and "for one board" in out
    code, out = run("bench", "--boards", "2", "--games", "0")
    assert code != 0 and "at least 1" in out
    code, out = run("bench", "--boards", "2", "--games", "2", "-s", "minimax")
    assert code != 0 and "unknown strategy" in out
