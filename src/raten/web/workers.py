"""Ranking in a separate, lower-priority process, so the server's event loop and game moves
keep the CPU and the interpreter lock while uncached states are ranked.

The compiled kernels hold the interpreter lock and use every core; ranked in a thread of
the server they slow every other request down. A worker process loads the same presets
(their matrices are memory-mapped, so shared) and returns a ``Ranked`` to be cached here.
"""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import Executor, ProcessPoolExecutor

from raten.web import boards
from raten.web.service import HintQuery, Lists, Ranked

_lists: Lists | None = None


def _start(names: list[str], nice: int, threads: int) -> None:
    """Initialise one worker process: lower its priority, then load and warm the lists."""
    global _lists
    import numba

    numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))  # type: ignore[attr-defined]
    os.nice(nice)
    _lists = Lists.load(names)


def rank(query: HintQuery) -> Ranked:
    """Rank one query in the worker process (``Lists.rank``)."""
    assert _lists is not None, "the worker process was not started by process_pool"
    return _lists.rank(query)


def rank_boards(query: boards.BoardsQuery) -> bytes:
    """Answer one many-board query in the worker process (``raten.web.boards.answer_for``)."""
    assert _lists is not None, "the worker process was not started by process_pool"
    return boards.answer_for(_lists, query)


def ready() -> bool:
    """Whether this worker process has its lists loaded (run once per worker at start)."""
    return _lists is not None


def process_pool(names: list[str], workers: int = 1, nice: int = 10, threads: int = 1) -> Executor:
    """Worker processes (spawned, not forked: the server runs threads) serving ``rank``."""
    return ProcessPoolExecutor(
        workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_start,
        initargs=(names, nice, threads),
    )
