"""Two-step look-ahead: the expected entropy of the best second guess after a first one.

``second_step_bits`` is what ``raten.engine.rank``'s ``lookahead`` strategy adds to a guess's
own bits; its compiled loop finds the best second guess for every group a first guess leaves.
Kept apart from ``kernels.py`` (the core's single-step statistics) so the two can change
independently. In hard mode a second guess must keep what the first revealed: that rule is
``raten.engine.hardmode``'s compiled one. Integer arrays only, like every kernel.
"""

from __future__ import annotations

import numba
import numpy as np

from raten.engine.hardmode import NO_GREEN, keeping, letter_counts, reveal
from raten.engine.jitcache import njit, prange
from raten.engine.kernels import code_space


@njit(cache=True)
def _group_rules(first: np.ndarray, codes: np.ndarray, alphabet: int) -> tuple[np.ndarray, np.ndarray]:
    """Hard-mode rules each feedback ``codes[i]`` of the guess ``first`` adds.

    Returns (greens, need) per group, in ``raten.engine.hardmode``'s form: the letter required
    at each position or ``NO_GREEN``, and the minimum count of each of the ``alphabet`` letters.
    """
    k = codes.shape[0]
    greens = np.full((k, first.shape[0]), NO_GREEN, dtype=np.uint8)
    need = np.zeros((k, alphabet), dtype=np.uint8)
    for i in range(k):
        reveal(first, codes[i], greens[i], need[i])
    return greens, need


@njit(cache=True)
def _allowed_pairs(row_letters: np.ndarray, greens: np.ndarray, need: np.ndarray, hard: bool) -> np.ndarray:
    """In hard mode, which rows (``row_letters``) each group's rules allow, row-major (a row
    reads its groups in a line); else an empty array, nothing to look up."""
    m, k = row_letters.shape[0], greens.shape[0]
    allowed = np.zeros((m, k) if hard else (0, 0), dtype=np.bool_)
    if hard:
        row_counts = letter_counts(row_letters, need.shape[1])
        every = np.arange(m)
        for g in range(k):
            kept = keeping(every, row_letters, row_counts, greens[g], need[g])
            for i in range(kept.shape[0]):
                allowed[kept[i], g] = True
    return allowed


@njit(cache=True)
def _uniform_ceilings(starts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The most each group of n can give, log2(n) (every candidate apart), and ``c * log2(c)``
    up to the largest group, looked up, not computed, in the inner loop."""
    k = starts.shape[0] - 1
    full = np.empty(k, dtype=np.float64)
    largest = 1
    for g in range(k):
        full[g] = np.log2(starts[g + 1] - starts[g])
        largest = max(largest, starts[g + 1] - starts[g])
    xlogx = np.zeros(largest + 1, dtype=np.float64)
    for c in range(2, largest + 1):
        xlogx[c] = c * np.log2(c)
    return full, xlogx


@njit(cache=True)
def _weighted_ceilings(starts: np.ndarray, probs: np.ndarray) -> np.ndarray:
    """The most each group can give under the prior: the entropy of every member apart."""
    k = starts.shape[0] - 1
    full = np.zeros(k, dtype=np.float64)
    for g in range(k):
        for j in range(starts[g], starts[g + 1]):
            full[g] -= probs[j] * np.log2(probs[j])
    return full


@njit(cache=True, inline="always")
def _uniform_bits(row, sorted_cols, lo, hi, xlogx, full, counts) -> float:
    """Entropy of the feedback ``row`` gives the group ``sorted_cols[lo:hi]``, whose bound is ``full``."""
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
    return full - acc / (hi - lo)


@njit(cache=True, inline="always")
def _weighted_bits(row, sorted_cols, lo, hi, probs, counts, mass) -> float:
    """Weighted entropy of the feedback ``row`` gives the group ``sorted_cols[lo:hi]``."""
    for j in range(lo, hi):
        p = row[sorted_cols[j]]
        counts[p] += 1
        mass[p] += probs[j]
    acc = 0.0
    for j in range(lo, hi):
        p = row[sorted_cols[j]]
        if counts[p] > 0:
            counts[p] = 0
            w = mass[p]
            mass[p] = 0.0
            acc -= w * np.log2(w)
    return acc


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
    probs: np.ndarray | None,
    chunks: int,
    alphabet: int,
) -> np.ndarray:
    """For each group of candidates, the highest entropy (bits) any guess row reaches on it.

    ``sorted_cols[starts[i]:starts[i+1]]`` are the candidate columns of group ``i``, which the
    guess with letters ``first`` answered with feedback ``codes[i]``. In hard mode a row only
    counts for a group if it keeps that group's greens and revealed letters (``row_letters``
    are the letters of ``rows``); the caller has already limited ``rows`` to what the earlier
    history allows. ``probs`` None: every candidate counts once (numba compiles this twin
    without the weighted branches); else ``probs[j]`` is the prior of ``sorted_cols[j]`` scaled
    to sum to 1 within its group, and the entropy is the weighted one. A group's search stops
    at the most it can give. ``alphabet`` is the number of letters the codes of ``first`` and
    ``row_letters`` come from.
    """
    k = codes.shape[0]
    m = rows.shape[0]
    greens, need = _group_rules(first, codes, alphabet)
    if probs is None:
        full, xlogx = _uniform_ceilings(starts)
    else:
        full = _weighted_ceilings(starts, probs)
    allowed = _allowed_pairs(row_letters, greens, need, hard)
    chunks = max(1, min(m, chunks))
    bests = np.zeros((chunks, k), dtype=np.float64)
    for ch in prange(chunks):
        best = bests[ch]
        counts = np.zeros(code_space(data), dtype=np.int32)
        mass = np.zeros(code_space(data), dtype=np.float64)
        for r in range(ch * m // chunks, (ch + 1) * m // chunks):
            row = data[rows[r]]
            for g in range(k):
                if best[g] >= (full[g] if probs is None else full[g] - 1e-12):
                    continue
                if hard and not allowed[r, g]:
                    continue
                if probs is None:
                    ent = _uniform_bits(row, sorted_cols, starts[g], starts[g + 1], xlogx, full[g], counts)
                else:
                    ent = _weighted_bits(row, sorted_cols, starts[g], starts[g + 1], probs, counts, mass)
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


def second_step_bits(
    table: np.ndarray,
    rows: np.ndarray,
    cols: np.ndarray,
    first_row: int,
    first_letters: np.ndarray,
    row_letters: np.ndarray | None = None,
    hard: bool = False,
    *,
    block: np.ndarray | None = None,
    weights: np.ndarray | None = None,
    alphabet: int,
) -> float:
    """Expected entropy of the best second guess after guessing ``first_row``.

    Each group the first guess leaves is scored by the best entropy any of ``rows`` reaches on
    it (in hard mode only rows that keep that group's revealed letters; ``row_letters`` are
    the letters of ``rows``); groups of one or two need no search: log2 of their size, which
    guessing one of them reaches. The groups are weighted by their size. ``block`` is
    ``table[rows][:, cols]`` when the caller has it already (it is read once per first guess,
    and a compact copy stays in cache where the full table would not). ``weights`` (one per
    column of ``cols``) is the candidates' prior: the groups are then weighted by their prior
    mass and scored by weighted entropy (a group of one gives 0 bits, a group of two the
    entropy of its two weights). ``alphabet``: how many letters the letter codes come from.
    """
    if block is None:
        block = guess_block(table, rows, cols)
    codes = table[first_row, cols]
    order = np.argsort(codes, kind="stable")
    group_codes, starts, sizes = np.unique(codes[order], return_index=True, return_counts=True)
    if weights is None:
        best = np.log2(sizes.astype(np.float64))
    else:
        w = np.asarray(weights, dtype=np.float64)
        w = w / w.sum()
        mass = np.add.reduceat(w[order], starts)
        best = np.zeros(len(sizes), dtype=np.float64)
        for g in np.flatnonzero(sizes == 2):
            p = w[order[starts[g]]] / mass[g]
            best[g] = -(p * np.log2(p) + (1 - p) * np.log2(1 - p))
    big = np.flatnonzero(sizes > 2)
    if len(big):
        members = [order[starts[g] : starts[g] + sizes[g]] for g in big]
        probs = None if weights is None else np.concatenate([w[m] / w[m].sum() for m in members])
        big_starts = np.zeros(len(big) + 1, dtype=np.int64)
        big_starts[1:] = np.cumsum(sizes[big])
        if row_letters is None or not hard:
            row_letters = np.zeros((len(rows), len(first_letters)), dtype=np.uint8)
        best[big] = second_step_entropy(
            block,
            np.arange(len(rows), dtype=np.int64),
            np.concatenate(members).astype(np.int64),
            big_starts,
            group_codes[big].astype(np.int64),
            np.asarray(first_letters, dtype=np.int64),
            np.ascontiguousarray(row_letters, dtype=np.int64),
            hard,
            probs,
            numba.get_num_threads(),
            alphabet,
        )
    if weights is None:
        return float(np.dot(sizes, best) / max(len(cols), 1))
    return float(np.dot(mass, best))


def guess_block(table: np.ndarray, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """The rows × cols part of the table as one compact C array."""
    return gather_block(table, np.asarray(rows, dtype=np.int64), np.asarray(cols, dtype=np.int64))
