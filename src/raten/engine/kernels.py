"""Compiled hot loops (numba): the feedback table and per-guess partition statistics.

Everything here works on integer arrays only; strings stay at the edges.
"""

from __future__ import annotations

import numpy as np

from raten.engine.feedback import PATTERNS, WORD_LENGTH
from raten.engine.jitcache import njit, prange
from raten.engine.partition import log2, xlogx


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


#: Below this many table cells (about 8 ms of work for one core), one thread is used: waking the
#: others saves little there, and on a busy machine a thread that is not scheduled makes the
#: whole (statically split) loop wait. Measured on 2 shared cores: 6mal5 openers (4.1M cells)
#: median 4.5-8.5 ms on one thread against 12-16 ms on two.
PARALLEL_CELLS = 1 << 23


@njit(cache=True)
def _feedback_rows(guesses: np.ndarray, answers: np.ndarray, out: np.ndarray, lo: int, hi: int) -> None:
    for gi in range(lo, hi):
        g = guesses[gi]
        for ai in range(answers.shape[0]):
            out[gi, ai] = _pair_code(g, answers[ai])


@njit(cache=True)
def _feedback_matrix_serial(guesses: np.ndarray, answers: np.ndarray) -> np.ndarray:
    out = np.empty((guesses.shape[0], answers.shape[0]), dtype=np.uint8)
    _feedback_rows(guesses, answers, out, 0, guesses.shape[0])
    return out


@njit(parallel=True, cache=True)
def _feedback_matrix_parallel(guesses: np.ndarray, answers: np.ndarray) -> np.ndarray:
    n = guesses.shape[0]
    out = np.empty((n, answers.shape[0]), dtype=np.uint8)
    for gi in prange(n):
        _feedback_rows(guesses, answers, out, gi, gi + 1)
    return out


def feedback_matrix(guesses: np.ndarray, answers: np.ndarray) -> np.ndarray:
    """``out[g, a]`` = feedback code of guess row ``g`` against answer row ``a`` (uint8)."""
    if guesses.shape[0] * answers.shape[0] < PARALLEL_CELLS:
        return _feedback_matrix_serial(guesses, answers)
    return _feedback_matrix_parallel(guesses, answers)


@njit(cache=True)
def _split_rows(data, rows, cols, full, lo, hi, xlogx, log_n, counts, seen, bits, patterns, largest, sum_sq) -> None:
    """Statistics of guess rows ``lo..hi``; ``counts`` (4 × 243 zeros) and ``seen`` are scratch, left zeroed.

    Few candidates (≤ 243): count, then visit only the patterns that occur, clearing each once
    seen. Many: ``full`` means ``cols`` is every column in order, so a row is read straight
    through, into four histograms in turn (equal neighbours then do not wait on each other).
    """
    n = cols.shape[0]
    n4 = n - n % 4
    one = counts[0]
    for r in range(lo, hi):
        g = rows[r]
        acc = 0.0
        npat = 0
        big = 0
        sq = 0
        if n <= PATTERNS:
            for j in range(n):  # loads first, all independent, then the counting
                seen[j] = data[g, cols[j]]
            for j in range(n):
                one[seen[j]] += 1
            for j in range(n):  # the first member of a group takes its count; the rest see 0
                p = seen[j]
                c = one[p]
                one[p] = 0
                npat += c > 0
                acc += xlogx[c]
                sq += c * c
                big = max(big, c)
        else:
            if full:
                row = data[g]
                for j in range(0, n4, 4):
                    counts[0, row[j]] += 1
                    counts[1, row[j + 1]] += 1
                    counts[2, row[j + 2]] += 1
                    counts[3, row[j + 3]] += 1
                for j in range(n4, n):
                    counts[0, row[j]] += 1
            else:
                for j in range(n):
                    one[data[g, cols[j]]] += 1
            for p in range(PATTERNS):
                c = counts[0, p] + counts[1, p] + counts[2, p] + counts[3, p]
                if c > 0:
                    counts[0, p] = 0
                    counts[1, p] = 0
                    counts[2, p] = 0
                    counts[3, p] = 0
                    npat += 1
                    acc += xlogx[c]
                    sq += c * c
                    if c > big:
                        big = c
        bits[r] = log_n - acc / n
        patterns[r] = npat
        largest[r] = big
        sum_sq[r] = sq


@njit(cache=True)
def _partition_stats_serial(data, rows, cols, full, xlogx, log_n, bits, patterns, largest, sum_sq) -> None:
    counts = np.zeros((4, PATTERNS), dtype=np.int32)
    seen = np.zeros(min(cols.shape[0], PATTERNS), dtype=np.uint8)
    _split_rows(data, rows, cols, full, 0, rows.shape[0], xlogx, log_n, counts, seen, bits, patterns, largest, sum_sq)


@njit(parallel=True, cache=True)
def _partition_stats_parallel(data, rows, cols, full, xlogx, log_n, bits, patterns, largest, sum_sq) -> None:
    k = rows.shape[0]
    chunks = min(k, 256)
    for c in prange(chunks):
        counts = np.zeros((4, PATTERNS), dtype=np.int32)
        seen = np.zeros(min(cols.shape[0], PATTERNS), dtype=np.uint8)
        lo, hi = c * k // chunks, (c + 1) * k // chunks
        _split_rows(data, rows, cols, full, lo, hi, xlogx, log_n, counts, seen, bits, patterns, largest, sum_sq)


def partition_stats(
    data: np.ndarray, rows: np.ndarray, cols: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """For each guess row, how it splits the candidate columns.

    Returns (entropy in bits, number of non-empty patterns, largest group, sum of squared
    group sizes). Expected remaining candidates is sum_sq / n. ``raten.engine.partition`` computes
    the same in numpy, bit for bit: the ``c * log2(c)`` table and ``log2(n)`` come from there, so
    both paths add the very same numbers (see that module for the order of the sums).
    """
    k, n = rows.shape[0], cols.shape[0]
    bits = np.zeros(k, dtype=np.float64)
    patterns = np.zeros(k, dtype=np.int32)
    largest = np.zeros(k, dtype=np.int32)
    sum_sq = np.zeros(k, dtype=np.int64)
    if n and k:
        full = n == data.shape[1] and bool((cols == np.arange(n)).all())
        kernel = _partition_stats_serial if k * n < PARALLEL_CELLS else _partition_stats_parallel
        kernel(data, rows, cols, full, xlogx(n), log2(n), bits, patterns, largest, sum_sq)
    return bits, patterns, largest, sum_sq


@njit(cache=True)
def _split_rows_weighted(
    data, rows, cols, full, weights, lo, hi, counts, mass, seen, bits, patterns, largest, expected
) -> None:
    """Weighted statistics of guess rows ``lo..hi``: ``weights[j]`` is the prior of column ``j``,
    summing to 1; ``counts`` and ``mass`` (4 × 243 zeros) and ``seen`` are scratch, left zeroed.

    A group of mass ``w`` adds ``w * log2(w)``; expected remaining is the expected size of the
    group the answer falls in. Few candidates (≤ 243): the groups in the order they first occur
    (only those are visited). Many: four histograms in turn (``full``: a row read straight
    through), summed by pattern code 0..242.
    """
    n = cols.shape[0]
    n4 = n - n % 4
    for r in range(lo, hi):
        g = rows[r]
        acc = 0.0
        exp = 0.0
        npat = 0
        big = 0
        if n <= PATTERNS:
            for j in range(n):
                seen[j] = data[g, cols[j]]
            for j in range(n):
                p = seen[j]
                counts[0, p] += 1
                mass[0, p] += weights[j]
            for j in range(n):
                p = seen[j]
                c = counts[0, p]
                if c > 0:
                    w = mass[0, p]
                    counts[0, p] = 0
                    mass[0, p] = 0.0
                    npat += 1
                    acc += w * np.log2(w)
                    exp += w * c
                    big = max(big, c)
        else:
            if full:
                row = data[g]
                for j in range(0, n4, 4):
                    p0, p1, p2, p3 = row[j], row[j + 1], row[j + 2], row[j + 3]
                    counts[0, p0] += 1
                    mass[0, p0] += weights[j]
                    counts[1, p1] += 1
                    mass[1, p1] += weights[j + 1]
                    counts[2, p2] += 1
                    mass[2, p2] += weights[j + 2]
                    counts[3, p3] += 1
                    mass[3, p3] += weights[j + 3]
                for j in range(n4, n):
                    counts[0, row[j]] += 1
                    mass[0, row[j]] += weights[j]
            else:
                for j in range(n):
                    p = data[g, cols[j]]
                    counts[0, p] += 1
                    mass[0, p] += weights[j]
            for p in range(PATTERNS):
                c = counts[0, p] + counts[1, p] + counts[2, p] + counts[3, p]
                if c > 0:
                    w = (mass[0, p] + mass[1, p]) + (mass[2, p] + mass[3, p])
                    counts[0, p] = 0
                    counts[1, p] = 0
                    counts[2, p] = 0
                    counts[3, p] = 0
                    mass[0, p] = 0.0
                    mass[1, p] = 0.0
                    mass[2, p] = 0.0
                    mass[3, p] = 0.0
                    npat += 1
                    if w > 0.0:
                        acc += w * np.log2(w)
                    exp += w * c
                    if c > big:
                        big = c
        bits[r] = 0.0 if npat == 1 else max(-acc, 0.0)
        patterns[r] = npat
        largest[r] = big
        expected[r] = exp


@njit(cache=True)
def _weighted_stats_serial(data, rows, cols, full, weights, bits, patterns, largest, expected) -> None:
    counts = np.zeros((4, PATTERNS), dtype=np.int32)
    mass = np.zeros((4, PATTERNS), dtype=np.float64)
    seen = np.zeros(min(cols.shape[0], PATTERNS), dtype=np.uint8)
    _split_rows_weighted(
        data, rows, cols, full, weights, 0, rows.shape[0], counts, mass, seen, bits, patterns, largest, expected
    )


@njit(parallel=True, cache=True)
def _weighted_stats_parallel(data, rows, cols, full, weights, bits, patterns, largest, expected) -> None:
    k = rows.shape[0]
    chunks = min(k, 256)
    for c in prange(chunks):
        counts = np.zeros((4, PATTERNS), dtype=np.int32)
        mass = np.zeros((4, PATTERNS), dtype=np.float64)
        seen = np.zeros(min(cols.shape[0], PATTERNS), dtype=np.uint8)
        lo, hi = c * k // chunks, (c + 1) * k // chunks
        _split_rows_weighted(
            data, rows, cols, full, weights, lo, hi, counts, mass, seen, bits, patterns, largest, expected
        )


def weighted_partition_stats(
    data: np.ndarray, rows: np.ndarray, cols: np.ndarray, weights: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """For each guess row, how it splits candidate columns that carry prior ``weights`` (one per
    column, positive, summing to 1): (entropy in bits of the weighted feedback distribution,
    non-empty patterns, largest group by count, expected number of candidates left).
    ``raten.engine.partition.weighted_stats_numpy`` computes the same in numpy."""
    k, n = rows.shape[0], cols.shape[0]
    bits = np.zeros(k, dtype=np.float64)
    patterns = np.zeros(k, dtype=np.int32)
    largest = np.zeros(k, dtype=np.int32)
    expected = np.zeros(k, dtype=np.float64)
    if n and k:
        w = np.ascontiguousarray(weights, dtype=np.float64)
        full = n == data.shape[1] and bool((cols == np.arange(n)).all())
        kernel = _weighted_stats_serial if k * n < PARALLEL_CELLS else _weighted_stats_parallel
        kernel(data, rows, cols, full, w, bits, patterns, largest, expected)
    return bits, patterns, largest, expected
