"""The shared memo: processes writing one table without locks never read a wrong value, a saved
table comes back only for the same lists, mode, guess limit and kernels, and a run with the
shared memo (fresh or resumed) proves what private memos prove."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import warnings
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

import numpy as np
import pytest
from numba import njit
from test_tree_search import tiny_words

from raten.errors import RatenError
from raten.trees import memo as m
from raten.trees import memo_file as mf
from raten.trees.jobs import run_best
from raten.trees.results_file import memo_path
from raten.trees.search import Searcher

K = np.uint64
#: Keys hammered by the writers: all share one home slot, more of them than the probe run holds.
N_KEYS = 12
WRITERS = 3


@njit
def _hammer(table, writer, rounds, seed):
    """Put and get keys of one probe run at random; every hit is checked to be a value some
    writer put for that key (value = 1 + key << 24 + writer << 20 + round). Returns (hits,
    wrong values, slots of a wanted key whose seal failed: torn words seen)."""
    cap = table.shape[0]
    x = np.uint64(seed * 2 + 1)
    hits = 0
    wrong = 0
    torn = 0
    for r in range(rounds):
        x ^= x << np.uint64(13)
        x ^= x >> np.uint64(7)
        x ^= x << np.uint64(17)
        key = np.int64(x % np.uint64(N_KEYS))
        k1 = np.uint64(1 + 2 * cap * key)
        k2 = np.uint64(key * 7919 + 3)
        if (x >> np.uint64(40)) & np.uint64(1):
            value = 1 + (key << 24) + (writer << 20) + (r & 0xFFFFF)
            m.memo_put(table, k1, k2, value, key, np.int64((x >> np.uint64(41)) & np.uint64(1)))
        else:
            hit, v, ex, best = m.memo_get(table, k1, k2)
            if hit:
                hits += 1
                if ((v - 1) >> 24) != key or ((v - 1) >> 20) & 15 >= WRITERS or best != key or ex > 1:
                    wrong += 1
            else:
                for i in range(m.PROBES):
                    if table[i % cap, 0] == k1 and table[i % cap, 1] != k2 ^ m.seal(k1, table[i % cap, 2]):
                        torn += 1
    return hits, wrong, torn


#: The longest a writer waits for the others to be compiled and attached: generous, the wait
#: ends when the last one arrives (a fixed start time would be too early on a loaded machine).
START_TIMEOUT = 600


def _writer(handle: mf.MemoHandle, writer: int, rounds: int, start) -> tuple[int, int, int]:
    """Compile, wait at the ``start`` barrier until every writer has (so they overlap), hammer
    the shared table."""
    _hammer(m.empty_memo(64), writer, 10, 1)
    table = mf.attach(handle)
    start.wait(START_TIMEOUT)
    return tuple(int(v) for v in _hammer(table, writer, rounds, 1000 + writer))


@pytest.mark.slow
def test_processes_hammering_one_probe_run_never_read_a_wrong_value(tmp_path) -> None:
    """Three processes put and get twelve keys of one probe run (eight slots: constant eviction
    and torn slots); every value any of them reads, and every slot that checks at the end, is
    one some writer put for that key."""
    shared = mf.SharedMemo("f" * 32, 64, directory=tmp_path)
    try:
        spawn = get_context("spawn")
        with spawn.Manager() as manager, ProcessPoolExecutor(WRITERS, mp_context=spawn) as ex:
            start = [manager.Barrier(WRITERS)] * WRITERS  # passed when all are compiled and attached
            out = list(ex.map(_writer, [shared.handle] * WRITERS, range(WRITERS), [20_000_000] * WRITERS, start))
        hits = sum(o[0] for o in out)
        assert sum(o[1] for o in out) == 0
        assert hits > 0
        print(f"hits {hits}, torn slots seen {sum(o[2] for o in out)}")
        table = shared.table
        for i in range(m.PROBES):
            k1 = table[i, 0]
            if k1 == 0:
                continue
            key = (int(k1) - 1) // (2 * table.shape[0])
            k2 = K(key * 7919 + 3)
            hit, v, _, best = m.memo_get(table, k1, k2)
            if hit:
                assert (v - 1) >> 24 == key and best == key
    finally:
        shared.close()
    assert not Path(shared.handle.path).exists()


def test_attach_refuses_another_runs_table(tmp_path) -> None:
    shared = mf.SharedMemo("a" * 32, 16, directory=tmp_path)
    try:
        for other in (
            mf.MemoHandle(shared.handle.path, 16, "0" * 16, "a" * 32),
            mf.MemoHandle(shared.handle.path, 16, shared.handle.token, "b" * 32),
            mf.MemoHandle(shared.handle.path, 32, shared.handle.token, "a" * 32),
        ):
            with pytest.raises(ValueError, match="another run"):
                mf.attach(other)
        table = mf.attach(shared.handle)
        m.memo_put(table, K(5), K(6), 17, 2, 1)
        assert tuple(m.memo_get(shared.table, K(5), K(6))) == (True, 17, 1, 2)  # one table, two mappings
    finally:
        shared.close()
    with pytest.raises(FileNotFoundError):
        mf.attach(shared.handle)


def test_a_table_goes_where_there_is_room_for_it(monkeypatch) -> None:
    room = {"/dev/shm": 10 << 20, tempfile.gettempdir(): 100 << 20}
    monkeypatch.setattr(mf, "_room", lambda d: room.get(str(d), 0))
    assert mf.live_dir(1 << 20) in (Path("/dev/shm"), Path(tempfile.gettempdir()))
    assert mf.live_dir(50 << 20) == Path(tempfile.gettempdir())  # a small /dev/shm (a container's)
    with pytest.raises(RatenError, match="lower --memo-gb"):
        mf.live_dir(200 << 20)


def test_a_dead_runs_live_table_is_removed(tmp_path) -> None:
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    stale = tmp_path / f"raten-memo-{int(dead.stdout)}-00ff.bin"
    stale.write_bytes(b"x")
    mine = tmp_path / f"raten-memo-{os.getpid()}-00aa.bin"
    mine.write_bytes(b"x")
    assert mf.remove_stale_live(tmp_path) == [stale]
    assert mine.exists() and not stale.exists()


def _filled(slots: int = 200) -> np.ndarray:
    table = m.empty_memo(slots)
    for i in range(120):
        m.memo_put(table, K(1 + 2 * i), K(i * 3), 50 + i, i % 17, i % 2)
    return table


def _entries(table: np.ndarray) -> dict[tuple[int, int], tuple]:
    out = {}
    for i in range(120):
        hit = m.memo_get(table, K(1 + 2 * i), K(i * 3))
        if hit[0]:
            out[(1 + 2 * i, i * 3)] = tuple(int(v) for v in hit[1:])
    return out


def test_save_and_load_round_trip_into_any_size(tmp_path) -> None:
    table = _filled()
    path = tmp_path / "x.memo"
    assert mf.save_memo(table, path, "fp") == m.memo_count(table) == 120
    for slots in (200, 301):
        again = m.empty_memo(slots)
        assert mf.load_memo(again, path, "fp") == 120
        assert _entries(again) == _entries(table) and len(_entries(table)) == 120
    assert mf.load_memo(m.empty_memo(10), tmp_path / "none.memo", "fp") == 0  # a first run: silent


@pytest.mark.parametrize(
    "damage",
    ["fingerprint", "flip", "truncate", "pad", "header", "fifo"],
)
def test_a_memo_file_that_cannot_be_trusted_leaves_the_table_empty(tmp_path, damage) -> None:
    path = tmp_path / "x.memo"
    mf.save_memo(_filled(), path, "fp")
    raw = bytearray(path.read_bytes())
    fp = "fp"
    if damage == "fingerprint":
        fp = "other"
    elif damage == "flip":
        raw[mf.HEADER_BYTES + 24 * 7 + 16] ^= 4  # one bit of one entry's data
        path.write_bytes(raw)
    elif damage == "truncate":
        path.write_bytes(raw[:-24])
    elif damage == "pad":
        path.write_bytes(raw + bytes(24))
    elif damage == "header":
        path.write_bytes(b"nonsense" + raw[8:])
    else:
        path.unlink()
        os.mkfifo(path)
    table = m.empty_memo(200)
    with pytest.warns(UserWarning, match="memo"):
        assert mf.load_memo(table, path, fp) == 0
    assert m.memo_count(table) == 0


def test_the_fingerprint_names_lists_mode_limit_and_kernels() -> None:
    a, b = tiny_words(1, n_sol=8, n_extra=4), tiny_words(2, n_sol=8, n_extra=4)
    fp = mf.memo_fingerprint(a, False, 6)
    assert fp == mf.memo_fingerprint(a, False, 6)
    others = {mf.memo_fingerprint(b, False, 6), mf.memo_fingerprint(a, True, 6), mf.memo_fingerprint(a, False, None)}
    assert fp not in others and len(others) == 3
    assert mf._KERNEL_MODULES == ("raten.trees.kernels", "raten.trees.memo", "raten.engine.hardmode")


def test_memo_gb_is_bounded() -> None:
    assert mf.slots_for(1.0) == (1 << 30) // m.SLOT_BYTES
    assert mf.slots_for(mf.MAX_GB) * m.SLOT_BYTES <= 16 << 30
    for bad in (0, -1, 16.5):
        with pytest.raises(RatenError, match="--memo-gb"):
            mf.slots_for(bad)


@pytest.fixture(scope="module")
def words():
    return tiny_words(11, alphabet="aeilnorst", n_sol=40, n_extra=60)


def _ranking(report) -> list[tuple[str, int, int]]:
    return [(r["opener"], r["total"], r["worst"]) for r in report.exact if r["total"] < report.cutoff]


def test_the_shared_memo_proves_what_private_memos_prove_and_a_resumed_run_reuses_it(words, tmp_path) -> None:
    private = run_best(words, top=5, memo_gb=0)
    path = tmp_path / "r.jsonl"
    shared = run_best(words, top=5, results=path, memo_gb=0.01)
    assert _ranking(shared) == _ranking(private) and shared.cutoff == private.cutoff
    assert shared.memo_loaded == 0 and shared.memo_saved > 0 and memo_path(path).exists()
    # drop the openers' records, keep the header: the resumed run redoes them from the saved memo
    path.write_text(path.read_text().splitlines()[0] + "\n")
    again = run_best(words, top=5, results=path, memo_gb=0.02)
    assert again.memo_loaded == shared.memo_saved
    assert _ranking(again) == _ranking(private) and again.cutoff == private.cutoff
    # a run in hard mode with the same results name would refuse the results file; the memo
    # of another mode is refused by its fingerprint alone
    table = m.empty_memo(1000)
    with pytest.warns(UserWarning, match="other lists, another mode"):
        assert mf.load_memo(table, memo_path(path), mf.memo_fingerprint(words, True, 6)) == 0


def test_every_value_in_a_saved_memo_is_exact_or_a_true_bound(words, tmp_path) -> None:
    """The entries a run leaves behind, checked against a fresh search of the same sets: read the
    saved table back and compare with what an empty memo proves for each opener's groups."""
    path = tmp_path / "r.jsonl"
    run_best(words, top=5, results=path, memo_gb=0.01)
    table = m.empty_memo(1 << 16)
    assert mf.load_memo(table, memo_path(path), mf.memo_fingerprint(words, False, 6)) > 0
    warm = Searcher(words, max_guesses=6, memo=table)
    cold = Searcher(words, max_guesses=6, memo_bits=12)
    for o in words.allowed:
        assert warm.solve_opener(o, tree=False).total == cold.solve_opener(o, tree=False).total, o


@pytest.mark.slow
def test_pool_workers_share_the_memo(words, tmp_path) -> None:
    pool = run_best(words, top=5, jobs=2, results=tmp_path / "p.jsonl", memo_gb=0.01)
    one = run_best(words, top=5, memo_gb=0)
    assert _ranking(pool) == _ranking(one) and pool.memo_saved > 0


def test_cli_memo_gb_out_of_range_is_a_clear_error(words, tmp_path) -> None:
    from click.testing import CliRunner

    from raten.cli import main

    sols, allowed = tmp_path / "s.txt", tmp_path / "a.txt"
    sols.write_text("\n".join(words.solutions) + "\n")
    allowed.write_text("\n".join(words.allowed) + "\n")
    args = ["tree", "--solutions", str(sols), "--allowed", str(allowed), "--best", "--jobs", "1"]
    res = CliRunner().invoke(main, [*args, "--memo-gb", "17", "--results", str(tmp_path / "r.jsonl")])
    assert res.exit_code != 0 and "--memo-gb" in res.output and "Traceback" not in res.output
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = CliRunner().invoke(main, [*args, "--memo-gb", "0.01", "--results", str(tmp_path / "r.jsonl"), "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["memo_saved"] > 0
