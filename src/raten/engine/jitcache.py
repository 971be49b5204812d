"""numba's on-disk cache in a folder named by a digest of every kernel source, so none is stale.

numba keys a cached function by its own file's time stamp and its own bytecode only. A compiled
caller carries the machine code of every ``@njit`` function it calls, so when a callee in
another file changes (``raten.trees.kernels`` calls ``raten.engine.hardmode``'s rule, the
look-ahead calls it too), the caller's cache still loads with the old callee inside: wrong
answers, or a crash when the callee's arrays changed shape. Here the cache folder is
``raten/__pycache__/numba/kernels-<digest>``, the digest taken over all of
:data:`KERNEL_SOURCES`: a change to any kernel file starts a fresh folder.

Every module that compiles imports ``njit`` and ``prange`` from here, so the folder is chosen
before the first ``@njit`` runs (numba picks a function's cache folder at decoration). It is
also put in ``NUMBA_CACHE_DIR``, which numba re-reads, and which subprocesses inherit. And
numba's reads and writes of a cache entry are locked, one process at a time (see
:func:`lock_cache_files`). When numba is about to compile one of raten's kernels (nothing in the
cache for it: a fresh install, an update, a new type of argument), the process says so on stderr
once, since compiling them all takes a minute or two (:class:`CompileNotice`).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

#: The package's files with ``@njit`` functions and the raten modules they import, relative to
#: the ``raten`` folder (a test checks that the list is complete).
KERNEL_SOURCES = (
    "engine/hardmode.py",
    "engine/kernels.py",
    "engine/lookahead.py",
    "trees/kernels.py",
    "trees/memo.py",
    "trees/scan.py",
    "trees/feasible.py",
    # what they import from raten: constants and tables a compiled function freezes in
    "engine/feedback.py",
    "engine/partition.py",
    "errors.py",
)
#: What the folder's name starts with; the digest follows.
PREFIX = "kernels-"
PACKAGE = Path(__file__).resolve().parents[1]


def kernel_digest(package: Path = PACKAGE, sources: tuple[str, ...] = KERNEL_SOURCES) -> str:
    """Sixteen hex digits of SHA-256 over the kernel sources' names and bytes."""
    h = hashlib.sha256()
    for name in sources:
        path = package / name
        h.update(name.encode() + b"\0")
        h.update(path.read_bytes() if path.exists() else b"(missing)")
        h.update(b"\0")
    return h.hexdigest()[:16]


def _base() -> Path:
    """The user's own ``NUMBA_CACHE_DIR`` when set (its kernels folder then goes inside), else
    ``__pycache__/numba`` in the package, where numba kept it before: a fresh checkout starts
    with none (a warm cache of ``trees.kernels.solve`` crashes a test, see docs/design.md)."""
    own = os.environ.get("NUMBA_CACHE_DIR")
    if own:
        path = Path(own)
        return path.parent if path.name.startswith(PREFIX) else path
    return PACKAGE / "__pycache__" / "numba"


def cache_folder(package: Path = PACKAGE) -> Path:
    """The folder for this package's kernels as they are now."""
    return _base() / f"{PREFIX}{kernel_digest(package)}"


def configure() -> Path:
    """Point numba's cache at :func:`cache_folder` (the environment and, when numba is loaded,
    its config), and return it."""
    folder = cache_folder()
    os.environ["NUMBA_CACHE_DIR"] = str(folder)
    config = getattr(sys.modules.get("numba"), "config", None)
    if config is not None:
        config.CACHE_DIR = str(folder)
    return folder


@contextlib.contextmanager
def _locked(index_path: str, exclusive: bool) -> Iterator[None]:
    """An advisory lock beside a cache index (POSIX ``flock``; nothing where there is none)."""
    try:
        import fcntl
    except ImportError:  # Windows: numba's own behaviour
        yield
        return
    try:
        handle = open(index_path + ".lock", "ab")  # noqa: SIM115 - held for the block below
    except OSError:  # a folder this process cannot write: numba's own behaviour
        yield
        return
    with handle:
        fcntl.flock(handle, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        yield


def lock_cache_files() -> None:
    """Make numba's saves and loads of one function's cache one at a time across processes.

    numba writes a new entry as the index first, then the data file, with numbers restarting
    at 1 when the index is stale. Two processes compiling one function at once (test workers,
    ``raten tree --jobs``) could then pair a signature with another's machine code, or read an
    old data file under a new index entry: a crash in whatever calls it later.
    """
    from numba.core import caching

    cls = caching.IndexDataCacheFile
    if getattr(cls, "_raten_locked", False):
        return
    save, load = cls.save, cls.load

    def locked_save(self: Any, key: Any, data: Any) -> None:
        with _locked(self._index_path, exclusive=True):
            save(self, key, data)

    def locked_load(self: Any, key: Any) -> Any:
        with _locked(self._index_path, exclusive=False):
            return load(self, key)

    cls.save, cls.load = locked_save, locked_load  # type: ignore[method-assign]
    cls._raten_locked = True  # type: ignore[attr-defined]


configure()

from numba import njit, prange  # noqa: E402 - after configure(): the folder is set before any @njit
from numba.core import event as numba_event  # noqa: E402

#: What the process says on stderr before its first compile of a raten kernel.
COMPILE_NOTICE = (
    "raten: compiling numba kernels for this machine, which may take a minute or two (once after an install or "
    "update; `raten cache warm` compiles them ahead)"
)


class CompileNotice(numba_event.Listener):
    """A numba event listener that writes :data:`COMPILE_NOTICE` once, when a raten kernel's
    compile starts (numba fires ``numba:compile`` only on a cache miss, never for a load)."""

    def __init__(self) -> None:
        self.said = False
        self._here = threading.local()

    @contextlib.contextmanager
    def silenced(self) -> Iterator[None]:
        """No notice for what this thread compiles inside the block (a background load that no
        one waits for: ``raten.engine.rank``'s kernel loader)."""
        self._here.silent = True
        try:
            yield
        finally:
            self._here.silent = False

    def on_start(self, event: Any) -> None:
        dispatcher = (event.data or {}).get("dispatcher")
        module = getattr(getattr(dispatcher, "py_func", None), "__module__", "") or ""
        if self.said or getattr(self._here, "silent", False) or not module.startswith("raten."):
            return
        self.said = True
        # the process's own stderr: the notice is about this process, not a command's output
        # (click's test runner swaps sys.stderr to catch what a command prints)
        stream = sys.__stderr__ or sys.stderr
        with contextlib.suppress(OSError, ValueError):
            print(COMPILE_NOTICE, file=stream, flush=True)

    def on_end(self, event: Any) -> None:
        """Nothing: the notice is said before the compile."""


#: The one listener, registered at import (the notice is said once per process).
NOTICE = CompileNotice()
numba_event.register("numba:compile", NOTICE)

lock_cache_files()

__all__ = [
    "COMPILE_NOTICE",
    "KERNEL_SOURCES",
    "NOTICE",
    "cache_folder",
    "configure",
    "kernel_digest",
    "lock_cache_files",
    "njit",
    "prange",
]
