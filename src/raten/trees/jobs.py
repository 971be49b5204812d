"""Many openers, many machines: every allowed opener is one job of the exact search.

Jobs run in this process (``jobs=1``), on a local process pool, or on a Dask distributed
cluster (``scheduler``), and the run ends in a ``raten.trees.report.BestReport``. Each finished
opener is appended at once to a results file (``raten.trees.results_file``), so a stopped run
resumes where it stopped, after re-checking every line it reuses (``raten.trees.recheck``: the
one-level bounds that needs are the workers' first jobs). Openers are tried best-first: the
opener with the lowest lower bound is worked on next. An opener's first bound is the cheap
3n - k; its first job raises it to the one-level bound (every group at its best split,
``Searcher.opener_level_bound``), which refutes most openers outright; an opener whose raised
bound is still below the cut-off goes back in the queue (and into the results file as a
``bound`` record, so a resumed run does not raise it again) and, when it is the lowest again,
is searched exactly. Each job gets the current cut-off (the ``top``-th best exact total so far,
plus one), so most openers stop early with a proven lower bound. A known bound
(``start_cutoff``, e.g. a published top-th total plus one) caps it from the start, so the first
openers are not searched without one. Known best openers (``first``, e.g. the committed
table's best rows) are searched before any other job, below ``first_beta`` (the table's top-th
total plus one): their exact totals make the cut-off, so refutation begins at once. The
table only orders the work: a first opener that comes out above ``first_beta`` goes back in
the queue at its proven bound, and the cut-off is only ever made of totals proven in this run.
``progress`` hears a ``BestProgress`` as jobs finish: openers settled, the cut-off and an
estimate of the time left.

The workers share one memo (``raten.trees.memo_file``): a table of ``memo_gb`` gigabytes in
shared memory, saved beside the results file every few minutes and at the end, and loaded
again by a resumed run (``memo_gb=0``: one private memo of 2**``memo_bits`` slots per process).
"""

from __future__ import annotations

import heapq
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path

from raten.engine.words import WordSet
from raten.errors import RatenError
from raten.extras import require
from raten.trees.memo_file import (
    DEFAULT_MEMO_GB,
    MemoHandle,
    SharedMemo,
    attach,
    check_memo_gb,
    memo_fingerprint,
    slots_for,
)
from raten.trees.model import tree_weights
from raten.trees.recheck import recheck
from raten.trees.report import BestReport
from raten.trees.results_file import ResultLines, ResultsFile, memo_path, read_lines, results_header
from raten.trees.search import INF, OpenerResult, Searcher

#: Seconds between saves of the shared memo during a run (it is saved at the end too).
MEMO_SAVE_SECONDS = 600.0
#: Seconds between reports to ``progress`` (each walks the queue of up to 13,000 openers: at
#: twice a second, a quarter of the main process's CPU time in a run on a loaded machine).
PROGRESS_SECONDS = 2.0

#: (words, hard, max_guesses, memo_bits, shared memo or None): all a worker needs to build its searcher.
Spec = tuple[WordSet, bool, "int | None", int, "MemoHandle | None"]

_SEARCHERS: dict[tuple, Searcher] = {}
_LOCK = threading.Lock()  # a Dask worker may run jobs in threads: one search at a time per memo


#: Specs installed in a pool worker when it starts, by key (``_Pool.prepare``).
_SPECS: dict[str, Spec] = {}


@dataclass(frozen=True)
class SpecRef:
    """A spec by its key, installed in each pool worker once: sent with every job instead of the
    word lists, whose pickle (115 KB for en) cost a run of 14,000 jobs 20 CPU seconds."""

    key: str


def _install(key: str, spec: Spec) -> None:
    _SPECS[key] = spec


def _searcher(spec: Spec | SpecRef) -> Searcher:
    """One searcher per process and spec, so the memo carries over from opener to opener."""
    words, hard, max_guesses, memo_bits, shared = _SPECS[spec.key] if isinstance(spec, SpecRef) else spec
    key = (words.prior_key, hard, max_guesses, memo_bits, shared)
    if key not in _SEARCHERS:
        _SEARCHERS.clear()
        memo = None
        if shared is not None:
            try:
                memo = attach(shared)
            except (OSError, ValueError):  # a Dask worker on another machine: a memo of its own
                memo = None
        _SEARCHERS[key] = Searcher(words, hard=hard, max_guesses=max_guesses, memo_bits=memo_bits, memo=memo)
    return _SEARCHERS[key]


def bound_job(spec: Spec | SpecRef, opener: str, beta: int) -> dict:
    """The opener's one-level lower bound (``Searcher.opener_level_bound``), raised no further
    than ``beta``: a record of a proven lower bound when it reaches ``beta``."""
    with _LOCK:
        s = _searcher(spec)
        start, cpu = time.perf_counter(), time.process_time()
        bound = s.opener_level_bound(opener, beta)
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    rec = OpenerResult(opener, False, bound, seconds=seconds).to_dict()
    rec["cpu_seconds"] = round(cpu, 3)  # on a shared machine: the work, whatever the load
    rec["beta"] = beta if beta < INF else None
    rec["by"] = "level-bound"
    return rec


def opener_job(spec: Spec | SpecRef, opener: str, beta: int, shave_worst: bool = True) -> dict:
    """Solve one opener below ``beta``: exact (with tree and least worst case) or a lower bound."""
    with _LOCK:
        s = _searcher(spec)
        start, cpu = time.perf_counter(), time.process_time()
        r = s.optimal(opener, beta=beta) if shave_worst else s.solve_opener(opener, beta=beta)
        r.seconds = time.perf_counter() - start
        cpu = time.process_time() - cpu
    out = r.to_dict()
    out["cpu_seconds"] = round(cpu, 3)
    out["beta"] = beta if beta < INF else None
    if r.tree is not None:
        out["tree"] = r.tree.to_text()  # text: the record travels between processes and into the results file
    return out


class _InProcess:
    """Runs each job when asked for results: no pool, the memo stays in this process."""

    def __init__(self) -> None:
        self.queue: list[tuple[Future, Callable, tuple]] = []

    def prepare(self, spec):
        return spec

    def submit(self, fn: Callable, *args) -> Future:
        fut: Future = Future()
        self.queue.append((fut, fn, args))
        return fut

    def wait_any(self, futures: set, timeout: float | None = None) -> tuple[set, set]:  # noqa: ARG002
        """Run the next job (to its end: in this process there is nothing to stop it by)."""
        fut, fn, args = self.queue.pop(0)
        try:
            fut.set_result(fn(*args))
        except BaseException as e:  # handed to the caller through the future
            fut.set_exception(e)
        return {fut}, futures - {fut}

    def close(self) -> None:
        self.queue.clear()


class _Pool:
    def __init__(self, jobs: int) -> None:
        self.jobs = jobs
        self.ex: ProcessPoolExecutor | None = None

    def prepare(self, spec: Spec) -> SpecRef:
        """Start the workers, each with the spec installed (``SpecRef``)."""
        ref = SpecRef(secrets.token_hex(8))
        self.ex = ProcessPoolExecutor(
            max_workers=self.jobs, mp_context=get_context("spawn"), initializer=_install, initargs=(ref.key, spec)
        )
        return ref

    def submit(self, fn: Callable, *args) -> Future:
        assert self.ex is not None, "prepare() starts the workers"
        return self.ex.submit(fn, *args)

    def wait_any(self, futures: set, timeout: float | None = None) -> tuple[set, set]:
        done, rest = wait(futures, timeout=None if timeout is None else max(0.0, timeout), return_when=FIRST_COMPLETED)
        return set(done), set(rest)

    def close(self) -> None:
        """Stop at once, also jobs still running (interrupted runs resume from the results file)."""
        if self.ex is None:
            return
        procs = list((getattr(self.ex, "_processes", None) or {}).values())
        self.ex.shutdown(wait=False, cancel_futures=True)
        for proc in procs:
            if proc.is_alive():
                proc.terminate()


class _Dask:
    def __init__(self, scheduler) -> None:
        require("cluster", "--scheduler")
        from distributed import Client

        if isinstance(scheduler, str):
            try:
                self.client = Client(scheduler, timeout="20s")
            except OSError as e:
                raise RatenError(f"cannot reach the Dask scheduler at {scheduler}: {e}") from None
            self.own = True
        else:
            self.client = scheduler  # a Client passed in (tests, notebooks)
            self.own = False

    def prepare(self, spec):
        """Send the word lists to every worker once, not with each job."""
        return self.client.scatter([spec], broadcast=True)[0]

    def submit(self, fn: Callable, *args):
        return self.client.submit(fn, *args, pure=False)

    def wait_any(self, futures: set, timeout: float | None = None) -> tuple[set, set]:
        from distributed import wait as dwait

        try:
            done, rest = dwait(
                list(futures), timeout=None if timeout is None else max(0.01, timeout), return_when="FIRST_COMPLETED"
            )
        except TimeoutError:
            return set(), set(futures)
        return set(done), set(rest)

    def close(self) -> None:
        if self.own:
            self.client.close()


def _level_bounds(runner, job_spec, claims: list[tuple[str, int]]) -> list[int]:
    """The one-level bound of each (opener, claim), raised until it reaches the claim, computed
    by the run's workers: how a resumed run re-checks the bounds it reuses (``recheck``)."""
    index = {runner.submit(bound_job, job_spec, o, beta): i for i, (o, beta) in enumerate(claims)}
    out = [0] * len(claims)
    while index:
        finished, _ = runner.wait_any(set(index))
        for fut in finished:
            total = fut.result()["total"]
            out[index.pop(fut)] = INF if total is None else int(total)
    return out


@dataclass(frozen=True)
class BestProgress:
    """Where a ``run_best`` stands: what ``progress`` hears as jobs finish."""

    settled: int  #: openers done: exact, refuted by a record, or by their bound in the queue
    openers: int  #: openers in all
    best: dict | None  #: the best exact record so far
    cutoff: int  #: the current cut-off (INF: none yet)
    jobs_done: int  #: jobs finished in this run (bounds and searches)
    jobs_left: int  #: openers still below the cut-off: each needs at least one more job
    eta: float | None  #: estimated seconds left (None until jobs have been timed)
    first_left: int = 0  #: known best openers (``first``) still to search before the others


class _Rates:
    """Wall seconds per bound job and per search so far, and how often a bound leaves a search:
    the estimate of the time left. The openers go best first, so the share of bounds that leave
    a search falls as the run goes on: it is a moving average over the last few hundred bounds.
    The first openers' searches (exact, without the cut-off's pruning) count only until others
    have been timed."""

    WINDOW = 300.0

    def __init__(self, parallel: int) -> None:
        self.parallel = max(1, parallel)
        self.bounds = 0
        self.bound_seconds, self.share = 0.0, 1.0
        self.searches: dict[bool, list[float]] = {True: [0, 0.0], False: [0, 0.0]}  # first opener? -> n, s

    def note(self, rec: dict, went_on: bool, first: bool = False) -> None:
        seconds = float(rec.get("seconds") or 0.0)
        if rec.get("by") == "level-bound":
            self.bounds += 1
            self.bound_seconds += seconds
            weight = max(1.0 / self.bounds, 1.0 / self.WINDOW)
            self.share += weight * (float(went_on) - self.share)
        else:
            self.searches[first][0] += 1
            self.searches[first][1] += seconds

    def eta(self, unbounded: int, unsearched: int) -> float | None:
        """Seconds for ``unbounded`` openers still to bound and ``unsearched`` to search."""
        n, seconds = self.searches[False] if self.searches[False][0] else self.searches[True]
        if not n or (unbounded and not self.bounds):
            return None
        per_search = seconds / n
        per_bound = self.bound_seconds / self.bounds if self.bounds else 0.0
        return (unbounded * (per_bound + self.share * per_search) + unsearched * per_search) / self.parallel


def _cutoff(exact: list[dict], top: int, cap: int = INF) -> int:
    """The ``top``-th best exact total plus one, at most ``cap``: openers at or above it are out."""
    totals = sorted(r["total"] for r in exact)
    return min(totals[top - 1] + 1 if len(totals) >= top else INF, cap)


def run_best(
    words: WordSet,
    hard: bool = False,
    max_guesses: int | None = 6,
    *,
    top: int = 20,
    jobs: int = 1,
    scheduler=None,
    results: Path | None = None,
    openers: list[str] | None = None,
    memo_bits: int = 21,
    memo_gb: float = DEFAULT_MEMO_GB,
    start_cutoff: int | None = None,
    first: list[str] | None = None,
    first_beta: int | None = None,
    progress: Callable[[BestProgress], None] | None = None,
    progress_every: float = PROGRESS_SECONDS,
    stop_after: float | None = None,
) -> BestReport:
    """Search every opener (or ``openers``) and prove the ``top`` best exactly.

    ``start_cutoff``: search only below this total from the start (openers needing it or more are
    refuted with a proven bound; too low a value leaves fewer than ``top`` exact, too high
    only costs time). ``memo_gb``: the shared memo's size (0: private memos); it is saved to
    ``memo_path(results)`` and loaded from there. ``first``: openers searched before any other
    job, below ``first_beta`` (the module's docstring). ``progress(BestProgress)`` is called as
    jobs finish, at most every ``progress_every`` seconds (and at the end). ``stop_after``:
    seconds after which no new job starts and the jobs in flight are stopped; the report then
    holds what is proven so far (``BestReport.complete`` False), and the same call resumes from
    the results file.
    """
    if top < 1:
        raise RatenError("--top must be at least 1")
    if start_cutoff is not None and start_cutoff < 1:
        raise RatenError("--cutoff must be at least 1")
    check_memo_gb(memo_gb)
    slots = slots_for(memo_gb) if memo_gb > 0 else 0
    cap = start_cutoff if start_cutoff is not None else INF
    start = time.perf_counter()
    stop_at = None if stop_after is None else time.monotonic() + stop_after
    stopped = False
    local = Searcher(words, hard=hard, max_guesses=max_guesses, memo_bits=8)
    rows = [local.row(o) for o in openers] if openers else list(range(len(words.allowed)))
    bound = dict(zip((words.allowed[g] for g in rows), local.opener_bounds(rows)))
    header = results_header(words, hard, max_guesses)
    lines = read_lines(results, header) if results else ResultLines(Path())
    shared = (
        SharedMemo(memo_fingerprint(words, hard, max_guesses), slots, memo_path(results) if results else None)
        if slots
        else None
    )
    spec: Spec = (words, hard, max_guesses, memo_bits, shared.handle if shared else None)
    try:
        runner = _Dask(scheduler) if scheduler is not None else (_Pool(jobs) if jobs > 1 else _InProcess())
    except BaseException:
        if shared:
            shared.close()
        raise
    job_spec = runner.prepare(spec)
    memo_saved = 0
    out = None
    try:
        # every reused line re-checked first, its one-level bound (when needed) on the workers
        checked = recheck(
            lines, words, hard, max_guesses, dict(bound), lambda claims: _level_bounds(runner, job_spec, claims)
        )
        done = {o: line.rec for o, line in lines.openers.items() if o in bound}
        resumed = len(done)
        out = ResultsFile(results, header) if results else None

        def exact_list() -> list[dict]:
            return [r for r in done.values() if r["exact"] and r["total"] is not None]

        cutoff = _cutoff(exact_list(), top, cap)

        def needs_work(o: str) -> bool:
            r = done.get(o)
            if r is None:
                return True
            if r["exact"]:
                return False
            # a lower bound proven against an earlier, larger cut-off still rules it out
            return (r["total"] if r["total"] is not None else INF) < cutoff

        # best-first: (bound, opener, raised) with the least bound on top; raised = 1 once the
        # one-level bound replaced the cheap one (then the next job is the exact search)
        raised_before = {o: int(line.rec["total"]) for o, line in lines.bounds.items() if o in bound}
        for o, b in raised_before.items():
            bound[o] = max(bound[o], b)
        # the known best openers first, each once, then the queue (none of them in it meanwhile)
        seeds = [o for o in dict.fromkeys(first or []) if o in bound and needs_work(o)]
        seed_beta = min(first_beta if first_beta is not None else INF, cap)
        seeds_out: set[str] = set()
        pending = [(b, o, 1 if o in raised_before else 0) for o, b in bound.items() if needs_work(o) and o not in seeds]
        heapq.heapify(pending)
        last_save = time.monotonic()
        last_heard = 0.0
        in_flight: dict = {}
        parallel = max(1, jobs) if scheduler is None else max(2, _dask_workers(runner))
        slots = parallel * 2
        n_total = len(bound)
        rates = _Rates(parallel)
        jobs_done = 0

        def report_progress(hear: Callable[[BestProgress], None]) -> None:
            below = [raised for b, _, raised in pending if b < cutoff]
            settled = n_total - len(below) - len(in_flight) - len(seeds)
            ex = sorted(exact_list(), key=lambda r: (r["total"], r["worst"] or 0, r["opener"]))
            # a job in flight counts as half a search still to do
            eta = rates.eta(len(below) - sum(below), sum(below) + len(seeds) + len(in_flight) // 2)
            first_left = len(seeds) + len(seeds_out)
            state = BestProgress(
                settled, n_total, ex[0] if ex else None, cutoff, jobs_done, len(below), eta, first_left
            )
            hear(state)

        while pending or in_flight or seeds:
            if stop_at is not None and time.monotonic() >= stop_at:
                stopped = True
                break
            while seeds and len(in_flight) < slots:
                o = seeds.pop(0)
                seeds_out.add(o)
                in_flight[runner.submit(opener_job, job_spec, o, seed_beta)] = o
            while not seeds and not seeds_out and pending and len(in_flight) < slots:
                b, o, raised = pending[0]
                if b >= cutoff:
                    break
                heapq.heappop(pending)
                job = opener_job if raised else bound_job
                in_flight[runner.submit(job, job_spec, o, cutoff)] = o
            if not in_flight:
                break
            finished, _ = runner.wait_any(set(in_flight), None if stop_at is None else stop_at - time.monotonic())
            for fut in finished:
                o = in_flight.pop(fut)
                rec = fut.result()
                jobs_done += 1
                b = rec["total"] if rec["total"] is not None else INF
                rates.note(rec, went_on=b < cutoff, first=o in seeds_out)
                if rec.get("by") == "level-bound":
                    bound[o] = max(bound[o], b)
                    if b < cutoff:  # not refuted yet: back in the queue at its raised bound
                        heapq.heappush(pending, (bound[o], o, 1))
                        if out:
                            out.write(rec | {"kind": "bound"})
                        continue
                rec["kind"] = "opener"
                if out:
                    out.write(rec)
                if o in seeds_out:
                    seeds_out.discard(o)
                    if not rec["exact"]:  # above first_beta: a proven bound, back in the queue at it
                        bound[o] = max(bound[o], b)
                        heapq.heappush(pending, (bound[o], o, 1))
                        continue
                done[o] = rec
                if rec["exact"]:  # only an exact total moves the cut-off (a walk over every record)
                    cutoff = _cutoff(exact_list(), top, cap)
                if shared and time.monotonic() - last_save > MEMO_SAVE_SECONDS:
                    shared.save()
                    last_save = time.monotonic()
            if progress and (time.monotonic() - last_heard >= progress_every or not (pending or in_flight)):
                report_progress(progress)  # a walk over the queue: every few seconds, not per job
                last_heard = time.monotonic()
    finally:
        runner.close()
        if out:
            out.close()
        if shared:
            memo_saved = shared.save()
            shared.close()
            _SEARCHERS.clear()  # this process's mapping of the table goes with its searcher
    by_bound = sum(1 for o in bound if o not in done)
    by_level = sum(1 for r in done.values() if r.get("by") == "level-bound")
    exact = sorted(exact_list(), key=lambda r: (r["total"], r["worst"] or 0, r["opener"]))
    return BestReport(
        results=done,
        bounds=bound,
        cutoff=cutoff,
        openers=n_total,
        by_bound=by_bound,
        by_level=by_level,
        seconds=time.perf_counter() - start,
        resumed=resumed,
        exact=exact,
        header=header,
        solutions=len(words.solutions),
        results_path=results,
        cap=cap,
        memo_loaded=shared.loaded if shared else 0,
        memo_saved=memo_saved,
        weights=tree_weights(words),
        recheck=checked,
        complete=not stopped,
    )


def _dask_workers(runner) -> int:
    try:
        return len(runner.client.scheduler_info().get("workers", {}))
    except Exception:  # any failure just means "assume a few"
        return 2
