"""Look-ahead (engine.lookahead): the per-group hard-mode rules, the second-step kernel compiled
and through its Python body, against brute force in plain Python, and rank's use of it.

``tests/test_strategies.py`` checks ``second_step_bits`` and the ``lookahead`` strategy as a whole.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from raten.engine import lookahead
from raten.engine.hardmode import find_violation, rules
from raten.engine.state import State
from raten.engine.words import WordSet
from reference import ref_split


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
    greens, need = rules_fn(first_letters, codes)
    assert greens.shape == (len(codes), 5) and need.shape == (len(codes), 26)
    for i, code in enumerate(codes.tolist()):
        want_greens, want_need = rules([(first, code)])
        assert greens[i].tolist() == want_greens.tolist()
        assert need[i].tolist() == want_need.tolist()


def _groups(table, first_row: int, cols: np.ndarray):
    codes = table[first_row, cols]
    order = np.argsort(codes, kind="stable")
    group_codes, sizes = np.unique(codes[order], return_counts=True)
    bounds = np.zeros(len(sizes) + 1, dtype=np.int64)
    bounds[1:] = np.cumsum(sizes)
    return order.astype(np.int64), bounds, group_codes.astype(np.int64)


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
            2,
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
        normal = lookahead.second_step_bits(table, rows, cols, row, letters[row])
        hard = lookahead.second_step_bits(table, rows, cols, row, letters[row], letters[rows], True)
        assert hard <= normal + 1e-12


@pytest.mark.parametrize("gather", [lookahead.gather_block, lookahead.gather_block.py_func], ids=["compiled", "python"])
def test_gather_block_is_numpy_indexing(small, gather) -> None:
    table, cols = State(small).answer_table()
    rows = np.array([3, 0, 7, 7, 1], dtype=np.int64)
    assert np.array_equal(gather(table, rows, np.asarray(cols, dtype=np.int64)), table[rows][:, cols])
