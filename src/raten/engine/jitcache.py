"""numba's on-disk cache in a folder named by a digest of every kernel source, so none is stale.

numba keys a cached function by its own file's time stamp and its own bytecode only. A compiled
caller carries the machine code of every ``@njit`` function it calls, so when a callee in
another file changes (``raten.trees.kernels`` calls ``raten.engine.hardmode``'s rule, the
look-ahead calls it too), the caller's cache still loads with the old callee inside: wrong
answers, or a crash when the callee's arrays changed shape. Here the cache folder is
``<user cache>/raten/numba/kernels-<digest>``, the digest taken over all of
:data:`KERNEL_SOURCES`: a change to any kernel file starts a fresh folder.

Every module that compiles imports ``njit`` and ``prange`` from here, so the folder is chosen
before the first ``@njit`` runs (numba picks a function's cache folder at decoration). It is
also put in ``NUMBA_CACHE_DIR``, which numba re-reads, and which subprocesses inherit.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

#: The package's files with ``@njit`` functions and the raten modules they import, relative to
#: the ``raten`` folder (a test checks that the list is complete).
KERNEL_SOURCES = (
    "engine/hardmode.py",
    "engine/kernels.py",
    "engine/lookahead.py",
    "trees/kernels.py",
    "trees/memo.py",
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
    ``<user cache>/raten/numba``."""
    own = os.environ.get("NUMBA_CACHE_DIR")
    if own:
        path = Path(own)
        return path.parent if path.name.startswith(PREFIX) else path
    import platformdirs

    return Path(platformdirs.user_cache_dir("raten")) / "numba"


def cache_folder(package: Path = PACKAGE) -> Path:
    """The folder for this package's kernels as they are now."""
    return _base() / f"{PREFIX}{kernel_digest(package)}"


def configure() -> Path:
    """Point numba's cache at :func:`cache_folder` (the environment and, when numba is loaded,
    its config), and return it."""
    import sys

    folder = cache_folder()
    os.environ["NUMBA_CACHE_DIR"] = str(folder)
    config = getattr(sys.modules.get("numba"), "config", None)
    if config is not None:
        config.CACHE_DIR = str(folder)
    return folder


configure()

from numba import njit, prange  # noqa: E402 - after configure(): the folder is set before any @njit

__all__ = ["KERNEL_SOURCES", "cache_folder", "configure", "kernel_digest", "njit", "prange"]
