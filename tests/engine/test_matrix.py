"""The pattern matrix: built by the kernel, equal to the reference, cached, and repaired when the cache is bad."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
import tokenize
import warnings
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from raten.engine import cache, matrix
from raten.engine.matrix import build_matrix, cache_dir, cache_path, feedback_against, load_matrix
from raten.engine.state import State
from raten.engine.words import WordSet
from reference import ref_code


@pytest.fixture(scope="module")
def small_words(en_words) -> WordSet:
    """60 solutions and 150 allowed words drawn from the English lists."""
    rng = random.Random(7)
    sols = rng.sample(en_words.solutions, 60)
    return WordSet.from_lists(sols, rng.sample(en_words.allowed, 150), name="small")


@pytest.fixture
def fresh_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache directory and no matrices remembered in this process."""
    monkeypatch.setenv("RATEN_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(matrix, "_LOADED", {})
    return tmp_path / "cache"


def reference_matrix(words: WordSet) -> np.ndarray:
    return np.array([[ref_code(g, s) for s in words.solutions] for g in words.allowed], dtype=np.uint8)


def test_small_matrix_equals_reference(small_words) -> None:
    data = build_matrix(small_words)
    assert data.dtype == np.uint8
    assert data.shape == (len(small_words.allowed), len(small_words.solutions))
    assert np.array_equal(data, reference_matrix(small_words))


@pytest.mark.parametrize("fixture", ["en_words", "de6_words"])
def test_full_matrix_spot_checks(fixture: str, request: pytest.FixtureRequest) -> None:
    words = request.getfixturevalue(fixture)
    pm = load_matrix(words)
    n, m = len(words.allowed), len(words.solutions)
    assert pm.shape == (n, m)
    assert pm.words is words
    rng = random.Random(fixture)
    for _ in range(3000):
        g, s = rng.randrange(n), rng.randrange(m)
        assert pm.data[g, s] == ref_code(words.allowed[g], words.solutions[s])
    # every solution row has all green on its own column, and only there
    rows = words.solution_rows
    diag = pm.data[rows, np.arange(m)]
    assert (diag == 242).all()
    assert int((np.asarray(pm.data[rows]) == 242).sum()) == m


def test_feedback_against_an_unlisted_guess(small_words) -> None:
    codes = feedback_against("qxzvj", small_words.solutions)
    assert codes.tolist() == [ref_code("qxzvj", s) for s in small_words.solutions]
    assert feedback_against("crane", ["crane"]).tolist() == [242]


def test_cache_dir_from_environment(fresh_cache: Path, small_words) -> None:
    assert cache_dir() == fresh_cache
    path = cache_path(small_words)
    assert path.parent == fresh_cache
    assert small_words.fingerprint in path.name
    assert path.name.startswith(f"matrix-v{matrix.FORMAT_VERSION}-")


def test_cache_written_then_memory_mapped(fresh_cache: Path, small_words, monkeypatch: pytest.MonkeyPatch) -> None:
    first = load_matrix(small_words)
    path = cache_path(small_words)
    assert path.exists()
    assert load_matrix(small_words).data is first.data  # remembered in this process
    monkeypatch.setattr(matrix, "_LOADED", {})
    second = load_matrix(small_words)
    assert isinstance(second.data, np.memmap)
    assert np.array_equal(second.data, reference_matrix(small_words))
    assert not list(fresh_cache.glob("*.tmp"))  # written atomically


@pytest.mark.parametrize("block_bytes", [1, 150, 7 * 60, 10**9])
@pytest.mark.slow
def test_blocks_make_the_whole_table(small_words, block_bytes: int) -> None:
    blocks = list(matrix.matrix_blocks(small_words, block_bytes))
    rows = max(1, block_bytes // len(small_words.solutions))
    assert len(blocks) == -(-len(small_words.allowed) // rows)
    assert np.array_equal(np.concatenate(blocks), reference_matrix(small_words))


@pytest.mark.usefixtures("fresh_cache")
@pytest.mark.slow
def test_a_table_cached_in_blocks_is_the_table_and_its_digest_the_whole_ones(
    small_words, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(matrix, "BLOCK_BYTES", 7 * 60)  # 7 rows at a time
    built = []
    real = matrix.matrix_blocks
    monkeypatch.setattr(matrix, "matrix_blocks", lambda w: (built.append(b) or b for b in real(w, 7 * 60)))
    pm = load_matrix(small_words)
    assert len(built) == -(-len(small_words.allowed) // 7) > 1 and isinstance(pm.data, np.memmap)
    assert np.array_equal(pm.data, reference_matrix(small_words))
    meta = json.loads(cache.meta_path(cache_path(small_words)).read_text())
    assert meta["digest"] == cache.digest(reference_matrix(small_words))  # streamed hash = one-shot hash


@pytest.mark.parametrize("rows", [59, 61])
def test_blocks_that_do_not_make_the_shape_are_refused(tmp_path: Path, rows: int) -> None:
    path = tmp_path / "m.npy"
    block = np.zeros((rows, 60), dtype=np.uint8)
    with pytest.raises(ValueError, match="rows"):
        cache.write_blocks(path, (60, 60), iter([block]), "f", {})
    with pytest.raises(ValueError, match="does not fit"):
        cache.write_blocks(path, (60, 60), iter([np.zeros((60, 59), dtype=np.uint8)]), "f", {})
    assert not list(tmp_path.iterdir())  # nothing half written is left


def test_use_cache_false_writes_nothing(fresh_cache: Path, small_words) -> None:
    pm = load_matrix(small_words, use_cache=False)
    assert np.array_equal(pm.data, reference_matrix(small_words))
    assert not fresh_cache.exists() or not list(fresh_cache.iterdir())


def _valid_cache_bytes(words: WordSet, tmp_path: Path) -> bytes:
    path = tmp_path / "good.npy"
    np.save(path, build_matrix(words))
    return path.read_bytes()


def _corrupt(kind: str, words: WordSet, tmp_path: Path) -> bytes:
    good = _valid_cache_bytes(words, tmp_path)
    rng = random.Random(kind)
    if kind == "truncated":
        return good[: len(good) // 2]
    if kind == "header only":
        return good[:128]
    if kind == "empty":
        return b""
    if kind == "garbage, right size":
        return bytes(rng.randrange(256) for _ in range(len(good)))
    if kind == "right header, garbage data":
        header = len(good) - len(words.allowed) * len(words.solutions)
        return good[:header] + bytes(rng.randrange(243) for _ in range(len(good) - header))
    if kind in ("wrong shape", "transposed", "wrong dtype"):
        data = build_matrix(words)
        arr = {"wrong shape": data[:-1], "transposed": data.T.copy(), "wrong dtype": data.astype(np.int16)}[kind]
        path = tmp_path / "other.npy"
        np.save(path, arr)
        return path.read_bytes()
    if kind == "pickled object":
        path = tmp_path / "obj.npy"
        np.save(path, np.array([{"a": 1}], dtype=object), allow_pickle=True)
        return path.read_bytes()
    raise AssertionError(kind)


CORRUPTIONS = [
    "truncated",
    "header only",
    "empty",
    "garbage, right size",
    "right header, garbage data",
    "wrong shape",
    "transposed",
    "wrong dtype",
    "pickled object",
]


@pytest.mark.slow
@pytest.mark.parametrize("kind", CORRUPTIONS)
@pytest.mark.usefixtures("fresh_cache")
def test_corrupt_cache_is_rebuilt_with_a_warning(kind: str, small_words, tmp_path: Path) -> None:
    path = cache_path(small_words)
    path.parent.mkdir(parents=True)
    path.write_bytes(_corrupt(kind, small_words, tmp_path))
    with pytest.warns(UserWarning, match="rebuilding it"):
        pm = load_matrix(small_words)
    assert np.array_equal(pm.data, reference_matrix(small_words))
    # and the cache file was repaired
    assert np.array_equal(np.load(path), pm.data)


def test_unwritable_cache_warns_and_continues(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, small_words) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("RATEN_CACHE_DIR", str(blocker / "cache"))
    monkeypatch.setattr(matrix, "_LOADED", {})
    with pytest.warns(UserWarning) as record:
        pm = load_matrix(small_words)
    messages = [str(w.message).split(" (")[0] for w in record]
    assert messages == [f"cannot write the matrix cache {cache_path(small_words)}"]
    assert np.array_equal(pm.data, reference_matrix(small_words))


@pytest.mark.skipif(os.geteuid() == 0, reason="root can read any file")
@pytest.mark.usefixtures("fresh_cache")
def test_unreadable_cache_is_rebuilt(small_words, tmp_path: Path) -> None:
    path = cache_path(small_words)
    path.parent.mkdir(parents=True)
    path.write_bytes(_valid_cache_bytes(small_words, tmp_path))
    path.chmod(0)
    try:
        with pytest.warns(UserWarning):
            pm = load_matrix(small_words)
    finally:
        path.chmod(0o644)
    assert np.array_equal(pm.data, reference_matrix(small_words))


# --- the digest: a table changed on disk is caught, whatever the change -------------------


def _built(words: WordSet) -> Path:
    """Build the cache entry for ``words`` (through load_matrix) and forget it in this process."""
    load_matrix(words)
    matrix._LOADED.clear()
    return cache_path(words)


def _rebuilt_right(words: WordSet, match: str) -> None:
    """The next load warns (``match``), answers right, and leaves a sound entry behind."""
    with pytest.warns(UserWarning, match=match):
        pm = load_matrix(words)
    assert np.array_equal(pm.data, reference_matrix(words))
    matrix._LOADED.clear()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the repaired entry loads without a word
        again = load_matrix(words)
    assert isinstance(again.data, np.memmap)
    assert np.array_equal(again.data, reference_matrix(words))


@pytest.mark.slow
@pytest.mark.usefixtures("fresh_cache")
def test_one_changed_byte_in_the_en_table_is_caught(en_words) -> None:
    """The issue's case: data[crane, aging] = 0 made crane=..?!. leave 19 candidates, without AGING."""
    path = _built(en_words)
    g, s = en_words.allowed_index["crane"], en_words.solution_index["aging"]
    table = np.load(path, mmap_mode="r+")
    assert table[g, s] != 0
    table[g, s] = 0
    table.flush()
    del table
    with pytest.warns(UserWarning, match="do not match the digest.*rebuilding it"):
        state = State(en_words).after("crane", "..?!.")
    assert state.count == 20
    assert "aging" in state.candidate_words
    assert load_matrix(en_words).data[g, s] == ref_code("crane", "aging")


def _flip_one_byte(path: Path) -> None:
    raw = bytearray(path.read_bytes())
    raw[-7] ^= 0x01
    path.write_bytes(bytes(raw))


def _garble_header(path: Path) -> None:
    """The header np.load fails on with tokenize.TokenError (an unclosed parenthesis)."""
    raw = path.read_bytes()
    shape = raw[: raw.index(b"\n")].split(b"'shape': ")[1].split(b")")[0] + b")"
    path.write_bytes(raw.replace(shape, shape[:-1] + b" ", 1))


def _np_save(arr: np.ndarray) -> Callable[[Path], None]:
    return lambda path: np.save(path, arr, allow_pickle=True)


DATA_DAMAGE: dict[str, Callable[[Path], None]] = {
    "one flipped byte": _flip_one_byte,
    "garbled header": _garble_header,
    "truncated": lambda p: p.write_bytes(p.read_bytes()[:-1000]),
    "padded": lambda p: p.write_bytes(p.read_bytes() + b"\0" * 10),
    "empty": lambda p: p.write_bytes(b""),
    "zeros, right header": lambda p: p.write_bytes(p.read_bytes()[:128] + b"\0" * (p.stat().st_size - 128)),
    "deleted": lambda p: p.unlink(),
}


@pytest.mark.slow
@pytest.mark.parametrize("kind", DATA_DAMAGE)
@pytest.mark.usefixtures("fresh_cache")
def test_damaged_table_beside_its_digest_is_rebuilt(kind: str, small_words) -> None:
    path = _built(small_words)
    DATA_DAMAGE[kind](path)
    if kind == "deleted":  # no table: a first run, silent, even with its digest file left behind
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert np.array_equal(load_matrix(small_words).data, reference_matrix(small_words))
        return
    _rebuilt_right(small_words, "cannot be trusted.*rebuilding it")


@pytest.mark.usefixtures("fresh_cache")
def test_garbled_header_is_what_crashed_np_load(small_words) -> None:
    """The damage above is the one from the issue: numpy's own reader raises tokenize.TokenError."""
    path = _built(small_words)
    _garble_header(path)
    with pytest.raises(tokenize.TokenError):
        np.load(path, mmap_mode="r")


@pytest.mark.slow
@pytest.mark.parametrize(
    "arr",
    [
        pytest.param(lambda d: d[:-1], id="wrong shape"),
        pytest.param(lambda d: d.T.copy(), id="transposed"),
        pytest.param(lambda d: d.astype(np.int16), id="wrong dtype"),
        pytest.param(lambda d: np.asfortranarray(d), id="fortran order"),
        pytest.param(lambda _d: np.array([{"a": 1}], dtype=object), id="pickled object"),
    ],
)
@pytest.mark.usefixtures("fresh_cache")
def test_other_array_in_the_place_of_the_table_is_rebuilt(arr, small_words) -> None:
    path = _built(small_words)
    _np_save(arr(build_matrix(small_words)))(path)
    _rebuilt_right(small_words, "cannot be trusted.*rebuilding it")


META_DAMAGE: dict[str, Callable[[Path], None]] = {
    "missing": lambda p: p.unlink(),
    "not JSON": lambda p: p.write_bytes(b"\x00{garbage"),
    "not an object": lambda p: p.write_text("[1, 2]"),
    "no digest": lambda p: p.write_text(
        json.dumps({k: v for k, v in json.loads(p.read_text()).items() if k != "digest"})
    ),
    "other digest": lambda p: p.write_text(json.dumps({**json.loads(p.read_text()), "digest": "xxh3_128:00"})),
    "bad shape": lambda p: p.write_text(json.dumps({**json.loads(p.read_text()), "shape": ["a", -1]})),
    "other shape": lambda p: p.write_text(json.dumps({**json.loads(p.read_text()), "shape": [1, 1]})),
    "other lists": lambda p: p.write_text(json.dumps({**json.loads(p.read_text()), "fingerprint": "0" * 24})),
    "a folder": lambda p: (p.unlink(), p.mkdir()),
}


@pytest.mark.slow
@pytest.mark.parametrize("kind", META_DAMAGE)
@pytest.mark.usefixtures("fresh_cache")
def test_damaged_digest_file_means_a_rebuild(kind: str, small_words) -> None:
    path = _built(small_words)
    META_DAMAGE[kind](cache.meta_path(path))
    if kind == "a folder":  # the folder stays (never removed for us), so the answer comes from memory
        with pytest.warns(UserWarning) as record:
            pm = load_matrix(small_words)
        assert str(record[0].message).startswith("cache file")
        assert "cannot write the matrix cache" in str(record[-1].message)
        assert np.array_equal(pm.data, reference_matrix(small_words))
        return
    _rebuilt_right(small_words, "cannot be trusted.*rebuilding it")


# --- files that are not files, temporary files, folders that refuse writes ----------------


@pytest.mark.slow
@pytest.mark.timeout(20)  # a blocking open of a FIFO would hang here forever: the guard fails it instead
@pytest.mark.parametrize("which", ["table", "digest file"])
@pytest.mark.usefixtures("fresh_cache")
def test_fifo_in_the_cache_is_never_opened(which: str, small_words) -> None:
    path = _built(small_words)
    target = path if which == "table" else cache.meta_path(path)
    target.unlink()
    os.mkfifo(target)
    _rebuilt_right(small_words, "not a regular file.*rebuilding it")
    assert target.is_file()


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_failed_rename_leaves_no_temporary_file(fresh_cache: Path, small_words, monkeypatch) -> None:
    def refuse(*_args: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(cache.os, "replace", refuse)
    with pytest.warns(UserWarning, match="cannot write the matrix cache .*Permission denied"):
        pm = load_matrix(small_words)
    assert np.array_equal(pm.data, reference_matrix(small_words))
    assert sorted(p.name for p in fresh_cache.iterdir()) == []


def test_failed_write_leaves_no_temporary_file(fresh_cache: Path, small_words, monkeypatch) -> None:
    def full(*_args: object, **_kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(cache.json, "dumps", full)  # the second file fails, after the table was written
    with pytest.warns(UserWarning, match="No space left"):
        load_matrix(small_words)
    assert sorted(p.name for p in fresh_cache.iterdir()) == []


def test_leftover_temporary_files_are_removed_by_the_next_write(fresh_cache: Path, small_words) -> None:
    fresh_cache.mkdir()
    stem = cache_path(small_words).name
    dead = fresh_cache / f"{stem}.{_dead_pid()}.abc123.tmp"
    live_new = fresh_cache / f"{stem}.1.def456.tmp"  # pid 1 is alive: its writer may be busy
    live_old = fresh_cache / f"{stem}.1.ghi789.tmp"
    unrelated = fresh_cache / "notes.tmp"
    for p in (dead, live_new, live_old, unrelated):
        p.write_bytes(b"x" * 100)
    two_days_ago = time.time() - 2 * 24 * 3600
    os.utime(live_old, (two_days_ago, two_days_ago))
    load_matrix(small_words)
    left = sorted(p.name for p in fresh_cache.iterdir())
    assert left == sorted([stem, cache.meta_path(cache_path(small_words)).name, live_new.name, "notes.tmp"])


def test_folder_in_the_place_of_the_table_means_memory(fresh_cache: Path, small_words) -> None:
    path = cache_path(small_words)
    path.mkdir(parents=True)
    (path / "keep.txt").write_text("someone's file")
    with pytest.warns(UserWarning) as record:
        pm = load_matrix(small_words)
    assert np.array_equal(pm.data, reference_matrix(small_words))
    assert any("cannot write the matrix cache" in str(w.message) for w in record)
    assert (path / "keep.txt").read_text() == "someone's file"
    assert not list(fresh_cache.glob("*.tmp"))


def test_read_only_cache_folder_means_memory(tmp_path: Path, monkeypatch, small_words) -> None:
    """An unwritable folder (simulated: mkstemp refused, since root writes anywhere) warns and goes on."""
    monkeypatch.setenv("RATEN_CACHE_DIR", str(tmp_path / "ro"))
    monkeypatch.setattr(matrix, "_LOADED", {})

    def refuse(*_args: object, **_kwargs: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(cache.tempfile, "mkstemp", refuse)
    with pytest.warns(UserWarning, match="cannot write the matrix cache.*continuing without it"):
        pm = load_matrix(small_words)
    assert np.array_equal(pm.data, reference_matrix(small_words))
