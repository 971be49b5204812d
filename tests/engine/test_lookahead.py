"""Look-ahead (engine.lookahead): the per-group hard-mode rules, the second-step kernel compiled
and through its Python body, against brute force in plain Python, and rank's use of it.

``tests/play/test_strategies.py`` checks ``second_step_bits`` and the ``lookahead`` strategy as a whole.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from raten.engine import lookahead
from raten.engine.hardmode import find_violation, rules
from raten.engine.state import State
from raten.engine.words import WordSet
from reference import ref_split, ref_weighted_split


@pytest.fixture(scope="module")
def small(en_words) -> WordSet:
    """40 en solutions and about 200 allowed words: small enough for plain-Python checks."""
    sols = list(en_words.solutions[::58])
    allowed = sorted(set(en_words.allowed[::65]) | set(sols) | {"crane", "slate", "eerie"})
    return WordSet.from_lists(sols, allowed, name="small-lookahead")


@pytest.mark.parametrize(
    "rules_fn", [lookahead._group_rules, lookahead._group_rules.py_func], ids=["compiled", "python"]
)
@pytest.mark.parametrize("first", ["crane", "eerie", "llama", "speed"])
def test_group_rules_are_the_hard_mode_rules_of_one_move(rules_fn, first: str) -> None:
    codes = np.arange(0, 243, 7, dtype=np.int64)
    first_letters = np.array([ord(c) - ord("a") for c in first], dtype=np.int64)
    greens, need = rules_fn(first_letters, codes, 26)
    assert greens.shape == (len(codes), 5) and need.shape == (len(codes), 26)
    for i, code in enumerate(codes.tolist()):
        want_greens, want_need = rules([(first, code)], 5)
        assert greens[i].tolist() == want_greens.tolist()
        assert need[i].tolist() == want_need.tolist()


def _groups(table, first_row: int, cols: np.ndarray):
    codes = table[first_row, cols]
    order = np.argsort(codes, kind="stable")
    group_codes, sizes = np.unique(codes[order], return_counts=True)
    bounds = np.zeros(len(sizes) + 1, dtype=np.int64)
    bounds[1:] = np.cumsum(sizes)
    return order.astype(np.int64), bounds, group_codes.astype(np.int64)


@pytest.mark.slow
@pytest.mark.parametrize("hard", [False, True])
@pytest.mark.parametrize(
    "kernel", [lookahead.second_step_entropy, lookahead.second_step_entropy.py_func], ids=["compiled", "python"]
)
def test_second_step_entropy_equals_brute_force(small, kernel, hard: bool) -> None:
    """Every group's best second-guess entropy, with hard mode's legality by find_violation."""
    state = State(small, hard=hard)
    table, cols = state.answer_table()
    rows = state.guess_rows()
    cands = state.candidate_words
    letters = small.allowed_letters
    for first in ("crane", cands[5]):
        first_row = small.allowed_index[first]
        sorted_cols, starts, codes = _groups(table, first_row, cols)
        block = lookahead.guess_block(table, rows, cols)
        got = kernel(
            block,
            np.arange(len(rows), dtype=np.int64),
            sorted_cols,
            starts,
            codes,
            letters[first_row].astype(np.int64),
            np.ascontiguousarray(letters[rows], dtype=np.int64),
            hard,
            None,  # no prior: every candidate counts once
            2,
            26,
        )
        for g, code in enumerate(codes.tolist()):
            group = [cands[j] for j in sorted_cols[starts[g] : starts[g + 1]].tolist()]
            pool = [small.allowed[r] for r in rows]
            if hard:
                pool = [w for w in pool if find_violation(w, [(first, code)]) is None]
            want = max((ref_split(w, group)[0] for w in pool), default=0.0)
            # The kernel stops searching a group once it reaches log2(size): the most there is.
            assert got[g] == pytest.approx(min(want, math.log2(len(group))), abs=1e-9), (first, code)


def test_second_step_bits_hard_mode_keeps_what_the_first_guess_reveals(small) -> None:
    """In hard mode the second guesses may only be those that keep the first one's rules, so
    the look-ahead can only lose bits against normal mode."""
    state = State(small)
    table, cols = state.answer_table()
    rows = state.guess_rows()
    letters = small.allowed_letters
    for first in ("crane", "slate", state.candidate_words[0]):
        row = small.allowed_index[first]
        normal = lookahead.second_step_bits(table, rows, cols, row, letters[row], alphabet=26)
        hard = lookahead.second_step_bits(table, rows, cols, row, letters[row], letters[rows], True, alphabet=26)
        assert hard <= normal + 1e-12


@pytest.mark.parametrize("gather", [lookahead.gather_block, lookahead.gather_block.py_func], ids=["compiled", "python"])
def test_gather_block_is_numpy_indexing(small, gather) -> None:
    table, cols = State(small).answer_table()
    rows = np.array([3, 0, 7, 7, 1], dtype=np.int64)
    assert np.array_equal(gather(table, rows, np.asarray(cols, dtype=np.int64)), table[rows][:, cols])


@pytest.mark.slow
@pytest.mark.parametrize("hard", [False, True])
@pytest.mark.parametrize("seed", [0, 1])
def test_weighted_second_step_bits_equal_brute_force(small, hard: bool, seed: int) -> None:
    """Under random weights: the groups a first guess leaves, each weighted by its prior mass and
    scored by the best weighted entropy any (legal) second guess reaches, in plain Python."""
    rng = np.random.default_rng(seed)
    state = State(small, hard=hard)
    table, cols = state.answer_table()
    rows = state.guess_rows()
    cands = state.candidate_words
    weights = rng.random(len(cols)) ** 3 + 1e-3
    letters = small.allowed_letters
    pool = [small.allowed[r] for r in rows]
    for first in ("crane", cands[3]):
        row = small.allowed_index[first]
        got = lookahead.second_step_bits(
            table, rows, cols, row, letters[row], letters[rows] if hard else None, hard, weights=weights, alphabet=26
        )
        groups: dict[int, list[int]] = {}
        for j, c in enumerate(cols.tolist()):
            groups.setdefault(int(table[row, c]), []).append(j)
        total = math.fsum(weights)
        want = 0.0
        for code, members in groups.items():
            words = [cands[j] for j in members]
            w = [weights[j] for j in members]
            legal = [g for g in pool if not hard or find_violation(g, [(first, code)]) is None]
            best = max((ref_weighted_split(g, words, w)[0] for g in legal + words), default=0.0)
            want += math.fsum(w) / total * best
        assert got == pytest.approx(want, abs=1e-9), first


def test_weighted_lookahead_ranking_uses_the_prior(small) -> None:
    """The look-ahead strategy on a weighted set ranks by bits + weighted second-step bits."""
    weighted = small.with_prior("test", np.linspace(1.0, 50.0, len(small.solutions)))
    state = State(weighted)
    hints = state.hints(top=3, strategy="lookahead:5")
    assert len(hints) == 3
    first = state.hints(top=1)[0]
    assert first.bits == pytest.approx(
        ref_weighted_split(first.word, state.candidate_words, weighted.weights.tolist())[0], abs=1e-12
    )
