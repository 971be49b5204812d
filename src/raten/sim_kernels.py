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
    ent = np.full((m, k), -1.0, dtype=np.float64)
    for r in prange(m):
        row = data[rows[r]]
        counts = np.zeros(PATTERNS, dtype=np.int32)
        have = np.zeros(LETTERS, dtype=np.int64)
        if hard:
            for pos in range(WORD_LENGTH):
                have[row_letters[r, pos]] += 1
        for g in range(k):
            if hard:
                legal = True
                for pos in range(WORD_LENGTH):
                    if greens[g, pos] >= 0 and row_letters[r, pos] != greens[g, pos]:
                        legal = False
                        break
                if legal:
                    for letter in range(LETTERS):
                        if have[letter] < need[g, letter]:
                            legal = False
                            break
                if not legal:
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
                    acc += c * np.log2(c)
            ent[r, g] = np.log2(n) - acc / n
    best = np.zeros(k, dtype=np.float64)
    for g in range(k):
        top = 0.0
        for r in range(m):
            if ent[r, g] > top:
                top = ent[r, g]
        best[g] = top
    return best
