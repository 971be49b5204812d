"""The pattern matrix: built by the kernel, equal to the reference, cached, and repaired when the cache is bad."""

from __future__ import annotations

import os
import random
from pathlib import Path

import numpy as np
import pytest

from raten.engine import matrix
from raten.engine.matrix import build_matrix, cache_dir, cache_path, feedback_against, load_matrix
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
