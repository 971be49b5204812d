"""The exact search on words of 4, 6 and 8 letters, some beyond a-z, against the exhaustive
search of test_tree_search (every guess at every node, no bound), and its trees checked."""

from __future__ import annotations

import random

import pytest
from test_tree_search import brute_force, tiny_words

from raten.trees.model import Tree
from raten.trees.search import INF, Searcher

CASES = [
    (length, seed, hard, limit)
    for length in (4, 6, 8)
    for seed in range(3)
    for hard, limit in ((False, None), (True, 4))
]


@pytest.mark.slow
@pytest.mark.parametrize(("length", "seed", "hard", "limit"), CASES)
def test_exact_search_of_other_lengths_equals_brute_force(
    length: int, seed: int, hard: bool, limit: int | None
) -> None:
    rng = random.Random(seed)
    letters = "aeiäöß" if length > 4 else "aenrüt"
    words = tiny_words(seed, letters, n_sol=rng.randint(5, 10), n_extra=rng.randint(2, 6), length=length)
    assert words.length == length
    searcher = Searcher(words, hard=hard, max_guesses=limit, memo_bits=10)
    for opener in words.allowed:
        expected = brute_force(words, opener, hard, limit)
        got = searcher.solve_opener(opener)
        if expected >= INF:
            assert not got.exact or got.total >= INF, opener
            continue
        assert got.exact and got.total == expected, (opener, got, expected)
        assert got.tree.check(words)["total"] == expected
        again = Tree.from_text(got.tree.to_text())  # the file format of words of this length
        assert again.check(words)["total"] == expected


def test_a_six_letter_tree_reads_its_patterns_by_its_words() -> None:
    words = tiny_words(1, "aeiäöß", n_sol=6, n_extra=3, length=6)
    result = Searcher(words).solve_opener(words.allowed[0])
    text = result.tree.to_text()
    assert all(len(tok) == 6 for line in text.splitlines()[2:] for tok in line.split())
    assert Tree.from_text(text).check(words)["total"] == result.total
