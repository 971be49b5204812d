"""Partition statistics in numpy: how each guess row splits the candidate columns, for tables
small enough that loading the compiler would cost more than it saves.

``raten.engine.kernels.partition_stats`` (numba) is the fast path for big tables; this module
computes the same four arrays, bit for bit, with numpy alone, so a warm ``raten hint`` after a
guess never imports numba (its import and LLVM's start-up take longer than the whole hint).
``raten.engine.rank.split_stats`` chooses between the two.

Bit for bit means the same floating-point operations in the same order:

- both paths look ``c * log2(c)`` up in one table, ``xlogx``, computed here with ``math.log2``
  (the C library's, which the compiled kernel used before it was handed the table; numpy's
  vectorised ``np.log2`` differs from it in the last place for some ``c``);
- ``bits = log2(n) - acc / n``, with ``log2(n)`` from ``math.log2`` on both sides;
- ``acc`` is summed left to right in the kernel's order: for n ≤ ``code_space`` candidates (243
  for a table of one byte a cell, 6,561 for two), group by group in the order in which each
  group first occurs among the candidate columns; for more, by pattern code. ``np.cumsum`` adds
  strictly left to right (``np.sum`` would add pairwise), and the zeros between the groups'
  entries leave the sum unchanged; for few candidates the columns are added one at a time in a
  loop of vector additions, the same order again.
"""

from __future__ import annotations

import math

import numpy as np

from raten.engine.feedback import code_space

_XLOGX = np.zeros(2, dtype=np.float64)


def xlogx(n: int) -> np.ndarray:
    """``c * log2(c)`` for c = 0..n (0 for c < 2), read-only; both paths look group sizes up here."""
    global _XLOGX
    if len(_XLOGX) <= n:
        size = max(n + 1, 2 * len(_XLOGX))
        table = np.zeros(size, dtype=np.float64)
        table[2:] = [c * math.log2(c) for c in range(2, size)]
        table.flags.writeable = False
        _XLOGX = table
    return _XLOGX[: n + 1]


def log2(n: int) -> float:
    """``log2(n)`` as both paths compute it."""
    return math.log2(n)


def partition_stats_numpy(
    data: np.ndarray, rows: np.ndarray, cols: np.ndarray, weights: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``raten.engine.kernels.partition_stats`` in numpy, for small tables: (bits, patterns,
    largest, sum_sq) per row, or with prior ``weights`` (bits, patterns, largest, expected)."""
    k, n = rows.shape[0], cols.shape[0]
    if not (n and k):
        fourth = np.zeros(k, dtype=np.int64 if weights is None else np.float64)
        return np.zeros(k), np.zeros(k, dtype=np.int32), np.zeros(k, dtype=np.int32), fourth
    # k × n codes; with most rows wanted, whole columns first (one pass, cheaper than a 2-D gather)
    codes = np.take(data, cols, axis=1)[rows] if 2 * k >= data.shape[0] else data[rows[:, None], cols[None, :]]
    space = code_space(data.itemsize)
    if weights is None:
        return _uniform_numpy(codes, space)
    return _weighted_numpy(codes, np.ascontiguousarray(weights, dtype=np.float64), space)


def _pattern_keys(codes: np.ndarray, space: int) -> np.ndarray:
    """Each cell's code offset by ``space`` × its row, flat: one ``np.bincount`` then counts every row."""
    keys = codes.astype(np.intp)
    keys += (np.arange(codes.shape[0], dtype=np.intp) * space)[:, None]
    return keys.ravel()


def _uniform_numpy(codes: np.ndarray, space: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(bits, patterns, largest, sum_sq) of each row of ``codes``, every candidate counting once;
    ``space`` codes at most (the order of the sums follows it, as the kernel's does)."""
    k, n = codes.shape
    table = xlogx(n)
    if n > space:
        counts = np.bincount(_pattern_keys(codes, space), minlength=k * space).reshape(k, space)
        acc = np.cumsum(table[counts], axis=1)[:, -1]  # pattern order, as the kernel adds them
        patterns = np.count_nonzero(counts, axis=1)
        largest = counts.max(axis=1)
        sum_sq = (counts * counts).sum(axis=1)
    else:
        # Sort each row's codes stably: a group's members end up together, its first member (in
        # column order) in front. That member's column gets the group's c*log2(c), all others 0.
        order = np.argsort(codes, axis=1, kind="stable")
        ranked = np.take_along_axis(codes, order, axis=1)
        head = np.ones((k, n), dtype=bool)
        np.not_equal(ranked[:, 1:], ranked[:, :-1], out=head[:, 1:])
        starts = np.flatnonzero(head)  # flat positions of each group's first member, row by row
        sizes = np.diff(starts, append=k * n)
        # Stored column by column (n × k), so that adding one column at a time to every row's
        # sum, in column order, is one contiguous vector addition each.
        terms = np.zeros(n * k, dtype=np.float64)
        terms[order.ravel()[starts] * k + starts // n] = table[sizes]
        acc = np.zeros(k, dtype=np.float64)
        for column in terms.reshape(n, k):
            acc += column
        first = np.searchsorted(starts, np.arange(k) * n)  # each row's first group (every row has one)
        patterns = np.diff(first, append=len(starts))
        largest = np.maximum.reduceat(sizes, first)
        sum_sq = np.add.reduceat(sizes * sizes, first)
    bits = log2(n) - acc / n
    return bits, patterns.astype(np.int32), largest.astype(np.int32), sum_sq.astype(np.int64)


def _weighted_numpy(
    codes: np.ndarray, w: np.ndarray, space: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(bits, patterns, largest, expected remaining) of each row of ``codes``, for candidates with
    prior ``w`` summing to 1.

    Unlike the unweighted pair, this and the kernel are not equal bit for bit: the kernel sums
    the group masses in four interleaved histograms and the groups in their own order, and
    ``np.log2`` may differ from the kernel's in the last place. They agree to about 1e-15, and
    rankings, which compare bits at 9 decimals, agree (tests/engine/test_partition.py).
    """
    k, n = codes.shape
    if codes.itemsize > 1:  # two-byte codes: counted densely (k × 6,561 bins could take gigabytes), in code order
        uniq, dense = np.unique(codes, return_inverse=True)
        codes, space = dense.reshape(k, n), len(uniq)
    flat = _pattern_keys(codes, space)
    counts = np.bincount(flat, minlength=k * space).reshape(k, space)
    mass = np.bincount(flat, weights=np.broadcast_to(w, (k, n)).ravel(), minlength=k * space).reshape(k, space)
    positive = mass > 0
    terms = np.zeros_like(mass)
    np.multiply(mass, np.log2(mass, where=positive, out=np.zeros_like(mass)), out=terms, where=positive)
    acc = np.cumsum(terms, axis=1)[:, -1]
    patterns = np.count_nonzero(counts, axis=1)
    bits = np.where(patterns == 1, 0.0, np.maximum(-acc, 0.0))
    expected = np.cumsum(mass * counts, axis=1)[:, -1]
    return bits, patterns.astype(np.int32), counts.max(axis=1).astype(np.int32), expected
