"""The one-level lower bound (``kernels.level_bound``) against exact values on small random lists.

Admissible means: never above the least total an exhaustive search finds, in normal and hard
mode, with and without a guess limit; when it says "exact" it is the exact value. The search
that uses it (``deep=True``, the default) and the one without it must give the same totals.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_tree_search import MODES, brute_force, exhaustive, tiny_words

from raten.engine.feedback import ALL_GREEN
from raten.engine.words import WordSet
from raten.trees import kernels as tk
from raten.trees.search import INF, Searcher


def _level(s: Searcher, grp: np.ndarray, dl: int, greens, need, python: bool = False) -> tuple[int, int]:
    fn = tk.level_bound.py_func if python else tk.level_bound
    hh = np.uint64(tk.state_hash(greens, need)) if s.hard else np.uint64(0)
    v, ex = fn(s.tables, s.memo, grp, dl, s.hard, s.all_guesses, greens, need, hh, s.stats)
    return int(v), int(ex)


def check_groups(words: WordSet, hard: bool, limit: int | None) -> int:
    """Every group under every opener: formula bound and level bound <= exact, exact when
    flagged, the search of the group exact; returns the number of groups checked (compiled and
    Python body agree). Weighted lists too: every total is a weighted one."""
    best, _after = exhaustive(words, hard)
    checked = 0
    for opener in words.allowed:
        s = Searcher(words, hard=hard, max_guesses=limit, memo_bits=8)
        g = s.row(opener)
        dl = s._dl(1)
        for code, grp in s.groups(g, np.arange(len(words.solutions), dtype=np.int32)):
            if code == ALL_GREEN:
                continue
            greens, need = s._child(g, code, s.no_greens, s.no_need)
            exact = best(
                frozenset(words.solutions[i] for i in grp), (limit or 99) - 1, ((opener, code),) if hard else ()
            )
            v, ex = _level(s, grp, dl, greens, need)
            fresh = Searcher(words, hard=hard, max_guesses=limit, memo_bits=8)
            pv, pex = _level(fresh, grp, dl, greens, need, python=True)
            assert (pv, pex) == (v, ex), (opener, code)
            if exact >= INF:
                assert ex == 0 or v >= INF, (opener, code, v, ex)
            else:
                formula = s._group_lb(grp, dl)
                assert formula <= exact and v <= exact, (opener, code, formula, v, exact)
                if ex:
                    assert v == exact, (opener, code, v, exact)
                args = (s.tables, s.memo, grp, INF, dl, hard, s.all_guesses, greens, need, s.stats, s.deep, s.dedup)
                assert int(tk.solve_set(*args)) == exact, (opener, code, exact)
            checked += 1
        # the opener's bound from the level bounds of all its groups, and the search's value
        expected = brute_force(words, opener, hard, limit)
        lb = s.opener_level_bound(opener)
        assert lb <= expected, (opener, lb, expected)
        assert s.opener_bound(g) <= lb
    return checked


CASES = [(seed, "aeinrst", hard, limit) for seed in range(10) for hard, limit in MODES]
CASES += [(seed, "abcde", hard, limit) for seed in range(3) for hard, limit in MODES]


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "alphabet", "hard", "limit"), CASES)
def test_level_bound_never_exceeds_the_exact_value(seed: int, alphabet: str, hard: bool, limit: int | None) -> None:
    rng = random.Random(1000 + seed)
    words = tiny_words(1000 + seed, alphabet, n_sol=rng.randint(6, 14), n_extra=rng.randint(2, 8))
    assert check_groups(words, hard, limit) > 0


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    n_sol=st.integers(3, 13),
    n_extra=st.integers(0, 6),
    mode=st.sampled_from(MODES),
    alphabet=st.sampled_from(["aeinrst", "abcd", "aelrst"]),
)
@pytest.mark.slow
def test_level_bound_admissible_on_random_lists(seed: int, n_sol: int, n_extra: int, mode, alphabet: str) -> None:
    hard, limit = mode
    check_groups(tiny_words(seed, alphabet, n_sol=n_sol, n_extra=n_extra), hard, limit)


@pytest.mark.parametrize(("seed", "hard", "limit"), [(s, h, lim) for s in range(6) for h, lim in MODES])
@pytest.mark.slow
def test_search_with_and_without_the_level_bounds_agree_with_brute_force(seed: int, hard: bool, limit) -> None:
    words = tiny_words(2000 + seed, n_sol=10, n_extra=6)
    deep = Searcher(words, hard=hard, max_guesses=limit, memo_bits=9)
    flat = Searcher(words, hard=hard, max_guesses=limit, memo_bits=9, deep=False)
    for opener in words.allowed:
        expected = brute_force(words, opener, hard, limit)
        for s in (deep, flat):
            got = s.solve_opener(opener, tree=False)
            assert (got.total if got.exact else INF) == expected, (opener, s.deep, got, expected)


@pytest.mark.parametrize("seed", range(4))
def test_level_bound_cut_off_at_beta_is_still_a_bound(seed: int) -> None:
    words = tiny_words(3000 + seed, n_sol=12, n_extra=6)
    s = Searcher(words)
    for opener in words.allowed:
        full = s.opener_level_bound(opener)
        exact = brute_force(words, opener, False, None)
        for beta in (full - 3, full, full + 5):
            lb = Searcher(words).opener_level_bound(opener, beta)
            assert lb <= full <= exact
            assert lb >= min(beta, full)


def test_solve_python_body_matches_the_compiled_kernel() -> None:
    words = tiny_words(4000, n_sol=12, n_extra=6)
    s = Searcher(words, memo_bits=9)
    cands = np.arange(len(words.solutions), dtype=np.int32)
    hh = np.uint64(0)
    for deep in (False, True):  # the types the searcher passes: no compile of another signature (20 s)
        args = (s.tables, s.memo, cands, INF, tk.UNLIMITED, False, s.all_guesses, s.no_greens, s.no_need, hh, s.stats)
        compiled = tk.solve(*args, deep, s.dedup)
        s.memo[:] = 0
        py = tk.solve.py_func(*args, deep, s.dedup)
        s.memo[:] = 0
        assert compiled == py


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), alphabet=st.sampled_from(["aeinrst", "abcd", "abcdefghij"]))
@pytest.mark.slow
def test_perfect_splitter_finds_the_first_guess_that_splits_a_set_apart(seed: int, alphabet: str) -> None:
    """With one guess left before the answer only a guess with a group per candidate will do."""
    words = tiny_words(seed, alphabet, n_sol=random.Random(seed).randint(2, 12), n_extra=8)
    s = Searcher(words)
    rng = random.Random(seed)
    for _ in range(5):
        m = rng.randint(1, len(words.solutions))
        cands = np.array(sorted(rng.sample(range(len(words.solutions)), m)), dtype=np.int32)
        got = tk.perfect_splitter(s.tables[0], cands, s.all_guesses, 243)
        splits = [g for g in range(len(words.allowed)) if len({int(s.data[g, c]) for c in cands}) == m]
        assert got == (splits[0] if splits else -1)
