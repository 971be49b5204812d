"""The search memo: what it keeps, what it upgrades, what it evicts (compiled and as Python)."""

from __future__ import annotations

import numpy as np
import pytest

from raten.trees import memo as m

K = np.uint64


@pytest.fixture(params=["compiled", "python"])
def ops(request):
    """(find, put) as the search calls them, or their Python bodies (so coverage sees them)."""
    if request.param == "compiled":
        return m.memo_find, m.memo_put
    return m.memo_find.py_func, m.memo_put.py_func


def test_put_then_find_and_a_miss(ops) -> None:
    find, put = ops
    memo = m.new_memo(4)
    put(memo, K(3), K(7), 11, 5, 1)
    slot = find(memo, K(3), K(7))
    assert slot >= 0 and memo[2][slot] == 11 and memo[3][slot] == 5 and memo[4][slot] == 1
    assert find(memo, K(3), K(8)) == -1  # same home slot, other second key
    assert find(memo, K(5), K(7)) == -1


def test_a_bound_rises_an_exact_value_stays(ops) -> None:
    find, put = ops
    memo = m.new_memo(4)
    put(memo, K(1), K(1), 9, -1, 0)  # lower bound 9
    put(memo, K(1), K(1), 7, -1, 0)  # a weaker bound changes nothing
    assert memo[2][find(memo, K(1), K(1))] == 9
    put(memo, K(1), K(1), 12, 4, 1)  # the exact value replaces the bound
    put(memo, K(1), K(1), 20, 6, 0)  # and nothing replaces the exact value
    slot = find(memo, K(1), K(1))
    assert (memo[2][slot], memo[3][slot], memo[4][slot]) == (12, 4, 1)


def test_a_full_probe_run_evicts_its_home_slot(ops) -> None:
    find, put = ops
    memo = m.new_memo(4)  # 16 slots; keys with the same low bits share a home
    for i in range(m.PROBES):
        put(memo, K(1 + 16 * i), K(1), i, -1, 1)
    assert all(find(memo, K(1 + 16 * i), K(1)) >= 0 for i in range(m.PROBES))
    put(memo, K(1 + 16 * m.PROBES), K(1), 99, -1, 1)
    assert find(memo, K(1 + 16 * m.PROBES), K(1)) >= 0
    assert find(memo, K(1), K(1)) == -1  # the first of the run made room
    assert find(memo, K(1 + 16), K(1)) >= 0


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
