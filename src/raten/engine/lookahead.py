"""Compiled loops for the look-ahead strategy: the best second guess for every group a first guess leaves.

Kept apart from ``kernels.py`` (the core's single-step statistics) so the two can change
independently. Integer arrays only, like every kernel.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

WORD_LENGTH = 5
PATTERNS = 243
LETTERS = 26


@njit(cache=True)
def _group_rules(first: np.ndarray, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Hard-mode rules each feedback ``codes[i]`` of the guess ``first`` adds.

    Returns (greens: letter required at each position or -1, need: minimum count of each letter).
    """
    k = codes.shape[0]
    greens = np.full((k, WORD_LENGTH), -1, dtype=np.int64)
    need = np.zeros((k, LETTERS), dtype=np.int64)
    for i in range(k):
        c = codes[i]
        for pos in range(WORD_LENGTH - 1, -1, -1):
            colour = c % 3
            c //= 3
            if colour == 2:
                greens[i, pos] = first[pos]
            if colour != 0:
                need[i, first[pos]] += 1
    return greens, need


@njit(cache=True, inline="always")
def _keeps(word: np.ndarray, have: np.ndarray, greens: np.ndarray, need: np.ndarray) -> bool:
    """Whether a word (letters, letter counts) keeps the given greens and letter counts (hard mode)."""
    for pos in range(WORD_LENGTH):
        if greens[pos] >= 0 and word[pos] != greens[pos]:
            return False
    for letter in range(LETTERS):  # noqa: SIM110 (a plain loop compiles; a generator does not)
        if have[letter] < need[letter]:
            return False
    return True


@njit(parallel=True, cache=True)
def second_step_entropy(
    data: np.ndarray,
    rows: np.ndarray,
    sorted_cols: np.ndarray,
    starts: np.ndarray,
    codes: np.ndarray,
    first: np.ndarray,
    row_letters: np.ndarray,
    hard: bool,
    chunks: int = 1,
) -> np.ndarray:
    """For each group of candidates, the highest entropy (bits) any guess row reaches on it.

    ``sorted_cols[starts[i]:starts[i+1]]`` are the candidate columns of group ``i``, which the
    guess with letters ``first`` answered with feedback ``codes[i]``. In hard mode a row only
    counts for a group if it keeps that group's greens and revealed letters (``row_letters``
    are the letters of ``rows``); the caller has already limited ``rows`` to what the earlier
    history allows.
    """
    k = codes.shape[0]
    m = rows.shape[0]
    greens, need = _group_rules(first, codes)
    # The most a group of n can give is log2(n) (every candidate apart): stop searching it then.
    full = np.empty(k, dtype=np.float64)
    largest = 1
    for g in range(k):
        full[g] = np.log2(starts[g + 1] - starts[g])
        largest = max(largest, starts[g + 1] - starts[g])
    # c * log2(c) looked up, not computed, in the inner loop.
    xlogx = np.zeros(largest + 1, dtype=np.float64)
    for c in range(2, largest + 1):
        xlogx[c] = c * np.log2(c)
    chunks = max(1, min(m, chunks))
    bests = np.zeros((chunks, k), dtype=np.float64)
    for ch in prange(chunks):
        best = bests[ch]
        counts = np.zeros(PATTERNS, dtype=np.int32)
        have = np.zeros(LETTERS, dtype=np.int64)
        for r in range(ch * m // chunks, (ch + 1) * m // chunks):
            row = data[rows[r]]
            if hard:
                have[:] = 0
                for pos in range(WORD_LENGTH):
                    have[row_letters[r, pos]] += 1
            for g in range(k):
                if best[g] >= full[g]:
                    continue
                if hard and not _keeps(row_letters[r], have, greens[g], need[g]):
                    continue
                lo = starts[g]
                hi = starts[g + 1]
                n = hi - lo
                for j in range(lo, hi):
                    counts[row[sorted_cols[j]]] += 1
                acc = 0.0
                # Visit only the patterns that occur, clearing each once seen.
                for j in range(lo, hi):
                    p = row[sorted_cols[j]]
                    c = counts[p]
                    if c > 0:
                        counts[p] = 0
                        acc += xlogx[c]
                ent = full[g] - acc / n
                if ent > best[g]:
                    best[g] = ent
    out = np.zeros(k, dtype=np.float64)
    for ch in range(chunks):
        for g in range(k):
            if bests[ch, g] > out[g]:
                out[g] = bests[ch, g]
    return out


@njit(cache=True)
def gather_block(data: np.ndarray, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """``data[rows][:, cols]`` in one pass, without the full-width intermediate copy."""
    out = np.empty((rows.shape[0], cols.shape[0]), dtype=data.dtype)
    for i in range(rows.shape[0]):
        row = data[rows[i]]
        for j in range(cols.shape[0]):
            out[i, j] = row[cols[j]]
    return out
