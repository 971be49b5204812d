"""One opener's proof group by group (``raten tree --opener W --results FILE``): the total and
tree equal the plain search's, a stopped run resumes, a forged line is refused."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from test_tree_search import tiny_words

from raten.cli import main
from raten.errors import RatenError
from raten.trees.groups import run_groups
from raten.trees.search import Searcher, group_totals


@pytest.fixture(scope="module")
def words():
    return tiny_words(701, n_sol=16, n_extra=8)


@pytest.mark.slow
@pytest.mark.parametrize(("hard", "jobs"), [(False, 1), (True, 1), (False, 2)])
def test_groups_as_jobs_give_the_plain_search_total_and_tree(words, tmp_path, hard, jobs) -> None:
    """In this process with a private memo, and on the pool with the shared one (the tree is then
    built from the memo the workers filled)."""
    opener = words.allowed[0]
    plain = Searcher(words, hard=hard, max_guesses=6).solve_opener(opener)
    memo_gb = 0.01 if jobs > 1 else 0
    report = run_groups(words, opener, hard, 6, results=tmp_path / "g.jsonl", memo_gb=memo_gb, jobs=jobs)
    assert report.complete and report.bound == plain.total
    assert report.tree is not None and report.tree.check(words)["total"] == plain.total
    assert report.tree.meta["proven"] == "opener"
    assert report.totals == {c: v for c, v in plain.groups.items()}


@pytest.mark.slow
def test_a_stopped_run_bounds_the_total_and_resumes(words, tmp_path) -> None:
    opener = words.allowed[1]
    plain = Searcher(words, max_guesses=6).solve_opener(opener)
    path = tmp_path / "g.jsonl"
    full = run_groups(words, opener, False, 6, results=tmp_path / "full.jsonl", memo_gb=0)
    lines = (tmp_path / "full.jsonl").read_text().splitlines(keepends=True)
    path.write_text("".join(lines[:3]) + lines[3][:10])  # two groups done, a line torn by a kill
    part = run_groups(words, opener, False, 6, results=path, memo_gb=0, stop_after=0)
    assert not part.complete and part.tree is None and len(part.totals) == 2
    assert part.bound <= plain.total
    done = run_groups(words, opener, False, 6, results=path, memo_gb=0)
    assert done.complete and done.bound == full.bound == plain.total


def test_ceilings_too_low_are_dropped_and_a_forged_line_is_refused(words, tmp_path) -> None:
    opener = words.allowed[2]
    plain = Searcher(words, max_guesses=6).solve_opener(opener)
    low = {c: v - 1 for c, v in group_totals(plain.tree).items()}
    path = tmp_path / "g.jsonl"
    assert run_groups(words, opener, False, 6, results=path, memo_gb=0, ceilings=low).bound == plain.total
    recs = [json.loads(line) for line in path.read_text().splitlines()]
    recs[1]["total"] -= 1
    path.write_text("".join(json.dumps(r) + "\n" for r in recs))
    with pytest.raises(RatenError, match=r"line 2 \(group .*does not match its digest"):
        run_groups(words, opener, False, 6, results=path, memo_gb=0)
    with pytest.raises(RatenError, match="header is for other lists, mode, limit or opener"):
        run_groups(words, words.allowed[3], False, 6, results=path, memo_gb=0)


@pytest.mark.slow
def test_the_cli_runs_an_openers_groups_as_jobs(words, tmp_path) -> None:
    sols, allowed = tmp_path / "s.txt", tmp_path / "a.txt"
    sols.write_text("\n".join(words.solutions) + "\n")
    allowed.write_text("\n".join(words.allowed) + "\n")
    opener = words.allowed[0]
    args = ["tree", "--solutions", str(sols), "--allowed", str(allowed), "--opener", opener, "--jobs", "1"]
    res = CliRunner().invoke(main, [*args, "--results", str(tmp_path / "g.jsonl"), "--memo-gb", "0", "--json"])
    assert res.exit_code == 0, res.output
    summary = json.loads(res.output)
    assert summary["complete"] and summary["total"] == Searcher(words, max_guesses=6).solve_opener(opener).total
    lists = ["--solutions", str(sols), "--allowed", str(allowed)]
    bad = CliRunner().invoke(main, ["tree", *lists, "--results", str(tmp_path / "x.jsonl")])
    assert bad.exit_code != 0 and "--results goes with --best" in bad.output and "Traceback" not in bad.output
