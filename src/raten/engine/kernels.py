"""Compiled hot loops (numba): the feedback table and per-guess partition statistics.

The statistics are twins, one row loop per prior (uniform, weighted: apart, each as fast as it
can be), behind one entry, :func:`partition_stats`; their scaffolding is written once, in
inlined helpers whose weighted branch numba compiles away where the weights are None.
Everything here works on integer arrays only; strings stay at the edges.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from raten.engine.feedback import MAX_LENGTH, code_dtype
from raten.engine.feedback import code_space as _code_space
from raten.engine.jitcache import njit, prange
from raten.engine.partition import log2, xlogx

_ONE_BYTE, _TWO_BYTES = _code_space(1), _code_space(2)


@njit(cache=True, inline="always")
def code_space(data: np.ndarray) -> int:
    """How many codes a table of this cell size may hold (``feedback.code_space``): one byte 243
    (five letters), two 6,561 (eight); what the statistics size their histograms by."""
    return _ONE_BYTE if data.itemsize == 1 else _TWO_BYTES


@njit(cache=True, inline="always")
def _pair_code(g: np.ndarray, a: np.ndarray) -> int:
    """Feedback code of one guess against one answer (letter codes, one length), two-pass rule."""
    n = g.shape[0]
    green = 0
    for i in range(n):
        if g[i] == a[i]:
            green |= 1 << i
    used = green
    code = 0
    for i in range(n):
        if (green >> i) & 1:
            c = 2
        else:
            c = 0
            for j in range(n):
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


@njit(parallel=True, cache=True)
def _feedback_matrix_parallel(guesses: np.ndarray, answers: np.ndarray, out: np.ndarray) -> None:
    for gi in prange(guesses.shape[0]):
        _feedback_rows(guesses, answers, out, gi, gi + 1)


def feedback_matrix(guesses: np.ndarray, answers: np.ndarray) -> np.ndarray:
    """``out[g, a]`` = feedback code of guess row ``g`` against answer row ``a`` (letter arrays of
    one length): uint8 up to five letters, uint16 above."""
    length = guesses.shape[1]
    if answers.shape[1] != length or length > MAX_LENGTH:
        raise ValueError(f"letter arrays of {length} and {answers.shape[1]} letters")
    out = np.empty((guesses.shape[0], answers.shape[0]), dtype=code_dtype(length))
    if guesses.shape[0] * answers.shape[0] < PARALLEL_CELLS:
        _feedback_rows(guesses, answers, out, 0, guesses.shape[0])
    else:
        _feedback_matrix_parallel(guesses, answers, out)
    return out


#: At most this many chunks of rows for the parallel loops: enough to even out the threads.
CHUNKS = 256


@njit(cache=True, inline="always")
def _chunk(c: int, k: int) -> tuple[int, int]:
    """Rows ``lo..hi`` of chunk ``c`` when ``k`` rows are cut into ``min(k, CHUNKS)`` chunks."""
    chunks = min(k, CHUNKS)
    return c * k // chunks, (c + 1) * k // chunks


@njit(cache=True, inline="always")
def _scratch(data: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """A chunk's scratch, zeroed: four histograms of counts (4 × the table's codes) and one row's codes."""
    space = code_space(data)
    return np.zeros((4, space), dtype=np.int32), np.zeros(min(n, space), dtype=data.dtype)


@njit(cache=True, inline="always")
def _count_codes(
    data: np.ndarray,
    g: int,
    cols: np.ndarray,
    weights: np.ndarray | None,
    seen: np.ndarray,
    counts: np.ndarray,
    mass: np.ndarray | None,
) -> None:
    """Few candidates: row ``g``'s codes at ``cols`` into ``seen`` (loads first, all independent),
    then counted in ``counts[0]``, and with ``weights`` their mass in ``mass[0]``."""
    n = cols.shape[0]
    for j in range(n):
        seen[j] = data[g, cols[j]]
    for j in range(n):
        p = seen[j]
        counts[0, p] += 1
        if weights is not None and mass is not None:
            mass[0, p] += weights[j]


@njit(cache=True, inline="always")
def _count_row(
    data: np.ndarray,
    g: int,
    cols: np.ndarray,
    full: bool,
    weights: np.ndarray | None,
    counts: np.ndarray,
    mass: np.ndarray | None,
) -> None:
    """Many candidates: histogram of row ``g`` at ``cols``, and with ``weights`` each pattern's
    prior mass beside its count, in column order (None: numba compiles that branch away).
    ``full`` (``cols`` is every column in order): the row is read straight through, into four
    histograms in turn, so that equal neighbours do not wait on each other; else into the first."""
    n = cols.shape[0]
    if full:
        row = data[g]
        n4 = n - n % 4
        for j in range(0, n4, 4):
            p0, p1, p2, p3 = row[j], row[j + 1], row[j + 2], row[j + 3]
            counts[0, p0] += 1
            counts[1, p1] += 1
            counts[2, p2] += 1
            counts[3, p3] += 1
            if weights is not None and mass is not None:
                mass[0, p0] += weights[j]
                mass[1, p1] += weights[j + 1]
                mass[2, p2] += weights[j + 2]
                mass[3, p3] += weights[j + 3]
        for j in range(n4, n):
            counts[0, row[j]] += 1
            if weights is not None and mass is not None:
                mass[0, row[j]] += weights[j]
    else:
        for j in range(n):
            p = data[g, cols[j]]
            counts[0, p] += 1
            if weights is not None and mass is not None:
                mass[0, p] += weights[j]


@njit(cache=True, inline="always")
def _take_count(counts: np.ndarray, p: int) -> int:
    """Pattern ``p``'s count over the four histograms, which are left zeroed there."""
    c = counts[0, p] + counts[1, p] + counts[2, p] + counts[3, p]
    if c > 0:
        counts[0, p] = 0
        counts[1, p] = 0
        counts[2, p] = 0
        counts[3, p] = 0
    return c


@njit(cache=True)
def _split_rows(lo, hi, data, rows, cols, full, xlogx, log_n, bits, patterns, largest, sum_sq) -> None:
    """Statistics of guess rows ``lo..hi``, each candidate counting once.

    Few candidates (no more than the table's codes, ``code_space``: 243 for a one-byte table):
    count, then visit only the patterns that occur, clearing each once seen. Many: by pattern code.
    """
    n = cols.shape[0]
    counts, seen = _scratch(data, n)
    space = code_space(data)
    one = counts[0]
    for r in range(lo, hi):
        g = rows[r]
        acc = 0.0
        npat = 0
        big = 0
        sq = 0
        if n <= space:
            _count_codes(data, g, cols, None, seen, counts, None)
            for j in range(n):  # the first member of a group takes its count; the rest see 0
                p = seen[j]
                c = one[p]
                one[p] = 0
                npat += c > 0
                acc += xlogx[c]
                sq += c * c
                big = max(big, c)
        else:
            _count_row(data, g, cols, full, None, counts, None)
            for p in range(space):
                c = _take_count(counts, p)
                if c > 0:
                    npat += 1
                    acc += xlogx[c]
                    sq += c * c
                    if c > big:
                        big = c
        bits[r] = log_n - acc / n
        patterns[r] = npat
        largest[r] = big
        sum_sq[r] = sq


@njit(parallel=True, cache=True)
def _split_parallel(data, rows, cols, full, xlogx, log_n, bits, patterns, largest, sum_sq) -> None:
    k = rows.shape[0]
    for c in prange(min(k, CHUNKS)):
        lo, hi = _chunk(c, k)
        _split_rows(lo, hi, data, rows, cols, full, xlogx, log_n, bits, patterns, largest, sum_sq)


@njit(cache=True, inline="always")
def _take_mass(mass: np.ndarray, p: int) -> float:
    """Pattern ``p``'s mass over the four histograms (pairwise), which are left zeroed there."""
    w = (mass[0, p] + mass[1, p]) + (mass[2, p] + mass[3, p])
    mass[0, p] = 0.0
    mass[1, p] = 0.0
    mass[2, p] = 0.0
    mass[3, p] = 0.0
    return w


@njit(cache=True)
def _split_rows_weighted(lo, hi, data, rows, cols, full, weights, bits, patterns, largest, expected) -> None:
    """Weighted statistics of guess rows ``lo..hi``: ``weights[j]`` is the prior of column ``j``,
    summing to 1.

    A group of mass ``w`` adds ``w * log2(w)``; expected remaining is the expected size of the
    group the answer falls in. Few candidates (≤ ``code_space``): the groups in the order they
    first occur (only those are visited). Many: by pattern code.
    """
    n = cols.shape[0]
    counts, seen = _scratch(data, n)
    space = code_space(data)
    mass = np.zeros((4, space), dtype=np.float64)
    for r in range(lo, hi):
        g = rows[r]
        acc = 0.0
        exp = 0.0
        npat = 0
        big = 0
        if n <= space:
            _count_codes(data, g, cols, weights, seen, counts, mass)
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
            _count_row(data, g, cols, full, weights, counts, mass)
            for p in range(space):
                c = _take_count(counts, p)
                if c > 0:
                    w = _take_mass(mass, p)
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


@njit(parallel=True, cache=True)
def _split_parallel_weighted(data, rows, cols, full, weights, bits, patterns, largest, expected) -> None:
    k = rows.shape[0]
    for c in prange(min(k, CHUNKS)):
        lo, hi = _chunk(c, k)
        _split_rows_weighted(lo, hi, data, rows, cols, full, weights, bits, patterns, largest, expected)


def partition_stats(
    data: np.ndarray, rows: np.ndarray, cols: np.ndarray, weights: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """For each guess row, how it splits the candidate columns: (entropy in bits, non-empty
    patterns, largest group, and a fourth array); the one entry to both compiled twins.

    Without ``weights`` every candidate counts once and the fourth is the sum of squared group
    sizes (int64; expected remaining is sum_sq / n). ``weights`` (one per column, positive,
    summing to 1) is the candidates' prior: the entropy is then that of the weighted feedback
    distribution and the fourth the expected number of candidates left (float64); counts stay
    counts. ``raten.engine.partition.partition_stats_numpy`` computes the same in numpy (the
    unweighted bit for bit: the ``c * log2(c)`` table and ``log2(n)`` come from there, so both
    paths add the very same numbers; see that module for the order of the sums).
    """
    k, n = rows.shape[0], cols.shape[0]
    bits = np.zeros(k, dtype=np.float64)
    patterns = np.zeros(k, dtype=np.int32)
    largest = np.zeros(k, dtype=np.int32)
    fourth = np.zeros(k, dtype=np.int64 if weights is None else np.float64)
    if not (n and k):
        return bits, patterns, largest, fourth
    full = n == data.shape[1] and bool((cols == np.arange(n)).all())
    twins: tuple[Any, Any]
    if weights is None:
        twins = (_split_rows, _split_parallel)
        inputs: tuple = (xlogx(n), log2(n))
    else:
        twins = (_split_rows_weighted, _split_parallel_weighted)
        inputs = (np.ascontiguousarray(weights, dtype=np.float64),)
    serial, parallel = twins
    args = (data, rows, cols, full, *inputs, bits, patterns, largest, fourth)
    if k * n < PARALLEL_CELLS:
        serial(0, k, *args)
    else:
        parallel(*args)
    return bits, patterns, largest, fourth
