"""The tables a served list may need besides its own prior's (the frequency prior's allowed x
allowed table), loaded once each in the background from start-up on, never in a request.

``Warmup`` works through every (list, other prior) pair in one background thread, one pair at a
time. With worker processes, the heavy part (building a table that is not in the matrix cache,
ranking the empty state's openers) runs in a spawned process of lower priority, which holds
neither the server's interpreter lock nor its share of the CPU; the server then maps the cached
table. Until a pair is ready, requests that need it are refused with 503 ``warming_up`` and
``Retry-After`` (``Warmup.state``): every request waits for the same one load, none loads a table.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import queue
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Protocol

from raten.engine.state import State
from raten.web.limits import Refused, end_pool
from raten.wordlists.prior import PRIORS, UNIFORM, frequency_fits


class Entry(Protocol):
    """What the warm-up needs of a served list (``raten.web.service.ListEntry``)."""

    @property
    def name(self) -> str: ...

    @property
    def spec(self) -> str: ...

    @property
    def words(self) -> Any: ...

    @property
    def prior(self) -> str: ...

    def ready_state(self, prior: str) -> State | None: ...

    def start_state(self, prior: str) -> State: ...


class Served(Protocol):
    """What the warm-up needs of the served lists (``raten.web.service.Lists``)."""

    @property
    def entries(self) -> dict[str, Any]: ...

    def get(self, name: str) -> Any: ...

    def keep_start(self, name: str, prior: str, ranked: Any) -> None: ...


#: Ranks a list's empty state under a prior, in the warm-up process: (spec, name, prior) -> Ranked.
Prepare = Callable[[str, str, str], Any]

#: Seconds a client is told to wait before asking again while a table loads.
RETRY_AFTER = 2.0

log = logging.getLogger("uvicorn.error")  # the server's own log: uvicorn prints it with its lines


def warming_up(name: str, prior: str) -> Refused:
    """503: the list's table under ``prior`` is being loaded; ask again after ``Retry-After``."""
    return Refused(
        503,
        "warming_up",
        f"the server is still loading list {name} under the {prior} prior; try again in a few seconds",
        RETRY_AFTER,
        list=name,
        prior=prior,
    )


def _lower_priority(nice: int) -> None:
    """Initialise the warm-up process: lower its priority and use one compiled thread."""
    import numba

    os.nice(nice)
    numba.set_num_threads(1)


class Warmup:
    """Loads ``lists``' other priors in the background, once per pair (see the module's notes)."""

    def __init__(self, lists: Served, prepare: Prepare) -> None:
        """``prepare``: what the warm-up process runs per pair (``raten.web.service.rank_start``:
        builds the table into the matrix cache and ranks the empty state)."""
        self.lists = lists
        self.prepare = prepare
        #: the pairs to load of the running warm-up (a new queue for each start: a stopped run's
        #: thread, still in a load, can tell by it that it is no longer the running one)
        self._todo: queue.Queue[tuple[str, str] | None] = queue.Queue()
        self._asked: set[tuple[str, str]] = set()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._processes = False
        self._pool: ProcessPoolExecutor | None = None
        self._stopped = False

    def pairs(self) -> list[tuple[str, str]]:
        """Every (list, prior) a request may name besides the lists' own priors (the weighted
        priors where they are fitted: not on lists of other lengths or letters)."""
        return [
            (n, p)
            for n, e in self.lists.entries.items()
            for p in PRIORS
            if p != e.prior and (p == UNIFORM or frequency_fits(e.words))
        ]

    def start(self, processes: bool = False) -> None:
        """Begin loading every pair in the background (once; later calls change nothing until a
        ``stop``, after which it begins again: a test enters one app more than once);
        ``processes``: build and rank in a lower-priority process (lists loaded by name only)."""
        with self._lock:
            if self._thread is not None:
                return
            self._stopped = False
            self._processes = processes
            self._thread = threading.Thread(target=self._run, args=(self._todo,), name="raten-warmup", daemon=True)
            self._thread.start()
        for name, prior in self.pairs():
            self._ask(name, prior)

    def state(self, entry: Entry, prior: str) -> State:
        """The list's empty state under ``prior`` if loaded, else ``warming_up`` (503), after asking
        for it (at most once: concurrent and later requests wait for the same load)."""
        ready = entry.ready_state(prior)
        if ready is not None:
            return ready
        if not self._stopped:  # a request that comes in while the server stops starts nothing
            self.start(self._processes)
        self._ask(entry.name, prior)
        raise warming_up(entry.name, prior)

    def wait(self, name: str, prior: str, timeout: float = 600.0) -> State:
        """Block until the pair is loaded (tests, tools); asks for it first."""
        entry = self.lists.get(name)
        deadline = time.monotonic() + timeout
        while True:
            try:
                return self.state(entry, prior)
            except Refused:
                if time.monotonic() > deadline:
                    raise TimeoutError(f"list {name} under the {prior} prior did not load in {timeout} s") from None
                time.sleep(0.05)

    def wait_all(self, timeout: float = 600.0) -> None:
        """Block until every pair is loaded (tests that send any request)."""
        for name, prior in self.pairs():
            self.wait(name, prior, timeout)

    def stop(self) -> None:
        """At shutdown: the warm-up process ends now and the thread after its load; nothing it
        had still to load stays asked (a later ``start`` asks again)."""
        with self._lock:
            self._stopped = True
            todo, self._todo = self._todo, queue.Queue()
            pool, self._pool = self._pool, None
            self._thread = None
            self._asked.clear()
        todo.put(None)  # wakes the thread if it waits: it ends
        if pool is not None:
            end_pool(pool)

    def _ask(self, name: str, prior: str) -> None:
        with self._lock:
            if (name, prior) in self._asked:
                return
            self._asked.add((name, prior))
            todo = self._todo
        todo.put((name, prior))

    def _run(self, todo: queue.Queue[tuple[str, str] | None]) -> None:
        """The thread of one start: loads what ``todo`` asks until the stop ends it."""
        while (pair := todo.get()) is not None and todo is self._todo:  # else this run was stopped
            name, prior = pair
            started = time.perf_counter()
            try:
                self._load(name, prior, todo)
            except Exception as e:  # a list file gone, no memory: said once; the next request asks again
                if todo is not self._todo:  # the stop ended the warm-up process under this load
                    return
                log.warning("could not load list %s under the %s prior: %s", name, prior, e)
                with self._lock:
                    self._asked.discard((name, prior))
                continue
            log.info("list %s under the %s prior is ready (%.1f s)", name, prior, time.perf_counter() - started)
            if todo.empty():  # all loaded: the warm-up process gives its memory back
                with self._lock:
                    pool = None
                    if todo is self._todo:  # else the stop took it
                        pool, self._pool = self._pool, None
                if pool is not None:
                    end_pool(pool)

    def _load(self, name: str, prior: str, todo: queue.Queue[tuple[str, str] | None]) -> None:
        entry = self.lists.get(name)
        if entry.ready_state(prior) is not None:  # loaded before a stop and a new start
            return
        if self._processes and entry.spec:
            with self._lock:
                if todo is not self._todo:  # a load the stop cut off: no process may outlive the server
                    raise RuntimeError("the server is stopping")
                if self._pool is None:
                    self._pool = ProcessPoolExecutor(
                        1,
                        mp_context=multiprocessing.get_context("spawn"),
                        initializer=_lower_priority,
                        initargs=(10,),
                    )
                pool = self._pool
            ranked = pool.submit(self.prepare, entry.spec, name, prior).result()
            entry.start_state(prior)  # maps the table the process left in the cache
            self.lists.keep_start(name, prior, ranked)
        else:
            entry.start_state(prior)
