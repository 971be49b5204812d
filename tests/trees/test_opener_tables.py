"""The proven openers the openers page shows: read from trees/*-openers.tsv (issue 12 item 9),
checked against the files read here independently."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from raten.engine.words import WordSet
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
