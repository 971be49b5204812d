"""The exact search's memo: an open-addressing table of solved sets, keyed by 128-bit hashes.

A candidate set hashes to the sums of its members' two Zobrist keys; the guesses left and,
in hard mode, the revealed-letter constraints are mixed into the second key. An entry holds
a value (exact) or a proven lower bound, and the best guess found.
"""

from __future__ import annotations

import numpy as np

from raten.engine.jitcache import njit

#: Slots looked at from a key's home slot before the first of them is evicted.
PROBES = 8

_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
ONE = np.uint64(1)


@njit(cache=True, inline="always")
def mix64(x: np.uint64) -> np.uint64:
    """splitmix64 finaliser: a well-spread 64-bit hash of a 64-bit value."""
    x = x ^ (x >> np.uint64(30))
    x = x * _M1
    x = x ^ (x >> np.uint64(27))
    x = x * _M2
    return x ^ (x >> np.uint64(31))


def zobrist(count: int, seed: int) -> np.ndarray:
    """Random 64-bit keys, one per solution: a set hashes to the sum of its members' keys."""
    rng = np.random.default_rng(seed)
    return rng.integers(0, 2**63, size=max(count, 1), dtype=np.int64).astype(np.uint64) * np.uint64(2) + np.uint64(1)


def new_memo(bits: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """An empty memo table with 2**bits slots: (key1, key2, value, best guess, exact flag)."""
    cap = 1 << bits
    return (
        np.zeros(cap, dtype=np.uint64),
        np.zeros(cap, dtype=np.uint64),
        np.zeros(cap, dtype=np.int64),
        np.full(cap, -1, dtype=np.int32),
        np.zeros(cap, dtype=np.uint8),
    )


@njit(cache=True)
def memo_find(memo, k1: np.uint64, k2: np.uint64) -> int | np.int64:
    mk1, mk2 = memo[0], memo[1]
    mask = mk1.shape[0] - 1
    i = np.int64(k1 & np.uint64(mask))
    for _ in range(PROBES):
        if mk1[i] == k1 and mk2[i] == k2:
            return i
        if mk1[i] == 0:
            return -1
        i = (i + 1) & mask
    return -1


@njit(cache=True)
def memo_put(memo, k1: np.uint64, k2: np.uint64, value: int | np.int64, best: int, exact: int) -> None:
    """Store a value (exact) or a lower bound; when the probe run is full, evict its first slot."""
    mk1, mk2, mval, mbest, mexact = memo
    mask = mk1.shape[0] - 1
    home = np.int64(k1 & np.uint64(mask))
    i = home
    for _ in range(PROBES):
        if mk1[i] == k1 and mk2[i] == k2:
            if mexact[i] == 1:
                return
            if exact == 1 or value > mval[i]:
                mval[i] = value
                mbest[i] = best
                mexact[i] = exact
            return
        if mk1[i] == 0:
            break
        i = (i + 1) & mask
    else:
        i = home
    mk1[i] = k1
    mk2[i] = k2
    mval[i] = value
    mbest[i] = best
    mexact[i] = exact


@njit(cache=True)
def state_hash(greens: np.ndarray, need: np.ndarray) -> np.uint64:
    """Hash of the hard-mode constraints (greens in place, letters needed); 0 for none."""
    h = np.uint64(0)
    for i in range(greens.shape[0]):
        h = mix64(h ^ (np.uint64(greens[i]) + np.uint64(i << 8)))
    for i in range(need.shape[0]):
        if need[i]:
            h = mix64(h ^ (np.uint64(need[i]) + np.uint64((i + 8) << 8)))
    return h


@njit(cache=True, inline="always")
def depth_key(h2: np.uint64, dl: int, hh: np.uint64) -> np.uint64:
    """The second key of a set whose member keys sum to ``h2``, with ``dl`` guesses left and
    hard-mode constraints hashed to ``hh``: the same set at another depth is another entry."""
    return h2 ^ mix64(np.uint64(dl) * np.uint64(0x9E3779B97F4A7C15) + hh)


@njit(cache=True)
def set_key(S: np.ndarray, z1: np.ndarray, z2: np.ndarray, dl: int, hh: np.uint64):
    """The two 64-bit memo keys of candidate set ``S`` (Zobrist sums) at depth ``dl``."""
    h1 = np.uint64(0)
    h2 = np.uint64(0)
    for j in range(S.shape[0]):
        h1 += z1[S[j]]
        h2 += z2[S[j]]
    return h1 | ONE, depth_key(h2, dl, hh)
