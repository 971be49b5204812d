"""The search's scan: groups per guess, equal to counting distinct patterns the plain way."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from raten.engine.feedback import code_dtype
from raten.trees.scan import is_every_guess, popcount, split_keys


def _reference(mt: np.ndarray, s: np.ndarray, legal: np.ndarray, length: int = 5) -> np.ndarray:
    """Distinct patterns per guess, one more when the guess is a candidate (all green: 3**length
    - 1), 0 below 2."""
    out = []
    for g in legal:
        codes = mt[s, g]
        k = len(set(codes.tolist())) + int(3**length - 1 in codes)
        out.append(k if k >= 2 else 0)
    return np.array(out, dtype=np.int32)


@settings(max_examples=150, deadline=None)
@given(
    st.integers(0, 2**32 - 1), st.integers(1, 40), st.integers(1, 70), st.booleans(), st.integers(4, 8), st.booleans()
)
@pytest.mark.slow
def test_split_keys_equal_the_plain_count(seed, n, guesses, greens, length, every) -> None:
    """Any word length 4 to 8: its 3**length codes, one byte a cell up to five letters, two above."""
    rng = np.random.default_rng(seed)
    solutions = max(n, 45)
    npat = 3**length
    mt = rng.integers(0, npat, size=(solutions, guesses)).astype(code_dtype(length))
    if greens:  # some guesses are candidates: their column holds one all-green
        for g in range(0, guesses, 3):
            mt[rng.integers(solutions), g] = npat - 1
    mt[:, 0] = 7  # a guess that learns nothing
    s = np.sort(rng.choice(solutions, n, replace=False)).astype(np.int32)
    legal = np.sort(rng.choice(guesses, rng.integers(1, guesses + 1), replace=False)).astype(np.int32)
    if every:  # every guess in order: the path that reads rows without the index
        legal = np.arange(guesses, dtype=np.int32)
    assert np.array_equal(split_keys(mt, s, legal, npat), _reference(mt, s, legal, length))
    assert np.array_equal(split_keys.py_func(mt, s, legal, npat), _reference(mt, s, legal, length))


@pytest.mark.slow
def test_split_keys_on_english(en_words) -> None:
    from raten.engine.transposed import load_transposed

    mt = load_transposed(en_words)
    rng = np.random.default_rng(3)
    every = np.arange(mt.shape[1], dtype=np.int32)
    for legal in (every[::7].copy(), every):
        for n in (1, 2, 3, 17, 200):
            s = np.sort(rng.choice(mt.shape[0], n, replace=False)).astype(np.int32)
            assert np.array_equal(split_keys(mt, s, legal, 243), _reference(mt, s, legal))


def test_only_every_guess_in_order_reads_rows_without_the_index() -> None:
    every = np.arange(6, dtype=np.int32)
    assert is_every_guess(every, 6)
    assert not is_every_guess(every[::-1].copy(), 6)  # a permutation: the index is needed
    assert not is_every_guess(np.array([0, 2, 1, 3, 4, 5], dtype=np.int32), 6)
    assert not is_every_guess(every[:5].copy(), 6)


@given(st.integers(0, 2**64 - 1))
def test_popcount(x) -> None:
    assert popcount(np.uint64(x)) == bin(x).count("1")
