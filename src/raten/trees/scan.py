"""The exact search's hottest loop: how many groups every guess splits a candidate set into.

``split_keys`` goes candidate by candidate, each candidate's row of patterns (a row of the
transposed table, contiguous over guesses) marking a bit per guess and pattern, then counts
the bits: no data-dependent branch in the inner loop, where a loop over guesses that asks
"pattern seen yet?" per candidate mispredicts about every other time. 2–5 times faster on
English sets of 3–60 candidates (``bench/bench_scan.py``). Sets of up to ``PAIRWISE_MAX``
candidates are compared pairwise instead (``pairwise_keys``), in passes the compiler vectorises.
"""

from __future__ import annotations

import numpy as np

from raten.engine.jitcache import njit

_ONE = np.uint64(1)
_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)


@njit(cache=True, inline="always")
def popcount(x: np.uint64) -> np.int64:
    """Bits set in a 64-bit word (branch-free)."""
    x = x - ((x >> _ONE) & _M1)
    x = (x & _M2) + ((x >> np.uint64(2)) & _M2)
    x = (x + (x >> np.uint64(4))) & _M4
    return np.int64((x * _H01) >> np.uint64(56))


@njit(cache=True)
def is_every_guess(L, n):  # noqa: N803 (the kernels' names)
    """Whether the guess rows ``L`` are all ``n`` rows in order (normal mode's list)."""
    if L.shape[0] != n:
        return False
    for i in range(n):  # noqa: SIM110 (a plain loop compiles; a generator in all() does not)
        if L[i] != i:
            return False
    return True


#: Sets up to this size are scanned by comparing candidates pairwise (``pairwise_keys``): n(n-1)/2
#: passes of byte compares over the guesses, which the compiler vectorises, against one pass of
#: bit setting plus a fixed cost of clearing and counting four words per guess. Timed on English
#: (every guess): 10x faster for 3 candidates, 5x for 8, 1.5x for 24, even about 32.
PAIRWISE_MAX = 24


@njit(cache=True)
def split_keys(Mt, S, L, npat):  # noqa: N803 (the kernels' names)
    """For each guess of ``L``: the groups it splits set ``S`` into, plus one when it is a
    candidate itself (its all-green group, code ``npat - 1``, costs nothing); 0 when that is
    below 2 (it learns nothing). ``Mt`` is the pattern table, solutions × guesses. Small sets are
    compared pairwise; larger ones set a bit per guess and pattern (``npat / 64`` words of bits a
    guess: four for five letters). When ``L`` is every guess in order, a candidate's row is read
    straight, without the index (twice as fast)."""
    every = is_every_guess(L, Mt.shape[1])
    if S.shape[0] <= PAIRWISE_MAX:
        return pairwise_keys(Mt, S, L, every, npat - 1)
    nl = L.shape[0]
    words = (npat + 63) >> 6
    green_word, green_bit = (npat - 1) >> 6, np.uint64((npat - 1) & 63)
    bits = np.zeros(nl * words, dtype=np.uint64)
    if every:
        for j in range(S.shape[0]):
            row = Mt[S[j]]
            for i in range(nl):
                c = np.int64(row[i])
                bits[words * i + (c >> 6)] |= _ONE << np.uint64(c & 63)
    else:
        for j in range(S.shape[0]):
            row = Mt[S[j]]
            for i in range(nl):
                c = np.int64(row[L[i]])
                bits[words * i + (c >> 6)] |= _ONE << np.uint64(c & 63)
    keys = np.empty(nl, dtype=np.int32)
    for i in range(nl):
        b = words * i
        if words == 4:  # up to five letters: four words, added unrolled (the hottest case)
            k = popcount(bits[b]) + popcount(bits[b + 1]) + popcount(bits[b + 2]) + popcount(bits[b + 3])
        else:
            k = np.int64(0)
            for w in range(words):
                k += popcount(bits[b + w])
        k += np.int64((bits[b + green_word] >> green_bit) & _ONE)
        keys[i] = k if k >= 2 else 0
    return keys


@njit(cache=True)
def pairwise_keys(Mt, S, L, every, green_code):  # noqa: N803 (the kernels' names)
    """``split_keys`` of a small set: a candidate adds a group for a guess unless its pattern
    equals an earlier candidate's, so groups = n - (candidates with an earlier equal); each pass
    compares two candidates' rows over every guess at once (``every``: rows read straight,
    else gathered through ``L`` first). ``green_code``: the all-green pattern."""
    n = S.shape[0]
    nl = L.shape[0]
    rows = np.empty((0 if every else n, nl), dtype=Mt.dtype)
    if not every:
        for j in range(n):
            row = Mt[S[j]]
            for i in range(nl):
                rows[j, i] = row[L[i]]
    repeats = np.zeros(nl, dtype=np.int32)
    seen = np.empty(nl, dtype=np.uint8)
    green = np.zeros(nl, dtype=np.uint8)
    for j in range(n):
        a = Mt[S[j]] if every else rows[j]
        for i in range(nl):
            green[i] |= a[i] == green_code
        if j == 0:
            continue
        b = Mt[S[0]] if every else rows[0]
        for i in range(nl):
            seen[i] = a[i] == b[i]
        for jj in range(1, j):
            b = Mt[S[jj]] if every else rows[jj]
            for i in range(nl):
                seen[i] |= a[i] == b[i]
        for i in range(nl):
            repeats[i] += seen[i]
    keys = np.empty(nl, dtype=np.int32)
    for i in range(nl):
        k = n - repeats[i] + np.int32(green[i])
        keys[i] = k if k >= 2 else 0
    return keys
