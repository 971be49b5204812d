"""Compiled hot loops (numba): the feedback table and per-guess partition statistics.

Everything here works on integer arrays only; strings stay at the edges.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

WORD_LENGTH = 5
PATTERNS = 243


@njit(cache=True, inline="always")
def _pair_code(g: np.ndarray, a: np.ndarray) -> int:
    """Feedback code of one guess against one answer (letters 0..25), two-pass rule."""
    green = 0
    for i in range(WORD_LENGTH):
        if g[i] == a[i]:
            green |= 1 << i
    used = green
    code = 0
    for i in range(WORD_LENGTH):
        if (green >> i) & 1:
            c = 2
        else:
            c = 0
            for j in range(WORD_LENGTH):
                if not (used >> j) & 1 and a[j] == g[i]:
                    used |= 1 << j
                    c = 1
                    break
        code = code * 3 + c
    return code


@njit(parallel=True, cache=True)
def feedback_matrix(guesses: np.ndarray, answers: np.ndarray) -> np.ndarray:
    """``out[g, a]`` = feedback code of guess row ``g`` against answer row ``a`` (uint8)."""
    n, m = guesses.shape[0], answers.shape[0]
    out = np.empty((n, m), dtype=np.uint8)
    for gi in prange(n):
        g = guesses[gi]
        for ai in range(m):
            out[gi, ai] = _pair_code(g, answers[ai])
    return out


@njit(parallel=True, cache=True)
def partition_stats(
    data: np.ndarray, rows: np.ndarray, cols: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """For each guess row, how it splits the candidate columns.

    Returns (entropy in bits, number of non-empty patterns, largest group, sum of squared
    group sizes). Expected remaining candidates is sum_sq / n.
    """
    k = rows.shape[0]
    n = cols.shape[0]
    bits = np.zeros(k, dtype=np.float64)
    patterns = np.zeros(k, dtype=np.int32)
    largest = np.zeros(k, dtype=np.int32)
    sum_sq = np.zeros(k, dtype=np.int64)
    if n == 0:
        return bits, patterns, largest, sum_sq
    log_n = np.log2(n)
    for r in prange(k):
        counts = np.zeros(PATTERNS, dtype=np.int32)
        row = data[rows[r]]
        for j in range(n):
            counts[row[cols[j]]] += 1
        acc = 0.0
        npat = 0
        big = 0
        sq = 0
        if n > PATTERNS:
            for p in range(PATTERNS):
                c = counts[p]
                if c > 0:
                    npat += 1
                    acc += c * np.log2(c)
                    sq += c * c
                    big = max(big, c)
        else:
            # Few candidates: visit only the patterns that occur, clearing each once seen.
            for j in range(n):
                p = row[cols[j]]
                c = counts[p]
                if c > 0:
                    counts[p] = 0
                    npat += 1
                    acc += c * np.log2(c)
                    sq += c * c
                    big = max(big, c)
        bits[r] = log_n - acc / n
        patterns[r] = npat
        largest[r] = big
        sum_sq[r] = sq
    return bits, patterns, largest, sum_sq
