"""The command line on lists of 4 and 6 letters (files): score, hint, openers, analyze, bench,
tree, review and sql take the length from the list; bad input says the list's length."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cli_runs import ok_json, run
from raten.engine.feedback import format_pattern
from reference import ref_code, ref_dots, ref_filter, ref_rank


@pytest.fixture(params=[4, 6], ids=["4 letters", "6 letters"])
def files(request, tmp_path: Path) -> tuple[list[str], list[str], list[str]]:
    """(solutions, allowed, the --solutions/--allowed arguments) of random words of 4 or 6 letters."""
    length = request.param
    rng = random.Random(length)
    pool: set[str] = set()
    while len(pool) < 60:
        pool.add("".join(rng.choice("aeilnorst") for _ in range(length)))
    allowed = sorted(pool)
    sols = sorted(rng.sample(allowed, 25))
    (tmp_path / "s.txt").write_text("\n".join(sols) + "\n")
    (tmp_path / "a.txt").write_text("\n".join(allowed) + "\n")
    return sols, allowed, ["--solutions", str(tmp_path / "s.txt"), "--allowed", str(tmp_path / "a.txt")]


def test_score_of_any_length() -> None:
    assert run("score", "--notation", "dots", "planet", "planes").output.strip() == "PLANET vs PLANES: !!!!!."
    assert ok_json("score", "word", "draw")["patterns"] == [ref_dots("word", "draw")]
    result = run("score", "planet", "plane")
    assert result.exit_code != 0 and "'plane' has 5 letters, not 6" in result.output
    result = run("score", "abc", "abd")
    assert result.exit_code != 0 and "raten plays words of 4 to 8" in result.output


@pytest.mark.slow
def test_hint_openers_analyze(files) -> None:
    sols, allowed, lists = files
    length = len(sols[0])
    want = [w for _, w, _ in ref_rank(sols, allowed, top=4)]
    assert [h["word"] for h in ok_json("openers", *lists, "-n", "4")["openers"]] == want
    answer, guess = sols[7], want[0]
    move = f"{guess}={format_pattern(ref_code(guess, answer), length=length)}"
    out = ok_json("hint", *lists, move, "-n", "3")
    assert out["candidate_words"] == ref_filter(sols, [(guess, ref_code(guess, answer))])
    split = ok_json("analyze", *lists, guess)
    assert sum(b["count"] for b in split["buckets"]) == len(sols)
    assert all(len(b["pattern"]) == length for b in split["buckets"])
    result = run("hint", *lists, f"{guess}={'!' * (length + 1)}")
    assert result.exit_code != 0 and f"not {length}" in result.output


@pytest.mark.slow
def test_bench_tree_review(files, tmp_path: Path) -> None:
    sols, _allowed, lists = files
    bench = ok_json("bench", *lists)
    assert bench["games"] == len(sols) and bench["results"][0]["failed"] == 0
    tree = tmp_path / "t.txt"
    out = ok_json("tree", *lists, "--out", str(tree))
    assert out["total"] <= bench["results"][0]["total"]
    assert run("tree", "check", str(tree), *lists).exit_code == 0
    answer = sols[0]
    review = ok_json("review", *lists, sols[1], answer, "--answer", answer)
    assert review["moves"][-1]["pattern"] == "!" * len(answer)


def test_sql_build_and_query(files, tmp_path: Path) -> None:
    sols, allowed, lists = files
    db = tmp_path / "w.sqlite"
    assert run("sql", "build", *lists, "--db", str(db)).exit_code == 0
    want = [w for _, w, _ in ref_rank(sols, allowed, top=3)]
    assert [h["word"] for h in ok_json("sql", "query", "--db", str(db), "openers", "-n", "3")["openers"]] == want
