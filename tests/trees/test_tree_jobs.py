"""Many openers: the process pool, a Dask cluster and one process agree; a killed run resumes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_tree_search import tiny_words

from raten.errors import RatenError
from raten.trees.jobs import run_best
from raten.trees.results_file import read_results, results_header
from raten.trees.search import INF, Searcher


def _ranking(report) -> list[tuple[str, int, int]]:
    """The openers proven to be among the best (parallel runs may find a few more exactly)."""
    return [(r["opener"], r["total"], r["worst"]) for r in report.exact if r["total"] < report.cutoff]


@pytest.fixture(scope="module")
def words():
    return tiny_words(11, alphabet="aeilnorst", n_sol=40, n_extra=60)


def test_best_matches_every_opener_solved_alone(words) -> None:
    report = run_best(words, top=5)
    s = Searcher(words, max_guesses=6)
    alone = sorted((s.solve_opener(o, tree=False).total, o) for o in words.allowed)
    fifth = alone[4][0]
    assert [(t, o) for t, o in alone if t <= fifth] == sorted((r["total"], r["opener"]) for r in report.exact)
    assert report.best["total"] == alone[0][0]
    for o, r in report.results.items():  # everything not exact was proven out
        assert r["exact"] or r["total"] > fifth, o


def test_a_cutoff_given_up_front_keeps_the_best_and_refutes_the_rest_above_it(words) -> None:
    full = run_best(words, top=5)
    fifth = sorted(r["total"] for r in full.exact)[4]
    seeded = run_best(words, top=5, start_cutoff=fifth + 1)
    assert _ranking(seeded) == _ranking(full)
    tight = run_best(words, top=5, start_cutoff=full.best["total"] + 1)  # only the best below it
    assert tight.best["opener"] == full.best["opener"] and tight.cutoff == full.best["total"] + 1
    for o, r in tight.results.items():
        assert r["exact"] or r["total"] >= tight.cutoff, o
    with pytest.raises(RatenError, match="raise --cutoff"):
        run_best(words, top=5, start_cutoff=full.best["total"]).to_dict(5)


@pytest.mark.slow
def test_process_pool_and_dask_equal_one_process(words, tmp_path) -> None:
    distributed = pytest.importorskip("distributed")
    one = run_best(words, top=8)
    pool = run_best(words, top=8, jobs=2, results=tmp_path / "pool.jsonl")
    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None)
    with cluster:  # the address, as `raten tree --best --scheduler ADDRESS` passes it
        dask = run_best(words, top=8, scheduler=cluster.scheduler_address, results=tmp_path / "dask.jsonl")
    assert _ranking(one) == _ranking(pool) == _ranking(dask)
    assert one.cutoff == pool.cutoff == dask.cutoff


@pytest.mark.slow
def test_results_file_for_other_lists_is_refused(words, tmp_path) -> None:
    path = tmp_path / "r.jsonl"
    run_best(words, top=2, results=path, openers=list(words.allowed[:5]))
    other = results_header(words, True, 6)
    with pytest.raises(RatenError, match="is for mode='normal', not 'hard'"):
        read_results(path, other)


def _best_cmd(files: list[str], results: Path) -> list[str]:
    return [
        sys.executable,
        "-m",
        "raten",
        "tree",
        *files,
        "--best",
        "--top",
        "1000",
        "--jobs",
        "1",
        "--results",
        str(results),
        "--json",
    ]


@pytest.mark.slow
def test_a_killed_run_resumes_without_losing_work(tmp_path) -> None:
    words = tiny_words(12, alphabet="aeilnorstu", n_sol=60, n_extra=140)
    sols, allowed = tmp_path / "sols.txt", tmp_path / "allowed.txt"
    sols.write_text("\n".join(words.solutions) + "\n")
    allowed.write_text("\n".join(words.allowed) + "\n")
    files = ["--solutions", str(sols), "--allowed", str(allowed)]
    results = tmp_path / "results.jsonl"
    env = os.environ | {"PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src")}

    proc = subprocess.Popen(_best_cmd(files, results), env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.time() + 120
    lines = 0
    while time.time() < deadline and proc.poll() is None:
        lines = results.read_text().count('"kind": "opener"') if results.exists() else 0
        if lines > 20:
            break
        time.sleep(0.02)
    assert proc.poll() is None, "the run finished before it could be killed"
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    kept = read_results(results, results_header(words, False, 6))
    assert 20 <= len(kept) < len(words.allowed)

    res = subprocess.run(_best_cmd(files, results), env=env, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    resumed = json.loads(res.stdout)
    assert resumed["resumed"] >= len(kept)

    final = read_results(results, results_header(words, False, 6))
    assert len(final) == len(words.allowed)  # every opener exactly once, none run twice
    recs = [r for line in results.read_text().splitlines()[1:] if (r := json.loads(line))["kind"] == "opener"]
    assert len(recs) == len({r["opener"] for r in recs})

    fresh = run_best(words, top=1000)
    assert sorted((r["opener"], r["total"]) for r in final.values() if r["exact"]) == sorted(
        (r["opener"], r["total"]) for r in fresh.exact
    )
    assert resumed["best"]["opener"] == fresh.best["opener"]


@pytest.mark.slow
def test_raised_bounds_are_kept_in_the_results_file_and_not_raised_again_on_resume(
    words, tmp_path, monkeypatch
) -> None:
    import raten.trees.jobs as jobs

    path = tmp_path / "r.jsonl"
    first = run_best(words, top=5, results=path)
    lines = path.read_text().splitlines()
    bounds = [json.loads(line) for line in lines if '"kind": "bound"' in line]
    assert bounds and all(not r["exact"] for r in bounds)
    # keep the header and the bound records only: the openers' results are to be redone
    path.write_text("\n".join([lines[0], *(json.dumps(r) for r in bounds)]) + "\n")
    raised = {r["opener"] for r in bounds}
    asked: list[str] = []
    real = jobs.bound_job
    monkeypatch.setattr(jobs, "bound_job", lambda spec, o, beta: asked.append(o) or real(spec, o, beta))
    again = run_best(words, top=5, results=path)
    assert not raised & set(asked)  # those openers went straight to their exact search
    assert _ranking(again) == _ranking(first) and again.cutoff == first.cutoff


@pytest.mark.slow
def test_report_dictionaries_and_best_tree_come_from_the_library(words, tmp_path) -> None:
    """`raten tree --best` prints BestReport.to_dict and writes BestReport.best_tree."""
    from raten.trees.results_file import default_results_path

    path = tmp_path / "r.jsonl"
    report = run_best(words, top=3, results=path)
    d = report.to_dict(3, out=tmp_path / "best.tree")
    assert d["best"] == d["top"][0] and [r["rank"] for r in d["top"]] == [1, 2, 3]
    assert d["best"]["opener"] == report.best["opener"]
    assert d["best"]["average"] == round(report.best["total"] / len(words.solutions), 4)
    assert (d["words"], d["fingerprint"], d["mode"], d["max_guesses"]) == (words.name, words.fingerprint, "normal", 6)
    assert d["results"] == str(path) and d["out"] == str(tmp_path / "best.tree")
    tree = report.best_tree()
    assert tree.opener == report.best["opener"] and tree.meta["proven"] == "all-openers"
    assert tree.check(words)["total"] == report.best["total"]
    assert default_results_path(words, True, None).name == f"{words.name}-{words.fingerprint[:12]}-hard-max0.jsonl"
    nothing = run_best(words, max_guesses=1, top=1)
    assert nothing.best is None and nothing.best_tree() is None
    with pytest.raises(RatenError, match="no opener solves every word"):
        nothing.to_dict(1)


def test_best_first_refutes_by_bounds_and_every_bound_holds(words) -> None:
    report = run_best(words, top=3)
    s = Searcher(words, max_guesses=6)
    exact = {o: s.solve_opener(o, tree=False).total for o in words.allowed}
    by_level = [r for r in report.results.values() if r.get("by") == "level-bound"]
    assert report.by_level == len(by_level)
    for r in by_level:  # refuted without a search: a true lower bound at or above the cut-off
        assert not r["exact"] and report.cutoff <= r["total"] <= exact[r["opener"]]
    for o, b in report.bounds.items():  # cheap or one-level: never above the exact total
        assert b <= exact[o], o
        if o not in report.results:
            assert b >= report.cutoff, o
    # best-first: only the openers that end up exact (or tie the cut-off) were searched at all
    searched = [r for r in report.results.values() if r.get("by") != "level-bound"]
    assert len(searched) <= 6 and report.by_bound + len(report.results) == len(words.allowed)
    assert report.to_dict(3)["openers_cut_by_level_bound"] == report.by_level


def test_known_best_openers_first_give_the_same_result_whatever_their_beta(words) -> None:
    """``first``: the known best openers are searched before any other job; the result is the
    run's own, whether the hint ``first_beta`` is right, too low (a forged table) or absent."""
    full = run_best(words, top=5)
    fifth = sorted(r["total"] for r in full.exact)[4]
    known = [r["opener"] for r in full.exact[:5]]
    heard: list = []
    right = run_best(words, top=5, first=known, first_beta=fifth + 1, progress=heard.append, progress_every=0)
    assert _ranking(right) == _ranking(full) and right.cutoff == full.cutoff
    # the first jobs are the known openers, and the cut-off is set once they are done
    assert heard[0].first_left == 4 and heard[0].cutoff == INF
    assert [p.first_left for p in heard[:5]] == [4, 3, 2, 1, 0] and heard[4].cutoff == fifth + 1
    assert heard[-1].settled == heard[-1].openers == len(words.allowed) and heard[-1].jobs_left == 0
    assert heard[-1].eta == 0
    for wrong in (full.best["total"], None):  # too low for all of them but none; no hint
        again = run_best(words, top=5, first=known[::-1], first_beta=wrong)
        assert _ranking(again) == _ranking(full)
        for o, r in again.results.items():
            assert r["exact"] or r["total"] >= again.cutoff, o
        for o, b in again.bounds.items():
            assert o in again.results or b >= again.cutoff, o


@pytest.mark.slow
def test_a_run_stopped_by_its_time_limit_reports_true_bounds_and_resumes(words, tmp_path) -> None:
    """``stop_after``: what a stopped run reports is proven (every exact total true, every bound
    at most the opener's total, the least bound at most the best), and the same call resumes to
    the full run's result. A stop is simulated by a results file cut short, then a limit of 0."""
    full = run_best(words, top=3, results=tmp_path / "full.jsonl", memo_gb=0)
    truth = {o: r["total"] for o, r in full.results.items() if r["exact"]}
    alone = Searcher(words, max_guesses=6)
    path = tmp_path / "part.jsonl"
    lines = (tmp_path / "full.jsonl").read_text().splitlines(keepends=True)
    path.write_text("".join(lines[: len(lines) // 3]))
    part = run_best(words, top=3, results=path, memo_gb=0, stop_after=0)
    assert not part.complete and not part.proven
    summary = part.to_dict(3)
    assert summary["proven_optimal"] is False and summary["lower_bound"] <= full.best["total"]
    for o in words.allowed:
        bound = part.bound_of(o)
        exact = truth.get(o)
        if exact is None:
            exact = alone.solve_opener(o, tree=False).total
        assert bound <= exact, o
        if o in part.results and part.results[o]["exact"]:
            assert bound == exact, o
    best_tree = part.best_tree()
    assert best_tree is None or best_tree.meta["proven"] == "opener"
    resumed = run_best(words, top=3, results=path, memo_gb=0)
    assert resumed.complete and _ranking(resumed) == _ranking(full)
    assert resumed.best_tree().meta["proven"] == "all-openers"


@pytest.mark.slow
def test_the_cli_searches_given_openers_first_and_reports_a_stopped_run(words, tmp_path) -> None:
    from click.testing import CliRunner

    from raten.cli import main

    sols, allowed = tmp_path / "s.txt", tmp_path / "a.txt"
    sols.write_text("\n".join(words.solutions) + "\n")
    allowed.write_text("\n".join(words.allowed) + "\n")
    args = ["tree", "--best", "--solutions", str(sols), "--allowed", str(allowed), "--top", "2", "--jobs", "1"]
    args += ["--memo-gb", "0", "--results", str(tmp_path / "r.jsonl")]
    bad = CliRunner().invoke(main, [*args, "--first", "zzzzz"])
    assert bad.exit_code != 0 and "ZZZZZ is not an allowed guess" in bad.output and "Traceback" not in bad.output
    first = words.allowed[3]
    stopped = CliRunner().invoke(main, [*args, "--first", first, "--stop-after", "1e-9", "--json"])
    assert stopped.exit_code == 0, stopped.output
    summary = json.loads(stopped.output)
    assert summary["complete"] is False and summary["proven_optimal"] is False
    plain = CliRunner().invoke(main, [*args, "--first", first, "--stop-after", "1e-9"])
    assert plain.exit_code == 0 and "stopped" in plain.output and "rerun the same command" in plain.output
    done = CliRunner().invoke(main, [*args, "--first", f"{first},{words.allowed[5]}", "--json"])
    assert done.exit_code == 0 and json.loads(done.output)["proven_optimal"] is True
