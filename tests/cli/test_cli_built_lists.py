"""The command line on the shipped lists of six and four letters (en-6, en-4): hints, openers,
bench, tree, review and SQL, each against the rule or another face (SQL's own ranking)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from cli_runs import ok_json, run
from raten.engine.feedback import format_pattern
from raten.wordlists.presets import load_preset
from reference import ref_code, ref_filter

pytestmark = pytest.mark.slow  # whole lists: seconds each
LISTS = ["en-6", "en-4"]


@pytest.mark.parametrize("name", LISTS)
def test_openers_and_a_hint(name: str) -> None:
    words = load_preset(name)
    openers = ok_json("openers", "--words", name, "-n", "3")["openers"]
    guess, answer = openers[0]["word"], words.solutions[len(words.solutions) // 3]
    code = ref_code(guess, answer)
    hint = ok_json("hint", "--words", name, f"{guess}={format_pattern(code, 'emoji', words.length)}", "-n", "3")
    assert hint["candidate_words"] == ref_filter(words.solutions, [(guess, code)])
    assert answer in hint["candidate_words"]


@pytest.mark.parametrize("name", LISTS)
def test_bench_plays_every_sampled_answer_by_the_rule(name: str) -> None:
    out = ok_json("bench", "--words", name, "--sample", "40")
    result = out["results"][0]
    assert out["games"] == 40 and result["failed"] == 0
    assert sum(int(n) for k, n in result["distribution"].items() if k != "failed") == 40


@pytest.mark.parametrize(("name", "opener"), [("en-6", "stance"), ("en-4", "dale")])
def test_tree_is_checked(name: str, opener: str, tmp_path: Path) -> None:
    path = tmp_path / "t.txt"
    out = ok_json("tree", "--words", name, "--opener", opener, "--out", str(path))
    assert out["solutions"] == len(load_preset(name).solutions) and out["worst"] <= 6
    assert run("tree", "check", str(path), "--words", name).exit_code == 0
    lines = path.read_text(encoding="utf-8").splitlines()[2:]
    assert all(len(tok) == len(opener) for line in lines for tok in line.split())


@pytest.mark.parametrize("name", LISTS)
def test_review_of_a_game(name: str) -> None:
    words = load_preset(name)
    answer = words.solutions[7]
    first = ok_json("openers", "--words", name, "-n", "1")["openers"][0]["word"]
    out = ok_json("review", "--words", name, first, answer, "--answer", answer)
    assert [m["pattern"] for m in out["moves"]] == [
        format_pattern(ref_code(first, answer), length=words.length),
        "!" * words.length,
    ]


@pytest.mark.skipif(importlib.util.find_spec("duckdb") is None, reason="duckdb is not installed")
@pytest.mark.parametrize(("name", "engine", "schema"), [("en-6", "duckdb", "classic"), ("en-4", "sqlite", "compact")])
def test_sql_ranks_as_the_engine(name: str, engine: str, schema: str, tmp_path: Path) -> None:
    db = tmp_path / f"w.{engine}"
    built = run("sql", "build", "--words", name, "--engine", engine, "--schema", schema, "--db", str(db))
    assert built.exit_code == 0, built.output
    sql = [h["word"] for h in ok_json("sql", "query", "--db", str(db), "openers", "-n", "5")["openers"]]
    assert sql == [h["word"] for h in ok_json("openers", "--words", name, "-n", "5")["openers"]]
