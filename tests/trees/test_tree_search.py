"""The exact search against an exhaustive search on tiny word lists (no bounds, no cut-offs)."""

from __future__ import annotations

import random
from functools import cache

import pytest

from raten.engine.alphabet import ASCII_LETTERS, Alphabet
from raten.engine.feedback import pattern
from raten.engine.hardmode import violation
from raten.engine.words import WordSet
from raten.trees.search import INF, Searcher
from raten.trees.weights import integer_weights


def tiny_words(
    seed: int, alphabet: str = "aeinrst", n_sol: int | None = None, n_extra: int | None = None, length: int = 5
) -> WordSet:
    """Random strings of ``length`` letters over a small alphabet (beyond a-z: kept as letters of
    their own): many shared letters, many ties."""
    rng = random.Random(seed)
    n_sol = n_sol or rng.randint(4, 9)
    n_extra = n_extra if n_extra is not None else rng.randint(2, 10)
    words: set[str] = set()
    while len(words) < n_sol + n_extra:
        words.add("".join(rng.choice(alphabet) for _ in range(length)))
    pool = sorted(words)
    rng.shuffle(pool)
    kept = Alphabet("".join(sorted(set(ASCII_LETTERS) | set(alphabet))))
    return WordSet.from_lists(pool[:n_sol], pool[n_sol:], name=f"tiny{seed}", alphabet=kept)


def exhaustive(words: WordSet, hard: bool):
    """(best(cands, left, history), after(guess, cands, left, history, opener=False)): least
    weighted totals (``integer_weights``: all 1 under the uniform prior, so plain guess counts)
    by trying every guess at every node, with no bound and no cut-off (INF if impossible)."""
    w = dict(zip(words.solutions, (int(x) for x in integer_weights(words)), strict=True))

    @cache
    def best(cands: frozenset, left: int, history: tuple) -> int:
        if len(cands) == 1 and left >= 1:
            (only,) = cands
            return w[only]
        if left <= 0:
            return INF
        out = INF
        for g in words.allowed:
            if hard and violation(g, history):
                continue
            out = min(out, after(g, cands, left, history))
        return out

    def after(g: str, cands: frozenset, left: int, history: tuple, opener: bool = False) -> int:
        groups: dict[int, set[str]] = {}
        for s in cands:
            groups.setdefault(pattern(g, s), set()).add(s)
        if len(groups) == 1 and words.all_green not in groups and not opener:
            # learns nothing: never part of a best tree below the opener (it spends a guess and,
            # in hard mode, adds rules), but the opener is given and still starts a tree
            return INF
        total = sum(w[s] for s in cands)
        for code, grp in groups.items():
            if code != words.all_green:
                total += best(frozenset(grp), left - 1, (*history, (g, code)) if hard else ())
        return min(total, INF)

    return best, after


def brute_force(words: WordSet, opener: str, hard: bool, limit: int | None) -> int:
    """Least total after ``opener`` by trying every guess at every node (INF if impossible)."""
    _best, after = exhaustive(words, hard)
    return after(opener, frozenset(words.solutions), limit or 99, (), opener=True)


MODES = ((False, None), (True, None), (False, 3), (True, 4), (False, 2), (True, 3))
CASES = [(seed, "aeinrst", hard, limit) for seed in range(12) for hard, limit in MODES]
CASES += [(seed, "abc", hard, limit) for seed in range(4) for hard, limit in MODES]


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "alphabet", "hard", "limit"), CASES)
def test_exact_search_equals_brute_force(seed: int, alphabet: str, hard: bool, limit: int | None) -> None:
    rng = random.Random(seed)
    words = tiny_words(seed, alphabet, n_sol=rng.randint(5, 12), n_extra=rng.randint(2, 8))
    searcher = Searcher(words, hard=hard, max_guesses=limit, memo_bits=10)
    for opener in words.allowed:
        expected = brute_force(words, opener, hard, limit)
        got = searcher.solve_opener(opener)
        if expected >= INF:
            assert not got.exact or got.total >= INF, opener
            continue
        assert got.exact and got.total == expected, (opener, got, expected)
        tree = got.tree
        summary = tree.check(words)
        assert summary["total"] == expected
        if limit:
            assert tree.worst <= limit


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.slow
def test_cut_off_gives_exact_value_below_bound_and_a_true_lower_bound_above(seed: int) -> None:
    words = tiny_words(100 + seed, n_sol=9, n_extra=8)
    exact = {o: Searcher(words).solve_opener(o, tree=False).total for o in words.allowed}
    for opener, value in exact.items():
        for beta in (value - 2, value, value + 1):
            got = Searcher(words, memo_bits=8).solve_opener(opener, beta=beta, tree=False)
            if value < beta:
                assert got.exact and got.total == value
            else:
                assert not got.exact and beta <= got.total <= value


def test_shared_memo_across_limits_and_openers_stays_exact() -> None:
    words = tiny_words(7, n_sol=9, n_extra=10)
    shared = Searcher(words, memo_bits=6)  # tiny table: evictions happen
    for opener in words.allowed:
        for limit in (None, 3, 4):
            got = shared.with_limit(limit).solve_opener(opener, tree=False)
            fresh = brute_force(words, opener, False, limit)
            assert (got.total if got.exact else INF) == fresh


def test_least_worst_keeps_the_total() -> None:
    words = tiny_words(3, n_sol=9, n_extra=6)
    s = Searcher(words)
    r = s.solve_opener(words.allowed[0])
    worst, tree = s.least_worst(words.allowed[0], r.total, r.worst or 0)
    assert worst <= (r.worst or 0)
    if tree is not None:
        assert tree.total == r.total and tree.worst == worst


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "hard"), [(seed, hard) for seed in range(6) for hard in (False, True)])
def test_the_least_worst_case_among_optimal_trees_equals_brute_force(seed: int, hard: bool) -> None:
    """``optimal`` shaves the worst case from the first search's groups (their totals as floors,
    the groups the tree solves within the tighter limit kept): the least limit that keeps the
    total, found by trying every limit exhaustively."""
    words = tiny_words(200 + seed, n_sol=10, n_extra=6)
    s = Searcher(words, hard=hard, max_guesses=6, memo_bits=8)
    for opener in words.allowed[:5]:
        total = brute_force(words, opener, hard, 6)
        r = s.optimal(opener)
        if total >= INF:
            assert not r.exact
            continue
        least = min(limit for limit in range(1, 7) if brute_force(words, opener, hard, limit) == total)
        assert r.exact and r.total == total and r.worst == least and r.worst_proven, (opener, r)
        summary = r.tree.check(words)
        assert summary["total"] == total and summary["worst"] == least


@pytest.mark.slow
@pytest.mark.parametrize("hard", [False, True])
def test_shaving_from_the_first_search_equals_shaving_from_scratch(en_words: WordSet, hard: bool) -> None:
    """On a slice of the English lists (where about one optimal tree in four is not the least
    deep): ``optimal``'s worst case equals ``least_worst`` searching every group afresh at each
    limit, and its tree has the total and that worst case."""
    words = WordSet.from_lists(en_words.solutions[::12], en_words.allowed[::60], name="slice")
    s = Searcher(words, hard=hard, max_guesses=6, memo_bits=14)
    shaved = 0
    for opener in words.allowed[:40]:
        first = s.solve_opener(opener)
        if not first.exact:
            continue
        plain, _ = s.least_worst(opener, first.total, first.worst or 0)
        r = s.optimal(opener)
        assert r.total == first.total and r.worst == plain, opener
        summary = r.tree.check(words)
        assert summary["total"] == r.total and summary["worst"] == plain
        shaved += plain < (first.worst or 0)
    assert shaved >= 5  # the case the floors are for, seen often enough


@pytest.mark.parametrize("seed", range(4))
def test_ceilings_from_another_tree_cut_the_search_and_never_change_its_total(seed: int) -> None:
    """``ceilings`` (each group's total in a tree under the opener) are cut-offs: the exact total
    comes out the same, with ceilings that are reached (any optimal tree's, or a worse one's) and
    with ceilings set too low (then the group is searched again without them)."""
    from raten.trees.search import group_totals

    words = tiny_words(300 + seed, n_sol=12, n_extra=6)
    for opener in words.allowed[:4]:
        plain = Searcher(words, max_guesses=6).solve_opener(opener)
        if not plain.exact:
            continue
        reached = group_totals(plain.tree)
        assert sum(reached.values()) + len(words.solutions) == plain.total
        for ceilings in (reached, {c: v + 3 for c, v in reached.items()}, {c: v - 1 for c, v in reached.items()}):
            got = Searcher(words, max_guesses=6).solve_opener(opener, ceilings=ceilings)
            assert got.exact and got.total == plain.total, (opener, ceilings)


@pytest.mark.parametrize(
    ("seed", "limit", "weighted"), [(s, lim, w) for s in range(3) for lim in (6, 2, None) for w in (0, 1)]
)
def test_every_openers_cheap_bound_from_one_scan_equals_each_from_its_groups(seed, limit, weighted) -> None:
    from raten.engine.words import WordSet

    words = tiny_words(400 + seed, n_sol=14, n_extra=10)
    if weighted:  # a prior: integer weights differ from one solution to the next
        rng = random.Random(seed)
        words = words.with_prior("test", [rng.choice((0.2, 1.0, 3.0)) for _ in words.solutions])
    s = Searcher(words, max_guesses=limit)
    rows = list(range(len(words.allowed)))
    assert s.opener_bounds(rows) == [s.opener_bound(g) for g in rows]
    flat = WordSet.from_lists(["aaaaa", "bbbbb", "ccccc"], ["zzzzz"], name="flat")  # ZZZZZ learns nothing
    f = Searcher(flat, max_guesses=limit)
    assert f.opener_bounds([0, 1, 2, 3]) == [f.opener_bound(g) for g in range(4)]
