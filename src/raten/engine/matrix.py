"""The pattern matrix ("rainbow table"): feedback of every allowed guess against every solution.

Built by a compiled kernel, cached on disk as ``.npy`` keyed by a hash of both lists,
memory-mapped on load; a cache file that is truncated or does not match is rebuilt.
"""

from __future__ import annotations

import os
import random
import tempfile
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from raten.engine import kernels
from raten.engine.feedback import pattern
from raten.engine.words import WordSet, letters

#: Bump when the kernel or the file layout changes, so old caches are never trusted.
FORMAT_VERSION = 1
_SPOT_CHECKS = 256


@dataclass(frozen=True, eq=False)
class PatternMatrix:
    """``data[g, s]``: feedback code of ``words.allowed[g]`` against ``words.solutions[s]``."""

    words: WordSet
    data: np.ndarray

    @property
    def shape(self) -> tuple[int, int]:
        return self.data.shape


def cache_dir() -> Path:
    """Where matrices are cached: ``$RATEN_CACHE_DIR`` or the user cache directory."""
    env = os.environ.get("RATEN_CACHE_DIR")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_cache_dir("raten"))


def cache_path(words: WordSet) -> Path:
    """The cache file for this pair of lists."""
    return cache_dir() / f"matrix-v{FORMAT_VERSION}-{words.fingerprint}.npy"


def build_matrix(words: WordSet) -> np.ndarray:
    """Compute the full allowed × solutions table (uint8)."""
    return kernels.feedback_matrix(words.allowed_letters, words.solution_letters)


def feedback_against(guess: str, answers: tuple[str, ...] | list[str]) -> np.ndarray:
    """Feedback codes of one (possibly unlisted) guess against many answers."""
    return kernels.feedback_matrix(letters([guess]), letters(answers))[0]


def _looks_right(data: np.ndarray, words: WordSet) -> bool:
    """Shape, dtype and a deterministic sample of entries agree with the reference rule."""
    expected = (len(words.allowed), len(words.solutions))
    if data.dtype != np.uint8 or data.shape != expected:
        return False
    rng = random.Random(words.fingerprint)
    n, m = expected
    probes = [(n - 1, m - 1), (0, 0)] + [(rng.randrange(n), rng.randrange(m)) for _ in range(_SPOT_CHECKS)]
    return all(int(data[g, s]) == pattern(words.allowed[g], words.solutions[s]) for g, s in probes)


def _read_cache(path: Path, words: WordSet) -> np.ndarray | None:
    try:
        data = np.load(path, mmap_mode="r", allow_pickle=False)
    except (FileNotFoundError, NotADirectoryError):
        return None  # no cache yet (or the cache directory cannot exist)
    except (ValueError, OSError, EOFError) as e:
        warnings.warn(f"cache file {path} is unreadable ({e}); rebuilding it", stacklevel=3)
        return None
    if not _looks_right(data, words):
        warnings.warn(f"cache file {path} does not match the word lists; rebuilding it", stacklevel=3)
        return None
    return data


def _write_cache(path: Path, data: np.ndarray) -> None:
    """Write atomically (temporary file, then rename) so a crash never leaves half a file."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.stem, suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            np.save(f, data, allow_pickle=False)
        os.replace(tmp, path)
    except OSError as e:
        warnings.warn(f"cannot write the matrix cache {path} ({e.strerror}); continuing without it", stacklevel=3)


_LOADED: dict[str, np.ndarray] = {}


def load_matrix(words: WordSet, use_cache: bool = True) -> PatternMatrix:
    """The matrix for ``words``: from the cache when it is sound, else built (and cached).

    Loaded once per process and list pair.
    """
    if not use_cache:
        return PatternMatrix(words, build_matrix(words))
    key = f"{cache_dir()}:{words.fingerprint}"
    if key not in _LOADED:
        path = cache_path(words)
        data = _read_cache(path, words)
        if data is None:
            data = build_matrix(words)
            _write_cache(path, data)
        _LOADED[key] = data
    return PatternMatrix(words, _LOADED[key])
