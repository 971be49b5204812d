"""checker/check_optimum.py, run as a subprocess: it passes on the committed German trees and
tables, and fails, naming the fault, on forgeries made in temporary copies.

The forgeries are built with raten's own feedback and hard-mode rule, so a checker that shared
a mistake with raten would not be the one that builds the forgery's true colours; a forged table
row gets the digest raten would give it (``row_digest``: the digest is no signature), so the
checker's other checks are reached, and the checker recomputes digests with its own code.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from raten.engine.feedback import format_pattern, pattern
from raten.engine.hardmode import violation
from raten.trees.model import Tree
from raten.trees.report import row_digest
from raten.wordlists.presets import load_words

REPO = Path(__file__).resolve().parents[2]
CHECKER = REPO / "checker" / "check_optimum.py"
TREES = REPO / "src" / "raten" / "data" / "trees"


def run(*args) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(CHECKER), *map(str, args)], capture_output=True, text=True, timeout=900, check=False
    )


@pytest.fixture(scope="session")
def de_lists(tmp_path_factory) -> tuple[Path, Path]:
    """The de preset's lists written out, as `raten words` users would write them (its own
    solutions: the trees are proven under the uniform prior)."""
    words = load_words("de", prior="uniform")
    out = tmp_path_factory.mktemp("de-lists")
    (out / "solutions.txt").write_text("\n".join(words.solutions) + "\n")
    (out / "allowed.txt").write_text("\n".join(words.allowed) + "\n")
    return out / "solutions.txt", out / "allowed.txt"


@pytest.fixture(scope="session")
def six_lists(shared_list) -> tuple[Path, Path]:
    """The 6mal5 lists the 6mal5-* trees were made from."""
    return shared_list("de", "solutions.txt"), shared_list("de", "allowed.txt")


def lists_for(name: str, de_lists, six_lists) -> list:
    sols, allowed = de_lists if name.startswith("de-") else six_lists
    return ["--solutions", sols, "--allowed", allowed]


def tree_lines(name: str) -> list[str]:
    return (TREES / f"{name}.txt").read_text().splitlines()


def write(tmp_path: Path, name: str, lines: list[str]) -> Path:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n")
    return path


def expect_failure(result: subprocess.CompletedProcess, *words: str) -> None:
    assert result.returncode == 1, result.stdout + result.stderr
    assert "FAILED" in result.stderr and "Traceback" not in result.stderr
    for word in words:
        assert word in result.stderr, result.stderr


# --- the committed files pass ------------------------------------------------------------

GERMAN = ["de-normal", "de-hard", "6mal5-normal", "6mal5-hard"]


def test_feedback_rule():
    sys.path.insert(0, str(CHECKER.parent))
    try:
        import check_optimum
    finally:
        sys.path.pop(0)
    assert check_optimum.feedback("beere", "rente") == ".!.?!"  # grey, green, grey, yellow, green
    assert check_optimum.feedback("speed", "abide") == "..?.?"
    words = ["beere", "rente", "speed", "abide", "eerie", "tarne", "xxxxx", "essen"]
    matrix = check_optimum.feedback_matrix(words, words)
    for i, g in enumerate(words):
        for j, a in enumerate(words):
            assert check_optimum.feedback(g, a) == format_pattern(pattern(g, a))
            assert matrix[i, j] == check_optimum.code_of(check_optimum.feedback(g, a))


@pytest.mark.slow
@pytest.mark.parametrize("name", GERMAN)
def test_committed_tree_passes(name, de_lists, six_lists):
    hard = ["--hard"] if "hard" in name else []
    result = run(*lists_for(name, de_lists, six_lists), "--tree", TREES / f"{name}.txt", *hard)
    assert result.returncode == 0, result.stderr
    assert "every claim holds" in result.stdout


@pytest.mark.slow
@pytest.mark.parametrize("name", GERMAN)
def test_committed_table_passes(name, de_lists, six_lists):
    hard = ["--hard"] if "hard" in name else []
    args = ["--tree", TREES / f"{name}.txt", "--openers", TREES / f"{name}-openers.tsv", *hard]
    result = run(*lists_for(name, de_lists, six_lists), *args)
    assert result.returncode == 0, result.stderr
    assert "verified independently" in result.stdout and "every claim holds" in result.stdout


# --- forged trees ------------------------------------------------------------------------


def check_forged_tree(tmp_path, name, lines, de_lists, six_lists):
    hard = ["--hard"] if "hard" in name else []
    return run(*lists_for(name, de_lists, six_lists), "--tree", write(tmp_path, "t.txt", lines), *hard)


@pytest.mark.slow
def test_wrong_total_in_header(tmp_path, de_lists, six_lists):
    lines = tree_lines("de-normal")
    lines[1] = lines[1].replace("total=3335", "total=3334")
    expect_failure(check_forged_tree(tmp_path, "de-normal", lines, de_lists, six_lists), "total=3334", "3335")


def test_wrong_header_opener(tmp_path, de_lists, six_lists):
    lines = tree_lines("de-normal")
    lines[1] = lines[1].replace("opener=tarne", "opener=serin")
    expect_failure(check_forged_tree(tmp_path, "de-normal", lines, de_lists, six_lists), "opener=serin", "tarne")


def test_wrong_colours(tmp_path, de_lists, six_lists):
    lines = tree_lines("de-normal")
    toks = lines[10].split()
    toks[1] = ("?" if toks[1][0] != "?" else ".") + toks[1][1:]
    lines[10] = " ".join(toks)
    result = check_forged_tree(tmp_path, "de-normal", lines, de_lists, six_lists)
    expect_failure(result, ":11:", f"{toks[0].upper()} against {toks[-2].upper()}")


def test_answer_missing(tmp_path, de_lists, six_lists):
    lines = tree_lines("6mal5-normal")
    gone = lines.pop(500).split()[-2]
    expect_failure(check_forged_tree(tmp_path, "6mal5-normal", lines, de_lists, six_lists), "not reached", gone.upper())


def test_guess_not_allowed(tmp_path, de_lists, six_lists):
    lines = tree_lines("de-normal")
    toks = lines[20].split()
    toks[2:2] = ["qqqqq", format_pattern(pattern("qqqqq", toks[-2]))]  # an extra guess outside the list
    lines[20] = " ".join(toks)
    expect_failure(check_forged_tree(tmp_path, "de-normal", lines, de_lists, six_lists), "QQQQQ is not an allowed")


@pytest.mark.slow
def test_hard_mode_violation(tmp_path, de_lists, six_lists):
    """A guess that drops the opener's greens, on a path no other answer shares."""
    lines = tree_lines("de-hard")
    words = load_words("de")
    prefixes = [" ".join(line.split()[:-2]) for line in lines[2:]]
    at = next(
        i
        for i, line in enumerate(lines[2:], 2)
        if len(line.split()) >= 6 and prefixes.count(" ".join(line.split()[:-2])) == 1
    )
    toks = lines[at].split()
    answer = toks[-2]
    history = [(toks[i], pattern(toks[i], answer)) for i in range(0, len(toks) - 2, 2)]
    bad = next(w for w in words.allowed if violation(w, history) and w != answer)
    toks[-2:-2] = [bad, format_pattern(pattern(bad, answer))]
    lines[at] = " ".join(toks)
    result = check_forged_tree(tmp_path, "de-hard", lines, de_lists, six_lists)
    expect_failure(result, f"{bad.upper()} breaks hard mode")
    # the same tree read without --hard contradicts its own header
    result = run(*lists_for("de-hard", de_lists, six_lists), "--tree", TREES / "de-hard.txt")
    expect_failure(result, "mode=hard")


def test_not_a_tree(tmp_path, de_lists, six_lists):
    lines = tree_lines("6mal5-normal")
    toks = lines[5].split()
    answer = toks[-2]
    other = next(w for w in ("trine", "raste", "senil") if w != toks[2])
    lines[5] = " ".join([*toks[:2], other, format_pattern(pattern(other, answer)), answer, "!!!!!"])
    expect_failure(check_forged_tree(tmp_path, "6mal5-normal", lines, de_lists, six_lists), "not a tree")


# --- forged tables (6mal5: the smallest matrix, and each forgery fails early) ------------


def check_forged_table(tmp_path, rows, six_lists, name="6mal5-normal"):
    hard = ["--hard"] if "hard" in name else []
    tsv = write(tmp_path, "o.tsv", rows)
    sols, allowed = six_lists
    return run("--solutions", sols, "--allowed", allowed, "--tree", TREES / f"{name}.txt", "--openers", tsv, *hard)


def table_rows(name="6mal5-normal") -> list[str]:
    return (TREES / f"{name}-openers.tsv").read_text().splitlines()


def sealed(opener: str, status: str, total: str, worst: str = "", name="6mal5-normal") -> str:
    """A table row with the digest raten gives its claim: a forger can compute it too."""
    t = Tree.read(TREES / f"{name}.txt")
    head = {"lists": t.fingerprint, "mode": "hard" if t.hard else "normal", "max_guesses": t.max_guesses}
    known = None if total == "impossible" else int(total)
    return "\t".join([opener, status, total, worst, row_digest(head, opener, status, known, int(worst or 0))])


def test_committed_rows_carry_the_digest_raten_gives_them():
    rows = table_rows()
    assert rows[0].split("\t")[-1] == "digest"
    for row in (rows[1], rows[-1]):
        assert sealed(*row.split("\t")[:4]) == row


def test_a_row_edited_without_its_digest(tmp_path, six_lists):
    rows = table_rows()
    cells = rows[7].split("\t")
    rows[7] = "\t".join([cells[0], cells[1], str(int(cells[2]) + 1), *cells[3:]])  # the digest left as it was
    expect_failure(check_forged_table(tmp_path, rows, six_lists), "o.tsv:8", "does not match its digest")


@pytest.mark.slow
def test_a_tree_for_other_lists(tmp_path, de_lists, six_lists):
    lines = tree_lines("de-normal")
    fingerprint = next(t for t in lines[1].split() if t.startswith("fingerprint=")).split("=")[1]
    lines[1] = lines[1].replace(fingerprint, "0" * len(fingerprint))
    expect_failure(check_forged_tree(tmp_path, "de-normal", lines, de_lists, six_lists), "fingerprint=000", fingerprint)


@pytest.mark.slow
def test_a_header_edited_without_its_digest(tmp_path, de_lists, six_lists):
    lines = tree_lines("de-normal")
    lines[1] = lines[1].replace("proven=all-openers", "proven=opener")
    expect_failure(check_forged_tree(tmp_path, "de-normal", lines, de_lists, six_lists), "digest=", "its claims")


@pytest.mark.slow
def test_best_row_not_the_trees(tmp_path, six_lists):
    rows = table_rows()
    rows[1], rows[2] = rows[2], rows[1]
    expect_failure(check_forged_table(tmp_path, rows, six_lists), "best row is TRINE", "SARTE")


@pytest.mark.slow
def test_best_row_figure_differs_from_the_tree(tmp_path, six_lists):
    rows = table_rows()
    rows[1] = sealed("sarte", "exact", "3423", "5")
    expect_failure(check_forged_table(tmp_path, rows, six_lists), "SARTE exact 3423", "3424")


@pytest.mark.slow
def test_row_better_than_the_best(tmp_path, six_lists):
    rows = table_rows()
    rows[5] = sealed(rows[5].split("\t")[0], "exact", "3420", "5")
    expect_failure(check_forged_table(tmp_path, rows, six_lists), "better than the best")


@pytest.mark.slow
def test_unrefuted_opener(tmp_path, six_lists):
    """An at-least bound below the best: the opener is not refuted, and the checker's own bound
    (weaker than raten's exact search for the second-best opener) cannot refute it either."""
    rows = table_rows()
    opener = rows[2].split("\t")[0]
    rows[2] = sealed(opener, "at-least", "3400")
    expect_failure(check_forged_table(tmp_path, rows, six_lists), "not refuted", opener.upper())


@pytest.mark.slow
def test_missing_and_unknown_openers(tmp_path, six_lists):
    rows = table_rows()
    expect_failure(check_forged_table(tmp_path, rows[:-1], six_lists), "proven=all-openers", "no row")
    rows[-1] = sealed("qqqqq", "at-least", "9999")
    expect_failure(check_forged_table(tmp_path, rows, six_lists), "QQQQQ is not an allowed")


# --- bad usage and unreadable input ------------------------------------------------------


@pytest.mark.slow
def test_bad_usage_and_unreadable_input(tmp_path, six_lists):
    sols, allowed = six_lists
    assert run("--solutions", sols).returncode == 2
    result = run("--solutions", sols, "--allowed", allowed, "--tree", tmp_path / "none.txt")
    assert result.returncode == 2 and "cannot read the tree file" in result.stderr
    assert "Traceback" not in result.stderr
    junk = write(tmp_path, "junk.txt", ["# raten decision tree v1", "# mode=normal", "sarte !!"])
    result = run("--solutions", sols, "--allowed", allowed, "--tree", junk)
    assert result.returncode == 2 and "junk.txt:3" in result.stderr
    bad_list = write(tmp_path, "bad.txt", ["abc"])
    result = run("--solutions", bad_list, "--allowed", allowed, "--tree", TREES / "6mal5-normal.txt")
    assert result.returncode == 2 and "not a word of 4 to 8 letters" in result.stderr
