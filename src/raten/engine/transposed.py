"""The pattern matrix transposed (solutions × guesses), as the exact tree search reads it.

The search scans every guess against a few candidates, so it wants a candidate's row of
guesses contiguous. Transposing the 30 MB English table costs numpy 0.2–0.3 s per process;
the transposed copy is cached beside the matrix the same way (engine/cache.py: ``.npy`` plus
digest, spot checks against the feedback rule), named by a fingerprint derived from the
lists', so ``raten cache info/verify/clear`` look after it too. A damaged or missing entry is
rebuilt from the matrix by a blocked transpose (a warning when it was damaged), never used.
"""

from __future__ import annotations

import hashlib
import random
import warnings
from pathlib import Path

import numpy as np

from raten.engine.cache import cache_dir, entry_path, read_checked, write_entry
from raten.engine.feedback import pattern
from raten.engine.matrix import load_matrix
from raten.engine.words import WordSet

_SPOT_CHECKS = 256
#: Rows of the matrix transposed at a time: a block that stays in the cache (numpy's own
#: transpose of the whole table walks it column by column).
_BLOCK = 64


def transposed_fingerprint(words: WordSet) -> str:
    """The cache key of the transposed table: derived from the lists' fingerprint."""
    return hashlib.sha256(f"transposed|{words.fingerprint}".encode()).hexdigest()[:24]


def transposed_path(words: WordSet) -> Path:
    """The cache file of the transposed table for this pair of lists."""
    return entry_path(transposed_fingerprint(words))


def transpose(data: np.ndarray) -> np.ndarray:
    """A C-order copy of ``data.T``, block by block (about five times numpy's whole-array copy)."""
    rows, cols = data.shape
    out = np.empty((cols, rows), dtype=data.dtype)
    for start in range(0, rows, _BLOCK):
        out[:, start : start + _BLOCK] = data[start : start + _BLOCK].T
    return out


def _looks_right(data: np.ndarray, words: WordSet) -> bool:
    """Shape, dtype and a deterministic sample of entries agree with the feedback rule."""
    n, m = len(words.allowed), len(words.solutions)
    if data.dtype != words.code_dtype or data.shape != (m, n):
        return False
    rng = random.Random(f"transposed|{words.fingerprint}")
    probes = [(m - 1, n - 1), (0, 0)] + [(rng.randrange(m), rng.randrange(n)) for _ in range(_SPOT_CHECKS)]
    return all(int(data[s, g]) == pattern(words.allowed[g], words.solutions[s]) for s, g in probes)


def _read(path: Path, words: WordSet) -> np.ndarray | None:
    shape = (len(words.solutions), len(words.allowed))
    # copy-on-write: a writable array as the kernels take everywhere, its pages the file's (shared
    # by every process that maps it, as a search's worker processes do)
    return read_checked(
        path, shape, transposed_fingerprint(words), lambda d: _looks_right(d, words), words.code_dtype, private=True
    )


_LOADED: dict[str, np.ndarray] = {}


def load_transposed(words: WordSet) -> np.ndarray:
    """``load_matrix(words).data.T`` as a writable C-order array: mapped from the cache when it
    is sound, else transposed (and cached; in memory only when the cache cannot be written).
    Loaded once per process and list pair."""
    key = f"{cache_dir()}:{words.fingerprint}"
    if key not in _LOADED:
        path = transposed_path(words)
        data = _read(path, words)
        if data is None:
            data = transpose(np.asarray(load_matrix(words).data))
            try:
                write_entry(path, data, transposed_fingerprint(words), {"name": words.name, "language": words.language})
            except OSError as e:
                warnings.warn(f"cannot write the cache {path} ({e.strerror or e}); continuing without it", stacklevel=2)
        _LOADED[key] = np.asarray(data)  # the mapping as a plain array (numba types it as any other)
    return _LOADED[key]
