"""Claims that cannot be forged by accident or by hand (issue 25 item 1): every results line,
tree header and openers row carries a digest; a resumed ``tree --best`` re-checks what it reuses
and refuses a line that fails, naming it; ``tree check`` compares every header claim with the tree.

The lists are a small slice of the English ones (155 solutions, 318 allowed): the issue's forged
"IRATE 1100, proven optimal" came from a list like it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from raten.cli import main
from raten.engine.words import WordSet
from raten.errors import RatenError
from raten.trees import jobs
from raten.trees.digest import claim_digest, record_digest
from raten.trees.jobs import opener_job, run_best
from raten.trees.model import SHIPPED_TREES, Tree
from raten.trees.results_file import ResultsFile, results_header
from raten.trees.search import Searcher


@pytest.fixture(scope="module")
def small(en_words) -> WordSet:
    return WordSet.from_lists(en_words.solutions[::15], en_words.allowed[::80], name="small")


@pytest.fixture
def results(small, tmp_path) -> Path:
    """A finished run's results file: exact lines (with trees), level-bound lines, bound lines."""
    path = tmp_path / "r.jsonl"
    run_best(small, top=2, results=path, memo_gb=0)
    return path


def records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def rewrite(path: Path, recs: list[dict]) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in recs))


def forge(path: Path, words: WordSet, pick, change, reseal: bool) -> tuple[int, dict]:
    """Change the first record ``pick`` chooses; ``reseal``: give it the digest raten would (a
    forger can: the digest is no signature). Returns its line number and the record."""
    recs = records(path)
    i = next(i for i, r in enumerate(recs) if r.get("kind") != "header" and pick(r))
    change(recs[i])
    if reseal:
        recs[i]["digest"] = record_digest(recs[i], words.prior_key, "normal", 6)
    rewrite(path, recs)
    return i + 1, recs[i]


def resume(path: Path, words: WordSet):
    return run_best(words, top=2, results=path, memo_gb=0)


# --- the digest ------------------------------------------------------------------------------


def test_the_digest_changes_when_any_covered_field_changes():
    base = ("key", "normal", 6, "salet", "exact", 7920, 5)
    d = claim_digest(*base)
    assert d == claim_digest(*base) and len(d) == 16 and int(d, 16) >= 0
    others = [
        ("other", "normal", 6, "salet", "exact", 7920, 5),
        ("key", "hard", 6, "salet", "exact", 7920, 5),
        ("key", "normal", 5, "salet", "exact", 7920, 5),
        ("key", "normal", None, "salet", "exact", 7920, 5),
        ("key", "normal", 6, "reast", "exact", 7920, 5),
        ("key", "normal", 6, "salet", "at-least", 7920, 5),
        ("key", "normal", 6, "salet", "exact", 7921, 5),
        ("key", "normal", 6, "salet", "exact", None, 5),
        ("key", "normal", 6, "salet", "exact", 7920, 6),
    ]
    digests = {claim_digest(*o) for o in others}
    assert d not in digests and len(digests) == len(others)


def test_the_results_header_names_the_lists_key(small):
    assert small.prior_key == small.fingerprint  # uniform: the fingerprint is the key
    header = results_header(small, False, 6)
    assert header["lists"] == small.prior_key and header["version"] == 2


# --- a resumed run ---------------------------------------------------------------------------


def test_an_honest_resume_rechecks_every_reused_line(small, results):
    first = records(results)
    assert all("digest" in r for r in first[1:])
    again = resume(results, small)
    assert again.resumed and again.recheck.trees == sum(1 for r in first if r.get("exact"))
    assert again.recheck.bounds >= 1 and again.recheck.on_digest == 0


def test_an_exact_line_whose_tree_was_built_under_its_worst_case_is_reused(small, results):
    """Shaving the worst case (``Searcher.optimal``) keeps the tree built under the tighter limit
    (6mal5: worst 5, so ``max_guesses=5``): it holds within the run's limit of 6 too."""
    recs = records(results)
    rec = next(r for r in recs if r.get("exact"))
    tight = Searcher(small, max_guesses=rec["worst"]).solve_opener(rec["opener"]).tree
    assert tight is not None and tight.total == rec["total"] and tight.max_guesses == rec["worst"] < 6
    rec["tree"] = tight.to_text()
    rec["digest"] = record_digest(rec, small.prior_key, "normal", 6)
    rewrite(results, recs)
    assert resume(results, small).recheck.trees >= 1


def test_the_trees_a_run_writes_carry_digests_that_check(small, results, tmp_path):
    path = tmp_path / "best.txt"
    resume(results, small).best_tree().write(path)
    tree = Tree.read(path)
    assert tree.meta["proven"] == "all-openers" and tree.check(small)["digest"] == tree.meta["digest"]


@pytest.mark.slow
def test_a_forged_bound_is_refused_when_the_workers_recompute_it(small, results):
    """With --jobs 2 the one-level bounds of the re-check run on the process pool."""
    no, rec = forge(
        results, small, lambda r: r.get("by") == "level-bound", lambda r: r.update(total=r["total"] + 40), True
    )
    with pytest.raises(RatenError, match=rf"line {no} \({rec['opener'].upper()}\): claims at least"):
        run_best(small, top=2, results=results, memo_gb=0.01, jobs=2)


def test_the_issues_forged_line_is_refused_by_the_resumed_run_naming_it(small, tmp_path):
    """One line of a results file edited by hand (a refuted opener made exact and best, as in the
    issue): `raten tree --best` run again on the same custom lists refuses it, no traceback."""
    sols, allowed = tmp_path / "s.txt", tmp_path / "a.txt"
    sols.write_text("\n".join(small.solutions) + "\n")
    allowed.write_text("\n".join(small.allowed) + "\n")
    path = tmp_path / "r.jsonl"
    args = ["tree", "--best", "--solutions", str(sols), "--allowed", str(allowed), "--top", "2", "--jobs", "1"]
    args += ["--memo-gb", "0", "--results", str(path)]
    ok = CliRunner().invoke(main, args)
    assert ok.exit_code == 0, ok.output
    best = min((r for r in records(path)[1:] if r.get("exact")), key=lambda r: r["total"])["total"]

    def make_best(r: dict) -> None:
        r.update(exact=True, total=best - 10, worst=5, by=None)

    no, rec = forge(path, small, lambda r: r["kind"] == "opener" and not r["exact"], make_best, reseal=False)
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 1 and "Traceback" not in res.output
    assert f"{path} line {no} ({rec['opener'].upper()})" in " ".join(res.output.split())
    assert "does not match its digest" in res.output and "proven optimal" not in res.output


def test_a_resealed_exact_line_is_refused_by_its_tree(small, results):
    no, rec = forge(results, small, lambda r: r.get("exact"), lambda r: r.update(total=r["total"] - 1), True)
    with pytest.raises(RatenError, match=rf"line {no} \({rec['opener'].upper()}\): claims total {rec['total']} but"):
        resume(results, small)


def test_a_resealed_exact_line_without_a_tree_is_refused(small, results):
    def exact_no_tree(r: dict) -> None:
        r.update(exact=True, total=r["total"] - 50, worst=4, by=None)

    no, _ = forge(results, small, lambda r: r["kind"] == "opener" and not r["exact"], exact_no_tree, True)
    with pytest.raises(RatenError, match=rf"line {no} .*carries no tree"):
        resume(results, small)


@pytest.mark.parametrize("kind", ["opener", "bound"])
def test_a_resealed_level_bound_above_its_recomputation_is_refused(small, results, kind):
    def pick(r: dict) -> bool:
        return r["kind"] == kind and r.get("by") == "level-bound" and not r["exact"]

    no, rec = forge(results, small, pick, lambda r: r.update(total=r["total"] + 40), True)
    with pytest.raises(RatenError, match=rf"line {no} \({rec['opener'].upper()}\): claims at least .* recomputed is"):
        resume(results, small)


@pytest.mark.slow
def test_a_search_bound_above_every_cheap_bound_is_accepted_on_its_digest_and_counted(en_words, tmp_path):
    """The exact search's bound at its cut-off can claim more than the one-level bound shows:
    re-proving it would cost what it cost, so it is taken on its digest and counted. (On the
    smaller slice every opener's total is within one of its one-level bound: a larger one.)"""
    mid = WordSet.from_lists(en_words.solutions[::8], en_words.allowed[::40], name="mid")
    results = tmp_path / "r.jsonl"
    run_best(mid, top=1, results=results, memo_gb=0)
    bounds, exact = Searcher(mid, max_guesses=6), Searcher(mid, max_guesses=6)  # a memo of bounds only
    done = {r["opener"] for r in records(results)[1:] if r["kind"] == "opener"}
    opener = next(
        o
        for o in mid.allowed
        if o not in done and exact.solve_opener(o, tree=False).total > bounds.opener_level_bound(o) + 1
    )
    level = bounds.opener_level_bound(opener)
    rec = opener_job((mid, False, 6, 10, None), opener, level + 1) | {"kind": "opener"}
    assert not rec["exact"] and rec["total"] > level and "by" not in rec
    out = ResultsFile(results, results_header(mid, False, 6))
    out.write(rec)
    out.close()
    jobs._SEARCHERS.clear()  # a resumed run is a new process: no memo left from the searches above
    again = run_best(mid, top=1, results=results, memo_gb=0)
    assert again.recheck.on_digest == 1 and again.to_dict(1)["resumed_on_digest"] == 1


def test_a_results_file_from_before_digests_is_refused(small, results):
    recs = records(results)
    recs[0]["version"] = 1
    for r in recs[1:]:
        r.pop("digest")
    rewrite(results, recs)
    with pytest.raises(RatenError, match="version 1, written before its lines carried digests"):
        resume(results, small)


def test_a_line_from_another_mode_is_refused(small, results, tmp_path):
    hard = tmp_path / "hard.jsonl"
    run_best(small, True, top=1, results=hard, memo_gb=0)
    recs = records(results)
    moved = next(r for r in records(hard)[1:] if r["kind"] == "opener")
    recs.append(moved)
    rewrite(results, recs)
    with pytest.raises(RatenError, match=rf"line {len(recs)} .*does not match its digest"):
        resume(results, small)


# --- tree headers and `raten tree check` -----------------------------------------------------


def check(path: Path):
    return CliRunner().invoke(main, ["tree", "check", "--words", "de", str(path)])


def shipped_with(tmp_path: Path, old: str, new: str) -> Path:
    text = (SHIPPED_TREES / "de-normal.txt").read_text()
    assert old in text
    path = tmp_path / "forged.txt"
    path.write_text(text.replace(old, new, 1))
    return path


def test_the_shipped_trees_carry_their_digest_and_read_back_unchanged():
    for path in sorted(SHIPPED_TREES.glob("*.txt")):
        text = path.read_text()
        tree = Tree.read(path)
        assert tree.meta["digest"] == tree.digest() and tree.to_text() == text, path.name


@pytest.mark.parametrize(
    ("old", "new", "named"),
    [
        ("proven=all-openers", "proven=opener", "digest="),
        ("max_guesses=6", "max_guesses=5", "digest="),
        ("opener=tarne", "opener=serin", "opener=serin"),
        ("total=3335", "total=3300", "total=3300"),
        ("worst=5", "worst=4", "worst=4"),
        ("proven=all-openers", "proven=everything", "proven=everything"),
        ("digest=", "digest=0", "digest=0"),
    ],
)
@pytest.mark.slow
def test_a_forged_tree_header_is_refused_by_tree_check(tmp_path, old, new, named):
    res = check(shipped_with(tmp_path, old, new))
    assert res.exit_code == 1 and "Traceback" not in res.output
    first = res.output.splitlines()[1]
    assert named in first, res.output


def test_a_tree_header_without_a_digest_reads_with_a_note(tmp_path):
    text = (SHIPPED_TREES / "de-normal.txt").read_text()
    head = text.splitlines()[1]
    path = tmp_path / "old.txt"
    path.write_text(text.replace(head, head[: head.index(" digest=")], 1))
    res = check(path)
    assert res.exit_code == 0 and "unverified" in res.output and "no digest" in res.output
    ok = check(SHIPPED_TREES / "de-normal.txt")
    assert ok.exit_code == 0 and "unverified" not in ok.output
