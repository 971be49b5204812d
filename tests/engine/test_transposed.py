"""The transposed pattern table: equal to the reference rule, cached with a digest, and rebuilt
(never used) when the cache entry is damaged."""

from __future__ import annotations

import json
import random
import warnings
from pathlib import Path

import numpy as np
import pytest

from raten.engine import cache, matrix, transposed
from raten.engine.transposed import load_transposed, transpose, transposed_path
from raten.engine.words import WordSet
from reference import ref_code


@pytest.fixture(scope="module")
def small_words(en_words) -> WordSet:
    rng = random.Random(11)
    return WordSet.from_lists(rng.sample(en_words.solutions, 50), rng.sample(en_words.allowed, 130), name="small")


@pytest.fixture
def fresh_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache directory and no tables remembered in this process."""
    monkeypatch.setenv("RATEN_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(matrix, "_LOADED", {})
    monkeypatch.setattr(transposed, "_LOADED", {})
    return tmp_path / "cache"


def _reference(words: WordSet) -> np.ndarray:
    """solutions x guesses by the reference feedback rule."""
    return np.array([[ref_code(g, s) for g in words.allowed] for s in words.solutions], dtype=np.uint8)


@pytest.mark.parametrize("shape", [(1, 1), (7, 3), (64, 5), (65, 9), (200, 130)])
def test_blocked_transpose_is_the_transpose(shape) -> None:
    data = np.random.default_rng(1).integers(0, 243, size=shape, dtype=np.uint8)
    out = transpose(data)
    assert out.flags.c_contiguous and np.array_equal(out, data.T)


@pytest.mark.usefixtures("fresh_cache")
def test_cached_then_read_back_equal_to_the_rule(small_words, monkeypatch) -> None:
    first = load_transposed(small_words)
    assert np.array_equal(first, _reference(small_words)) and first.flags.writeable
    path = transposed_path(small_words)
    assert path.exists() and json.loads(cache.meta_path(path).read_text())["name"] == "small"
    assert load_transposed(small_words) is first  # remembered in this process
    monkeypatch.setattr(transposed, "_LOADED", {})
    monkeypatch.setattr(transposed, "transpose", lambda _d: pytest.fail("rebuilt a sound cache entry"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert np.array_equal(load_transposed(small_words), _reference(small_words))
    # `raten cache verify` checks it like any matrix entry
    assert {e.file: e.state for e in cache.entries()}[path.name] == "ok"


DAMAGE = {
    "one byte": lambda p: p.write_bytes(p.read_bytes()[:-1] + bytes([p.read_bytes()[-1] ^ 1])),
    "truncated": lambda p: p.write_bytes(p.read_bytes()[:-10]),
    "digest": lambda p: cache.meta_path(p).write_text("{}"),
}


@pytest.mark.parametrize("kind", DAMAGE)
@pytest.mark.usefixtures("fresh_cache")
@pytest.mark.slow
def test_a_damaged_entry_is_rebuilt_with_a_warning(kind, small_words, monkeypatch) -> None:
    load_transposed(small_words)
    DAMAGE[kind](transposed_path(small_words))
    monkeypatch.setattr(transposed, "_LOADED", {})
    with pytest.warns(UserWarning, match="rebuilding"):
        assert np.array_equal(load_transposed(small_words), _reference(small_words))
    monkeypatch.setattr(transposed, "_LOADED", {})
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the rebuilt entry is sound again
        assert np.array_equal(load_transposed(small_words), _reference(small_words))


@pytest.mark.usefixtures("fresh_cache")
def test_a_consistent_entry_with_wrong_contents_is_caught_by_the_spot_checks(small_words) -> None:
    """A table with a valid digest but other contents (another table written in its place)."""
    wrong = (_reference(small_words) + 1) % 243
    cache.write_entry(transposed_path(small_words), wrong, transposed.transposed_fingerprint(small_words), {})
    with pytest.warns(UserWarning, match="does not match"):
        assert np.array_equal(load_transposed(small_words), _reference(small_words))


def test_searcher_uses_it(en_words) -> None:
    from raten.trees.search import Searcher

    s = Searcher(en_words, max_guesses=6)
    assert s.tables[0] is load_transposed(en_words)
    assert np.array_equal(s.tables[0][:, :50], np.asarray(s.data[:50]).T)
