"""Which openers can solve every answer within the limit (``raten tree within``): the verdicts
against an exhaustive search, the trees of possible openers, the results file, the table's marks."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from test_tree_search import brute_force, tiny_words

from raten.cli import main
from raten.errors import RatenError
from raten.trees.jobs import run_best
from raten.trees.report import mark_impossible, openers_table, row_digest
from raten.trees.search import INF
from raten.trees.within import IMPOSSIBLE, POSSIBLE, Within

CASES = [(seed, hard, limit) for seed in range(5) for hard in (False, True) for limit in (2, 3, 4)]


@pytest.mark.parametrize(("seed", "hard", "limit"), CASES)
@pytest.mark.slow
def test_every_verdict_equals_an_exhaustive_search(seed: int, hard: bool, limit: int) -> None:
    """Possible exactly when some tree under the opener solves every answer within the limit
    (the exhaustive search's least total is finite); a possible opener's tree shows it."""
    words = tiny_words(500 + seed, n_sol=9, n_extra=5)
    within = Within(words, hard=hard, limit=limit, memo_bits=8)
    for opener in words.allowed:
        verdict = within.judge(opener)
        expected = POSSIBLE if brute_force(words, opener, hard, limit) < INF else IMPOSSIBLE
        assert verdict.status == expected, (opener, verdict)
        if expected == POSSIBLE:
            tree = within.tree(opener)
            summary = tree.check(words)
            assert summary["worst"] <= limit and tree.opener == opener
        else:
            assert verdict.group is not None and verdict.size >= 1


@pytest.mark.slow
def test_a_group_left_undecided_by_its_work_is_unknown(en_words) -> None:
    """A budget too small for any group's search leaves an opener unknown, never a wrong verdict."""
    within = Within(en_words, hard=True, limit=6)
    assert within.judge("salet", work=1).status == "unknown"
    assert within.judge("danio").status == IMPOSSIBLE


def test_results_resume_and_a_forged_line_is_refused(tmp_path) -> None:
    words = tiny_words(601, n_sol=9, n_extra=5)
    path = tmp_path / "within.jsonl"
    Within(words, hard=True, limit=2).run(words.allowed[:6], path)
    resumed = Within(words, hard=True, limit=2).run(words.allowed, path)
    fresh = Within(words, hard=True, limit=2).run(words.allowed)
    assert {o: v.status for o, v in resumed.items()} == {o: v.status for o, v in fresh.items()}
    assert {v.status for v in fresh.values()} == {IMPOSSIBLE, POSSIBLE}
    recs = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(recs) == 1 + len(words.allowed)  # the first six were not judged again
    bad = next(i for i, r in enumerate(recs) if r.get("status") == IMPOSSIBLE)
    recs[bad]["opener"] = next(r["opener"] for r in recs[1:] if r["status"] == POSSIBLE)
    path.write_text("".join(json.dumps(r) + "\n" for r in recs))
    with pytest.raises(RatenError, match=rf"line {bad + 1} .*does not match its digest"):
        Within(words, hard=True, limit=2).run(words.allowed, path)
    with pytest.raises(RatenError, match="header is for other lists"):
        Within(words, hard=False, limit=2).run(words.allowed, path)


def test_the_table_marks_impossible_openers_and_keeps_every_digest(tmp_path) -> None:
    words = tiny_words(602, n_sol=9, n_extra=5)
    report = run_best(words, hard=True, max_guesses=2, top=2)
    path = tmp_path / "t.tsv"
    path.write_text(openers_table(report))
    verdicts = Within(words, hard=True, limit=2).run(words.allowed)
    impossible = {o for o, v in verdicts.items() if v.status == IMPOSSIBLE}
    assert impossible and len(impossible) < len(words.allowed)
    before = {line.split("\t")[0]: line.split("\t") for line in path.read_text().splitlines()[1:]}
    marked = mark_impossible(path, words, True, 2, impossible)
    rows = {line.split("\t")[0]: line.split("\t") for line in path.read_text().splitlines()[1:]}
    assert marked == sum(1 for o in impossible if before[o][2] != "impossible") and rows.keys() == before.keys()
    header = {"lists": words.prior_key, "mode": "hard", "max_guesses": 2}
    for o, (_, status, total, worst, digest) in rows.items():
        value = None if total == "impossible" else int(total)
        assert digest == row_digest(header, o, status, value, int(worst) if worst else None)
        assert (total == "impossible") == (o in impossible), o  # and the search agrees where it knew
        if o not in impossible:
            assert rows[o] == before[o]
    with pytest.raises(RatenError, match="does not match its digest"):
        mark_impossible(path, words, False, 2, impossible)  # another mode's table


def test_the_cli_judges_writes_the_tree_and_refuses_bad_input(tmp_path) -> None:
    words = tiny_words(603, n_sol=9, n_extra=5)  # within 2 guesses: some openers can, some cannot
    sols, allowed = tmp_path / "s.txt", tmp_path / "a.txt"
    sols.write_text("\n".join(words.solutions) + "\n")
    allowed.write_text("\n".join(words.allowed) + "\n")
    args = ["tree", "within", "--solutions", str(sols), "--allowed", str(allowed), "--max-guesses", "2"]
    res = CliRunner().invoke(main, [*args, "--out", str(tmp_path / "t.txt"), "--json"])
    assert res.exit_code == 0, res.output
    summary = json.loads(res.output)
    assert summary["judged"] == len(words.allowed) == summary["possible"] + summary["impossible"]
    assert summary["possible"] and summary["impossible"]
    check = ["tree", "check", str(tmp_path / "t.txt"), "--solutions", str(sols), "--allowed", str(allowed)]
    ok = CliRunner().invoke(main, check)
    assert ok.exit_code == 0, ok.output
    bad = CliRunner().invoke(main, [*args, "--opener", "zzzzz"])
    assert bad.exit_code != 0 and "Traceback" not in bad.output and "ZZZZZ" in bad.output
