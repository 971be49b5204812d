"""The pattern matrix ("rainbow table"): feedback of every allowed guess against every solution.

Built by a compiled kernel (imported only to build), written to the disk cache block by block
as ``.npy`` keyed by a hash of both lists, with a digest of the whole table (engine/cache.py),
and memory-mapped: a table larger than memory (en-nyt's 14,855 × 14,855 is 220 MB) never has
to be held whole. A cache entry that is damaged in any way, or whose digest or spot checks
disagree, is rebuilt with a warning. A table is built only within the size limit of
``raten.engine.table_size`` (a RatenError before any allocation above it); a big one is reported
to ``table_size.build_progress`` as its blocks are written.
"""

from __future__ import annotations

import random
import shutil
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from raten.engine.cache import (
    FORMAT_VERSION,
    UntrustedCacheError,
    cache_dir,
    entry_path,
    read_checked,
    read_entry,
    write_blocks,
)
from raten.engine.feedback import pattern
from raten.engine.table_size import ANNOUNCE_BYTES, GB, MEMORY_FALLBACK_BYTES, build_progress, check_table_size
from raten.engine.words import WordSet, compared_letters
from raten.errors import RatenError

__all__ = [
    "FORMAT_VERSION",
    "PatternMatrix",
    "build_matrix",
    "cache_dir",
    "cache_path",
    "check_size",
    "feedback_against",
    "load_matrix",
    "matrix_blocks",
]

_SPOT_CHECKS = 256
#: Bytes of the table built and written at a time when it goes to the cache.
BLOCK_BYTES = 16 << 20


@dataclass(frozen=True, eq=False)
class PatternMatrix:
    """``data[g, s]``: feedback code of ``words.allowed[g]`` against ``words.solutions[s]``."""

    words: WordSet
    data: np.ndarray

    @property
    def shape(self) -> tuple[int, int]:
        return self.data.shape


def cache_path(words: WordSet) -> Path:
    """The cache file for this pair of lists."""
    return entry_path(words.fingerprint)


def check_size(words: WordSet) -> int:
    """The table's size in bytes; a RatenError (key ``table_too_large``) above the limit."""
    return check_table_size(words.name, len(words.allowed), len(words.solutions), np.dtype(words.code_dtype).itemsize)


def build_matrix(words: WordSet) -> np.ndarray:
    """Compute the full allowed × solutions table (uint8, uint16 above five letters) in memory
    (within the size limit)."""
    from raten.engine import kernels  # numba: a warm cache needs no build, so loading pays no compiler

    check_size(words)
    return kernels.feedback_matrix(words.allowed_letters, words.solution_letters)


def matrix_blocks(words: WordSet, block_bytes: int = BLOCK_BYTES) -> Iterator[np.ndarray]:
    """The table as consecutive blocks of rows (guesses), each about ``block_bytes`` large."""
    from raten.engine import kernels

    guesses, answers = words.allowed_letters, words.solution_letters
    rows = max(1, block_bytes // max(1, len(answers) * np.dtype(words.code_dtype).itemsize))
    for start in range(0, len(guesses), rows):
        yield kernels.feedback_matrix(guesses[start : start + rows], answers)


def feedback_against(guess: str, answers: tuple[str, ...] | list[str]) -> np.ndarray:
    """Feedback codes of one (possibly unlisted) guess against many answers of its length (any
    letters: feedback only compares them, so they are coded by the letters these words hold)."""
    from raten.engine import kernels  # numba: only an unlisted guess needs it

    guesses, coded = compared_letters([guess], answers)
    return kernels.feedback_matrix(guesses, coded)[0]


def _looks_right(data: np.ndarray, words: WordSet) -> bool:
    """Shape, dtype and a deterministic sample of entries agree with the reference rule."""
    expected = (len(words.allowed), len(words.solutions))
    if data.dtype != words.code_dtype or data.shape != expected:
        return False
    rng = random.Random(words.fingerprint)
    n, m = expected
    probes = [(n - 1, m - 1), (0, 0)] + [(rng.randrange(n), rng.randrange(m)) for _ in range(_SPOT_CHECKS)]
    return all(int(data[g, s]) == pattern(words.allowed[g], words.solutions[s]) for g, s in probes)


def _read_cache(path: Path, words: WordSet) -> np.ndarray | None:
    """The cached table if it is whole, matches its digest and passes the spot checks; else None.

    A missing entry is silent (a first run); anything else warns, and the caller rebuilds.
    """
    shape = (len(words.allowed), len(words.solutions))
    return read_checked(path, shape, words.fingerprint, lambda d: _looks_right(d, words), words.code_dtype)


def _reported(words: WordSet, blocks: Iterator[np.ndarray]) -> Iterator[np.ndarray]:
    """The blocks, telling ``build_progress`` (when set, for a big table) the rows written so far."""
    progress = build_progress.get()
    guesses, solutions = len(words.allowed), len(words.solutions)
    if progress is None or guesses * solutions < ANNOUNCE_BYTES:
        yield from blocks
        return
    done = 0
    progress(words.name, guesses, solutions, done)
    for block in blocks:
        yield block
        done += len(block)
        progress(words.name, guesses, solutions, done)


def _build_cached(path: Path, words: WordSet) -> np.ndarray:
    """Build the table block by block into the cache and map it; in memory when that fails (with a
    warning), unless it is above MEMORY_FALLBACK_BYTES: such a table is refused instead (a RatenError),
    before any block when the cache's disk has not the room, since in memory it could exhaust the machine."""
    names = {"name": words.name, "language": words.language}
    shape = (len(words.allowed), len(words.solutions))
    size = check_size(words)  # before the first block
    big = size > MEMORY_FALLBACK_BYTES
    try:
        if big:
            _check_room(path.parent, size, words.name)
        write_blocks(path, shape, _reported(words, matrix_blocks(words)), words.fingerprint, names, words.code_dtype)
        return read_entry(path, shape, words.fingerprint, words.code_dtype)
    except OSError as e:
        if big:
            raise RatenError(
                f"cannot write the feedback table of {words.name} ({size / GB:.2f} GB) to the cache {path.parent} "
                f"({e.strerror or e}), and it is too big to build in memory instead: point RATEN_CACHE_DIR "
                "at a folder that can hold it",
                "cache_unwritable",
                list=words.name,
                gb=round(size / GB, 2),
            ) from None
        warnings.warn(f"cannot write the matrix cache {path} ({e.strerror or e}); continuing without it", stacklevel=3)
    except UntrustedCacheError as e:  # changed on disk between write and read: do not trust it
        warnings.warn(f"cache file {path} changed while it was written ({e}); continuing without it", stacklevel=3)
    return build_matrix(words)


def _check_room(directory: Path, size: int, name: str) -> None:
    """RatenError when the disk of ``directory`` (made if missing) has less than ``size`` bytes free."""
    directory.mkdir(parents=True, exist_ok=True)
    free = shutil.disk_usage(directory).free
    if free < size:
        raise RatenError(
            f"the feedback table of {name} needs {size / GB:.2f} GB in the cache {directory}, which has "
            f"{free / GB:.2f} GB free: free some space or point RATEN_CACHE_DIR at a disk with room",
            "cache_full",
            list=name,
            gb=round(size / GB, 2),
            free_gb=round(free / GB, 2),
        )


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
        _LOADED[key] = _build_cached(path, words) if data is None else data
    return PatternMatrix(words, _LOADED[key])
