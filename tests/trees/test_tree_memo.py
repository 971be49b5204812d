"""The search memo: what it keeps, what it upgrades, what it evicts, and that a torn slot is a
miss (compiled and as Python)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from raten.trees import memo as m

K = np.uint64


@pytest.fixture(params=["compiled", "python"])
def ops(request):
    """(get, put) as the search calls them, or their Python bodies (so coverage sees them)."""
    if request.param == "compiled":
        return m.memo_get, m.memo_put
    return m.memo_get.py_func, m.memo_put.py_func


def _same_home(memo: np.ndarray, count: int) -> list[int]:
    """``count`` odd first keys that share one home slot."""
    cap = memo.shape[0]
    return [1 + 2 * cap * i for i in range(count)]


def test_put_then_get_and_a_miss(ops) -> None:
    get, put = ops
    memo = m.new_memo(4)
    put(memo, K(3), K(7), 11, 5, 1)
    assert tuple(get(memo, K(3), K(7))) == (True, 11, 1, 5)
    assert get(memo, K(3), K(8))[0] is False  # same first key, other second key
    assert get(memo, K(5), K(7))[0] is False


def test_a_bound_rises_an_exact_value_stays(ops) -> None:
    get, put = ops
    memo = m.new_memo(4)
    put(memo, K(1), K(1), 9, -1, 0)  # lower bound 9
    put(memo, K(1), K(1), 7, -1, 0)  # a weaker bound changes nothing
    assert tuple(get(memo, K(1), K(1))) == (True, 9, 0, -1)
    put(memo, K(1), K(1), 12, 4, 1)  # the exact value replaces the bound
    put(memo, K(1), K(1), 20, 6, 0)  # and nothing replaces the exact value
    assert tuple(get(memo, K(1), K(1))) == (True, 12, 1, 4)


def test_a_full_probe_run_evicts_its_home_slot(ops) -> None:
    get, put = ops
    memo = m.new_memo(6)
    keys = _same_home(memo, m.PROBES + 1)
    for i, k in enumerate(keys[:-1]):
        put(memo, K(k), K(1), i, -1, 1)
    assert all(get(memo, K(k), K(1))[0] for k in keys[:-1])
    put(memo, K(keys[-1]), K(1), 99, -1, 1)
    assert tuple(get(memo, K(keys[-1]), K(1))) == (True, 99, 1, -1)
    assert get(memo, K(keys[0]), K(1))[0] is False  # the first of the run made room
    assert get(memo, K(keys[1]), K(1))[0]


def test_any_table_size_wraps_around(ops) -> None:
    get, put = ops
    memo = m.empty_memo(5)  # not a power of two; the probe run wraps past the last slot
    keys = [1 + 2 * (4 + 5 * i) for i in range(4)]  # home slot 4 (the last)
    for i, k in enumerate(keys):
        put(memo, K(k), K(2), 10 + i, i, 0)
    assert [tuple(get(memo, K(k), K(2))) for k in keys] == [(True, 10 + i, 0, i) for i in range(4)]


def test_values_saturate_above_inf_and_best_guesses_round_trip() -> None:
    from raten.trees.kernels import INF

    assert m.VALUE_MAX >= INF  # every exact value (at most INF) is kept as it is
    for value, best, exact in [(1, -1, 0), (INF, -1, 1), (7920, 12971, 1), (3, m.MAX_GUESSES_ROWS - 1, 0)]:
        assert tuple(m.unpack(np.uint64(m.pack(value, best, exact)))) == (value, exact, best)
    v, ex, _ = m.unpack(np.uint64(m.pack(5 * INF, -1, 0)))  # a bound far above INF stays at least INF
    assert v >= INF and ex == 0


def test_a_torn_slot_is_a_miss_and_is_overwritten(ops) -> None:
    """A slot holding the words of two writes of one key (data of one, seal of the other), or of
    two keys, never reads as a hit; the next put of the key replaces it."""
    get, put = ops
    a, b = m.new_memo(4), m.new_memo(4)
    put(a, K(9), K(4), 30, 2, 0)  # a bound 30 ...
    put(b, K(9), K(4), 41, 3, 1)  # ... and the exact 41, by two writers of the same slot
    slot = int(np.flatnonzero(a[:, 0])[0])
    torn = a.copy()
    torn[slot, 2] = b[slot, 2]  # data of the second write, seal of the first
    assert get(torn, K(9), K(4))[0] is False
    torn = a.copy()
    torn[slot, 1] = b[slot, 1]  # seal of the second, data of the first
    assert get(torn, K(9), K(4))[0] is False
    other = m.new_memo(4)
    put(other, K(9), K(5), 30, 2, 0)  # another key with the same first key: its seal
    torn = a.copy()
    torn[slot, 1] = other[slot, 1]
    assert get(torn, K(9), K(4))[0] is False and get(torn, K(9), K(5))[0]  # ... reads as the other key
    torn = a.copy()
    torn[slot, 2] = b[slot, 2]
    put(torn, K(9), K(4), 12, 1, 0)  # a put passes a torn slot of its key over
    assert tuple(get(torn, K(9), K(4))) == (True, 12, 0, 1)
    assert int(np.count_nonzero(torn[:, 0])) == 2


def test_the_same_set_at_two_depths_keeps_both_entries(ops) -> None:
    """One candidate set (one first key) at two depths or under two rules (two second keys):
    neither put evicts the other."""
    get, put = ops
    memo = m.new_memo(4)
    put(memo, K(9), K(4), 30, 2, 1)
    put(memo, K(9), K(5), 31, 3, 0)
    assert tuple(get(memo, K(9), K(4))) == (True, 30, 1, 2)
    assert tuple(get(memo, K(9), K(5))) == (True, 31, 0, 3)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 11), st.integers(0, 1), st.integers(1, 60), st.integers(-1, 40), st.integers(0, 1)),
        min_size=1,
        max_size=60,
    )
)
@pytest.mark.slow
def test_against_a_dictionary(puts) -> None:
    """Every hit equals what the rules make of the puts of that key (a plain dict as reference),
    on a table small enough to evict; a miss only for a key evicted or never put."""
    memo = m.empty_memo(7)
    ref: dict[tuple[int, int], tuple[int, int, int]] = {}
    for key, k2, value, best, exact in puts:
        k1 = 1 + 2 * key
        m.memo_put(memo, K(k1), K(k2), value, best, exact)
        hit = m.memo_get(memo, K(k1), K(k2))
        assert hit[0], "a key just put is found"
        old = ref.get((k1, k2))
        kept = old is not None and (old[1] == 1 or (exact != 1 and value <= old[0]))
        if not kept or tuple(hit[1:]) != old:  # a new value, or an evicted entry back as this put alone
            old = (value, exact, best)
        ref[(k1, k2)] = old
        assert tuple(hit[1:]) == old
    for (k1, k2), want in ref.items():
        hit = m.memo_get(memo, K(k1), K(k2))
        if hit[0]:
            assert tuple(hit[1:]) == want


def test_merge_keeps_what_checks_and_drops_torn_rows() -> None:
    src = m.new_memo(6)
    for i in range(20):
        m.memo_put(src, K(1 + 2 * i), K(i), 100 + i, i, i % 2)
    rows = src[src[:, 0] != 0].copy()
    rows[3, 2] ^= K(1 << 5)  # one damaged row
    dst = m.empty_memo(37)
    assert m.memo_merge(dst, rows) == 20
    found = [i for i in range(20) if m.memo_get(dst, K(1 + 2 * i), K(i))[0]]
    assert len(found) == 19
    for i in found:
        assert tuple(m.memo_get(dst, K(1 + 2 * i), K(i))[1:]) == (100 + i, i % 2, i)
    assert m.memo_count(dst) == 20  # the damaged row is stored under a key no set has


def test_set_keys_ignore_order_and_depend_on_depth_and_rules() -> None:
    z1, z2 = m.zobrist(50, 1), m.zobrist(50, 2)
    s = np.array([3, 17, 42], dtype=np.int64)
    a = m.set_key(s, z1, z2, 4, K(0))
    assert a == m.set_key(s[::-1].copy(), z1, z2, 4, K(0))
    assert a != m.set_key(s, z1, z2, 3, K(0))
    assert a != m.set_key(s, z1, z2, 4, K(5))
    assert a != m.set_key(s[:2].copy(), z1, z2, 4, K(0))
    assert a[0] & K(1) == K(1)  # never 0, the empty slot's key
    with np.errstate(over="ignore"):  # the keys wrap around by design, as in the compiled code
        assert m.set_key.py_func(s, z1, z2, 4, K(0)) == a
