"""The exact search's memo: an open-addressing table of solved sets, keyed by 128-bit hashes.

A candidate set hashes to the sums of its members' two Zobrist keys; the guesses left and,
in hard mode, the revealed-letter constraints are mixed into the second key. An entry holds
a value (exact) or a proven lower bound, and the best guess found.

A slot is three 64-bit words: the first key, the data (value, exact flag, best guess) and
the second key sealed with both (``k2 ^ seal(k1, data)``). The table may be shared by
processes that write it without locks (``raten.trees.memo_file``), so a slot can hold words
of two different writes; a reader accepts a slot only when its seal checks, and since the
seal is a bijection of the data for a given first key, a torn slot (data of one write, seal
of another) is always rejected unless both writes stored the same data for the same key.
Every value stored is exact or a proven bound, so any slot that checks is safe to use.
"""

from __future__ import annotations

import numpy as np
from numba import njit

#: Slots looked at from a key's home slot before the first of them is evicted.
PROBES = 8
#: 64-bit words per slot: first key, sealed second key, data.
WORDS = 3
#: Bytes per slot.
SLOT_BYTES = 8 * WORDS

_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
ONE = np.uint64(1)

#: The data word: value in the low bits (saturated: every total at or above ``INF`` of the
#: search means "cannot be done", and no ``beta`` exceeds it), then the exact flag, then the
#: best guess + 1 (0 for none).
VALUE_BITS = 41
VALUE_MAX = (1 << VALUE_BITS) - 1
BEST_BITS = 64 - VALUE_BITS - 1
#: Guess rows the data word can hold (the allowed list must be shorter).
MAX_GUESSES_ROWS = (1 << BEST_BITS) - 1
_VMAX = np.int64(VALUE_MAX)
_VMASK = np.uint64(VALUE_MAX)
_XSHIFT = np.uint64(VALUE_BITS)
_BSHIFT = np.uint64(VALUE_BITS + 1)


@njit(cache=True, inline="always")
def mix64(x: np.uint64) -> np.uint64:
    """splitmix64 finaliser: a well-spread 64-bit hash of a 64-bit value (a bijection)."""
    x = x ^ (x >> np.uint64(30))
    x = x * _M1
    x = x ^ (x >> np.uint64(27))
    x = x * _M2
    return x ^ (x >> np.uint64(31))


def zobrist(count: int, seed: int) -> np.ndarray:
    """Random 64-bit keys, one per solution: a set hashes to the sum of its members' keys."""
    rng = np.random.default_rng(seed)
    return rng.integers(0, 2**63, size=max(count, 1), dtype=np.int64).astype(np.uint64) * np.uint64(2) + np.uint64(1)


def new_memo(bits: int) -> np.ndarray:
    """An empty memo table with 2**bits slots (rows of ``WORDS`` 64-bit words)."""
    return empty_memo(1 << bits)


def empty_memo(slots: int) -> np.ndarray:
    """An empty memo table with ``slots`` slots (any number from 1)."""
    return np.zeros((max(1, slots), WORDS), dtype=np.uint64)


@njit(cache=True, inline="always")
def pack(value, best, exact) -> np.uint64:
    """The data word of (value or bound, best guess or -1, exact flag)."""
    v = np.int64(value)
    if v > _VMAX:
        v = _VMAX
    return np.uint64(v) | (np.uint64(exact) << _XSHIFT) | (np.uint64(best + 1) << _BSHIFT)


@njit(cache=True, inline="always")
def unpack(d: np.uint64):
    """(value, exact flag, best guess or -1) of a data word."""
    return np.int64(d & _VMASK), np.int64((d >> _XSHIFT) & ONE), np.int64(d >> _BSHIFT) - 1


@njit(cache=True, inline="always")
def seal(k1: np.uint64, d: np.uint64) -> np.uint64:
    """What the second key is xor-ed with in a slot: for a given first key, a bijection of the data."""
    return mix64(np.uint64(k1) ^ mix64(np.uint64(d) ^ np.uint64(0x2545F4914F6CDD1D)))


@njit(cache=True, inline="always")
def home(memo, k1: np.uint64) -> np.int64:
    """The first slot probed for a key (first keys are odd: their lowest bit carries nothing)."""
    return np.int64((k1 >> ONE) % np.uint64(memo.shape[0]))


@njit(cache=True)
def memo_get(memo, k1: np.uint64, k2: np.uint64):
    """(found, value, exact flag, best guess) of the set keyed (k1, k2); a torn slot is a miss."""
    cap = memo.shape[0]
    i = home(memo, k1)
    for _ in range(PROBES):
        a = memo[i, 0]
        if a == 0:
            break
        if a == k1:
            d = memo[i, 2]
            if memo[i, 1] == (k2 ^ seal(k1, d)):
                v, ex, b = unpack(d)
                return True, v, ex, b
        i += 1
        if i == cap:
            i = np.int64(0)
    return False, np.int64(0), np.int64(0), np.int64(-1)


@njit(cache=True)
def memo_put(memo, k1: np.uint64, k2: np.uint64, value, best, exact) -> None:
    """Store a value (exact) or a lower bound; an exact value is kept, a bound only rises. When
    the probe run is full, its first slot is evicted. A slot with this first key whose seal
    fails is passed over like any other key's: it is the same set at another depth or under
    other rules (common), or torn by two writers (rare; it goes when evicted)."""
    cap = memo.shape[0]
    h = home(memo, k1)
    i = h
    found = False
    for _ in range(PROBES):
        a = memo[i, 0]
        if a == k1:
            d = memo[i, 2]
            if memo[i, 1] == (k2 ^ seal(k1, d)):
                v, ex, _ = unpack(d)
                if ex == 1 or (exact != 1 and value <= v):
                    return
                found = True
                break
        elif a == 0:
            found = True
            break
        i += 1
        if i == cap:
            i = np.int64(0)
    if not found:
        i = h
    d = np.uint64(pack(value, best, exact))  # np.uint64: a no-op compiled; the Python body's pack gives an int
    memo[i, 0] = k1
    memo[i, 2] = d
    memo[i, 1] = k2 ^ seal(k1, d)


@njit(cache=True)
def memo_merge(memo, rows) -> int:
    """Put every used slot of ``rows`` (saved slots) into ``memo``; returns how many. A torn row
    goes in as it was, under a second key no set has, so it still never reads as a hit."""
    kept = 0
    for r in range(rows.shape[0]):
        k1 = rows[r, 0]
        if k1 == 0:
            continue
        d = rows[r, 2]
        k2 = rows[r, 1] ^ seal(k1, d)
        v, ex, b = unpack(d)
        memo_put(memo, k1, k2, v, b, ex)
        kept += 1
    return kept


@njit(cache=True)
def memo_count(memo) -> int:
    """Slots in use (torn ones included)."""
    n = 0
    for i in range(memo.shape[0]):
        if memo[i, 0] != 0:
            n += 1
    return n


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
