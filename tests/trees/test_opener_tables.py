"""The proven openers the openers page shows: read from trees/*-openers.tsv (issue 12 item 9),
checked against the files read here independently."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from raten.engine.words import WordSet
from raten.errors import RatenError
from raten.trees.report import row_digest
from raten.trees.values import best_openers, opener_rows

TREES = Path(__file__).resolve().parents[2] / "src" / "raten" / "data" / "trees"


def exact_rows(name: str, mode: str) -> list[tuple[str, int, int]]:
    with open(TREES / f"{name}-{mode}-openers.tsv", newline="", encoding="utf-8") as f:
        rows = [
            (r["opener"], int(r["total"]), int(r["worst"]))
            for r in csv.DictReader(f, delimiter="\t")
            if r["status"] == "exact"
        ]
    return sorted(rows, key=lambda r: (r[1], r[2], r[0]))


@pytest.mark.parametrize("hard", [False, True], ids=["normal", "hard"])
def test_the_best_proven_openers_of_the_6mal5_lists(de6_words, hard):
    mode = "hard" if hard else "normal"
    got = best_openers(de6_words, hard, top=10)
    want = exact_rows("6mal5", mode)[:10]
    assert [(r.opener, r.total.total, r.worst) for r in got] == want
    n = len(de6_words.solutions)
    assert all(r.total.exact and r.average == pytest.approx(r.total.total / n) for r in got)


def test_the_english_list_has_salet_first(en_words):
    best = best_openers(en_words, False, top=3)
    assert best[0].opener == "salet" and best[0].total.total == 7920  # published (Selby; docs/english-optimal.md)
    assert best[0].worst == 5


def test_at_least_rows_are_read_but_never_shown_as_proven(de6_words):
    rows = opener_rows(de6_words, False)
    assert any(not r.total.exact and r.worst is None for r in rows)
    assert len(best_openers(de6_words, False, top=10_000)) == len(exact_rows("6mal5", "normal"))


def test_no_table_for_another_list_or_directory(de6_words, tmp_path):
    other = WordSet.from_lists(["crane", "slate"], ["crane", "slate", "trace"], name="6mal5", language="de")
    assert best_openers(other, False) == []  # the same name, other words: the fingerprint differs
    assert best_openers(de6_words, False, directory=tmp_path) == []


def test_an_opener_that_cannot_win_in_six_is_read_as_unbounded(de6_words):
    from raten.trees.values import INF

    rows = {r.opener: r for r in opener_rows(de6_words, True)}
    with open(TREES / "6mal5-hard-openers.tsv", encoding="utf-8") as f:
        impossible = [line.split("\t")[0] for line in f if "\timpossible" in line]
    assert impossible and all(rows[o].total.total == INF and not rows[o].total.exact for o in impossible)


# --- a damaged or forged table is refused, never read as values (issue 25) ---------------


def forged_copy(tmp_path: Path, name: str = "6mal5-normal") -> tuple[Path, Path]:
    """The committed tree and table of ``name`` copied into ``tmp_path``, to edit there."""
    for suffix in (".txt", "-openers.tsv"):
        (tmp_path / f"{name}{suffix}").write_text((TREES / f"{name}{suffix}").read_text(encoding="utf-8"))
    return tmp_path / f"{name}.txt", tmp_path / f"{name}-openers.tsv"


def edit_line(path: Path, no: int, edit) -> str:
    """Replace line ``no`` (1-based) of ``path`` by ``edit(line)``; returns the line's opener cell."""
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[no - 1] = edit(lines[no - 1])
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return lines[no - 1].split("\t")[0]


def test_the_copied_table_reads_as_committed(de6_words, tmp_path):
    forged_copy(tmp_path)
    assert opener_rows(de6_words, False, directory=tmp_path) == opener_rows(de6_words, False)


def test_a_row_edited_without_its_digest_is_refused(de6_words, tmp_path):
    _, tsv = forged_copy(tmp_path)

    def lower(line: str) -> str:
        cells = line.split("\t")
        return "\t".join([cells[0], cells[1], str(int(cells[2]) - 2), *cells[3:]])

    opener = edit_line(tsv, 9, lower)
    with pytest.raises(RatenError) as e:
        opener_rows(de6_words, False, directory=tmp_path)
    assert f"{tsv}:9" in str(e.value) and opener.upper() in str(e.value) and "digest" in str(e.value)
    with pytest.raises(RatenError, match=r"openers\.tsv:9"):
        best_openers(de6_words, False, directory=tmp_path)  # what the openers page shows


def test_a_resealed_row_better_than_the_tree_is_refused(de6_words, tmp_path):
    """A forger can recompute a row's digest (it is no signature): a row claiming less than the
    proven best tree is refused all the same."""
    _, tsv = forged_copy(tmp_path)
    head = {"lists": de6_words.fingerprint, "mode": "normal", "max_guesses": 6}

    def better(line: str) -> str:
        opener = line.split("\t")[0]
        return "\t".join([opener, "exact", "3400", "5", row_digest(head, opener, "exact", 3400, 5)])

    edit_line(tsv, 5, better)
    with pytest.raises(RatenError, match=r"openers\.tsv:5: .* exact 3400 is below the proven best 3424"):
        opener_rows(de6_words, False, directory=tmp_path)


def test_a_tree_header_edited_is_refused(de6_words, tmp_path):
    txt, _ = forged_copy(tmp_path, "6mal5-hard")
    edit_line(txt, 2, lambda line: line.replace("proven=all-openers", "proven=opener"))
    with pytest.raises(RatenError) as e:
        opener_rows(de6_words, True, directory=tmp_path)
    assert str(txt) in str(e.value) and "digest" in str(e.value)


def test_the_review_refuses_a_forged_table(de6_words, tmp_path, monkeypatch):
    """``Values`` (the review's exact values) reads the table for the first guess: a forged row
    is an error naming the file, not a wrong value."""
    from raten.trees import values

    _, tsv = forged_copy(tmp_path)
    edit_line(tsv, 3, lambda line: line.replace("\texact\t", "\tat-least\t"))
    monkeypatch.setattr(values, "TREES_DIR", tmp_path)
    with pytest.raises(RatenError, match=r"openers\.tsv:3"):
        values.Values(de6_words, hard=False)
