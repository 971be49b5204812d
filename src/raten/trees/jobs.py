"""Many openers, many machines: every allowed opener is one job of the exact search.

Jobs run in this process (``jobs=1``), on a local process pool, or on a Dask distributed
cluster (``scheduler``). Each finished opener is appended to a results file (JSON lines,
flushed and synced) at once, so a stopped run resumes where it stopped. Openers are tried
best-first: the opener with the lowest lower bound is worked on next. An opener's first
bound is the cheap 3n - k; its first job raises it to the one-level bound (every group at its
best split, ``Searcher.opener_level_bound``), which refutes most openers outright; an opener
whose raised bound is still below the cut-off goes back in the queue (and into the results
file as a ``bound`` record, so a resumed run does not raise it again) and, when it is the
lowest again, is searched exactly. Each job gets the current cut-off (the ``top``-th best
exact total so far, plus one), so most openers stop early with a proven lower bound. A
known bound (``start_cutoff``, e.g. a published top-th total plus one) caps it from the start, so
the first openers are not searched without one.

The workers share one memo (``raten.trees.memo_file``): a table of ``memo_gb`` gigabytes in
shared memory, saved beside the results file every few minutes and at the end, and loaded
again by a resumed run (``memo_gb=0``: one private memo of 2**``memo_bits`` slots per process).
"""

from __future__ import annotations

import heapq
import json
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path

from raten.engine.words import WordSet
from raten.errors import RatenError
from raten.trees.memo_file import DEFAULT_MEMO_GB, MemoHandle, SharedMemo, attach, memo_fingerprint, slots_for
from raten.trees.model import Tree, tree_weights
from raten.trees.search import INF, OpenerResult, Searcher

RESULTS_VERSION = 1
#: Seconds between saves of the shared memo during a run (it is saved at the end too).
MEMO_SAVE_SECONDS = 600.0

#: (words, hard, max_guesses, memo_bits, shared memo or None): all a worker needs to build its searcher.
Spec = tuple[WordSet, bool, "int | None", int, "MemoHandle | None"]

_SEARCHERS: dict[tuple, Searcher] = {}
_LOCK = threading.Lock()  # a Dask worker may run jobs in threads: one search at a time per memo


def _searcher(spec: Spec) -> Searcher:
    """One searcher per process and spec, so the memo carries over from opener to opener."""
    words, hard, max_guesses, memo_bits, shared = spec
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


def bound_job(spec: Spec, opener: str, beta: int) -> dict:
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


def opener_job(spec: Spec, opener: str, beta: int, shave_worst: bool = True) -> dict:
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


# --- the results file ------------------------------------------------------------------------


def default_results_path(words: WordSet, hard: bool, max_guesses: int | None) -> Path:
    """Where ``raten tree --best`` keeps its results file unless told: in the cache, one per
    word lists, mode and guess limit, so a rerun resumes."""
    from raten.engine.matrix import cache_dir

    mode = "hard" if hard else "normal"
    return cache_dir() / "best" / f"{words.name}-{words.prior_key[:12]}-{mode}-max{max_guesses or 0}.jsonl"


def results_header(words: WordSet, hard: bool, max_guesses: int | None) -> dict:
    return {
        "kind": "header",
        "version": RESULTS_VERSION,
        "words": words.name,
        "fingerprint": words.fingerprint,
        "mode": "hard" if hard else "normal",
        "max_guesses": max_guesses,
    }


def read_results(path: Path, header: dict) -> dict[str, dict]:
    """Finished openers from an earlier run (a torn last line is ignored); RatenError if the
    file belongs to other lists or another mode."""
    if not path.exists():
        return {}
    done: dict[str, dict] = {}
    with path.open(encoding="utf-8") as f:
        for no, line in enumerate(f, 1):
            try:
                rec = json.loads(line)
            except ValueError:
                continue  # a line cut off by a kill
            if rec.get("kind") == "header":
                for key in ("fingerprint", "mode", "max_guesses", "version"):
                    if rec.get(key) != header[key]:
                        raise RatenError(
                            f"results file {path} is for {key}={rec.get(key)!r}, not {header[key]!r}; "
                            "use another --results file"
                        )
            elif rec.get("kind") == "opener" and "opener" in rec:
                done[rec["opener"]] = rec
            elif no == 1:
                raise RatenError(f"{path} is not a raten results file")
    return done


def read_bounds(path: Path | None) -> dict[str, int]:
    """One-level bounds of openers that were not refuted by them (``bound`` records), the
    highest per opener; read after ``read_results`` has checked the file's header."""
    out: dict[str, int] = {}
    if path is None or not path.exists():
        return out
    with path.open(encoding="utf-8") as f:
        for line in f:
            try:
                rec = json.loads(line)
            except ValueError:
                continue
            if rec.get("kind") == "bound" and rec.get("total") is not None:
                out[rec["opener"]] = max(out.get(rec["opener"], 0), int(rec["total"]))
    return out


class ResultsFile:
    """Append-only JSON lines, each flushed and synced before the next job is counted done."""

    def __init__(self, path: Path, header: dict):
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        fresh = not path.exists() or path.stat().st_size == 0
        if not fresh:
            self._drop_torn_tail()
        self.f = path.open("a", encoding="utf-8")
        if fresh:
            self.write(header)

    def _drop_torn_tail(self) -> None:
        data = self.path.read_bytes()
        if data and not data.endswith(b"\n"):
            with self.path.open("r+b") as f:
                f.truncate(data.rfind(b"\n") + 1)

    def write(self, rec: dict) -> None:
        self.f.write(json.dumps(rec, ensure_ascii=False) + "\n")
        self.f.flush()
        os.fsync(self.f.fileno())

    def close(self) -> None:
        self.f.close()


# --- running ----------------------------------------------------------------------------------


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

    def wait_any(self, futures: set) -> tuple[set, set]:
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
        self.ex = ProcessPoolExecutor(max_workers=jobs, mp_context=get_context("spawn"))

    def prepare(self, spec):
        return spec

    def submit(self, fn: Callable, *args) -> Future:
        return self.ex.submit(fn, *args)

    def wait_any(self, futures: set) -> tuple[set, set]:
        done, rest = wait(futures, return_when=FIRST_COMPLETED)
        return set(done), set(rest)

    def close(self) -> None:
        """Stop at once, also jobs still running (interrupted runs resume from the results file)."""
        procs = list(getattr(self.ex, "_processes", {}).values())
        self.ex.shutdown(wait=False, cancel_futures=True)
        for proc in procs:
            if proc.is_alive():
                proc.terminate()


class _Dask:
    def __init__(self, scheduler) -> None:
        try:
            from distributed import Client
        except ImportError:
            raise RatenError("--scheduler needs dask distributed: pip install 'raten[cluster]'") from None
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

    def wait_any(self, futures: set) -> tuple[set, set]:
        from distributed import wait as dwait

        done, rest = dwait(list(futures), return_when="FIRST_COMPLETED")
        return set(done), set(rest)

    def close(self) -> None:
        if self.own:
            self.client.close()


@dataclass
class BestReport:
    """All openers accounted for: exact totals for the best ones, lower bounds for the rest."""

    results: dict[str, dict]
    bounds: dict[str, int]  #: the best lower bound known before any search: cheap, or one-level when raised
    cutoff: int  #: every opener not listed exactly needs at least this many guesses
    openers: int
    by_bound: int  #: openers excluded by their bound in the queue alone (no record: cheap or one-level)
    seconds: float
    resumed: int
    exact: list[dict] = field(default_factory=list)
    by_level: int = 0  #: openers refuted by their one-level bound (a record, no search)
    header: dict = field(default_factory=dict)  #: words, fingerprint, mode, max_guesses (as in the results file)
    solutions: int = 0
    results_path: Path | None = None
    cap: int = INF  #: the cut-off given up front (``--cutoff``), INF without one
    memo_loaded: int = 0  #: shared memo entries taken over from the saved memo of an earlier run
    memo_saved: int = 0  #: shared memo entries saved at the end (0: private memos or no results file)
    weights: dict[str, int] | None = None  #: each solution's weight under the prior (None: uniform)

    @property
    def best(self) -> dict | None:
        return self.exact[0] if self.exact else None

    @property
    def proven(self) -> bool:
        return self.best is not None

    def best_tree(self) -> Tree | None:
        """The best opener's tree, marked proven over all openers (None without one)."""
        text = self.best.get("tree") if self.best else None
        if not text:
            return None
        tree = Tree.from_text(text, source=str(self.results_path or "results"))
        tree.weights = self.weights
        tree.meta.update({"proven": "all-openers"})
        return tree

    def ranking(self, top: int) -> list[dict]:
        """The ``top`` best exact openers: rank, opener, total, average, worst, distribution."""
        n = sum(self.weights.values()) if self.weights else self.solutions  # expected guesses: over the weight
        return [
            {
                "rank": i,
                "opener": r["opener"],
                "total": r["total"],
                "average": round(r["total"] / n, 4),
                "worst": r["worst"],
                "distribution": r["distribution"],
            }
            for i, r in enumerate(self.exact[:top], 1)
        ]

    def to_dict(self, top: int, out: Path | None = None) -> dict:
        """The report ``raten tree --best --json`` prints; a RatenError when no opener solved
        every word within the guess limit."""
        if self.best is None:
            if self.cap < INF:
                raise RatenError(f"no opener needs fewer than {self.cap} guesses in total; raise --cutoff")
            raise RatenError("no opener solves every word within the guess limit")
        ranking = self.ranking(top)
        return {
            "words": self.header.get("words"),
            "fingerprint": self.header.get("fingerprint"),
            "mode": self.header.get("mode"),
            "max_guesses": self.header.get("max_guesses"),
            "solutions": self.solutions,
            "openers": self.openers,
            "best": ranking[0],
            "proven_optimal": True,
            "others_at_least": self.cutoff if self.cutoff < INF else None,
            "top": ranking,
            "openers_cut_by_bound": self.by_bound,
            "openers_cut_by_level_bound": self.by_level,
            "resumed": self.resumed,
            "memo_loaded": self.memo_loaded,
            "memo_saved": self.memo_saved,
            "seconds": round(self.seconds, 1),
            "results": str(self.results_path) if self.results_path else None,
            "out": str(out) if out else None,
        }


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
    progress: Callable[[int, int, dict | None, int], None] | None = None,
) -> BestReport:
    """Search every opener (or ``openers``) and prove the ``top`` best exactly.

    ``start_cutoff``: search only below this total from the start (openers needing it or more are
    refuted with a proven bound; too low a value leaves fewer than ``top`` exact, too high
    only costs time). ``memo_gb``: the shared memo's size (0: private memos); it is saved to
    ``memo_path(results)`` and loaded from there. ``progress(done, total, best, cutoff)`` is
    called as jobs finish.
    """
    if top < 1:
        raise RatenError("--top must be at least 1")
    if start_cutoff is not None and start_cutoff < 1:
        raise RatenError("--cutoff must be at least 1")
    if memo_gb < 0:
        raise RatenError("--memo-gb must not be negative")
    slots = slots_for(memo_gb) if memo_gb > 0 else 0
    cap = start_cutoff if start_cutoff is not None else INF
    start = time.perf_counter()
    local = Searcher(words, hard=hard, max_guesses=max_guesses, memo_bits=8)
    rows = [local.row(o) for o in openers] if openers else list(range(len(words.allowed)))
    bound = {words.allowed[g]: local.opener_bound(g) for g in rows}
    header = results_header(words, hard, max_guesses)
    done = read_results(results, header) if results else {}
    done = {o: r for o, r in done.items() if o in bound}
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
    raised_before = {o: b for o, b in read_bounds(results).items() if o in bound}
    for o, b in raised_before.items():
        bound[o] = max(bound[o], b)
    pending = [(b, o, 1 if o in raised_before else 0) for o, b in bound.items() if needs_work(o)]
    heapq.heapify(pending)
    shared = (
        SharedMemo(memo_fingerprint(words, hard, max_guesses), slots, memo_path(results) if results else None)
        if slots
        else None
    )
    spec: Spec = (words, hard, max_guesses, memo_bits, shared.handle if shared else None)
    last_save = time.monotonic()
    try:
        runner = _Dask(scheduler) if scheduler is not None else (_Pool(jobs) if jobs > 1 else _InProcess())
    except BaseException:
        if shared:
            shared.close()
        raise
    job_spec = runner.prepare(spec)
    memo_saved = 0
    in_flight: dict = {}
    slots = max(1, jobs) * 2 if scheduler is None else max(4, _dask_workers(runner) * 2)
    n_total = len(bound)
    try:
        while pending or in_flight:
            while pending and len(in_flight) < slots:
                b, o, raised = pending[0]
                if b >= cutoff:
                    break
                heapq.heappop(pending)
                job = opener_job if raised else bound_job
                in_flight[runner.submit(job, job_spec, o, cutoff)] = o
            if not in_flight:
                break
            finished, _ = runner.wait_any(set(in_flight))
            for fut in finished:
                o = in_flight.pop(fut)
                rec = fut.result()
                if rec.get("by") == "level-bound":
                    b = rec["total"] if rec["total"] is not None else INF
                    bound[o] = max(bound[o], b)
                    if b < cutoff:  # not refuted yet: back in the queue at its raised bound
                        heapq.heappush(pending, (bound[o], o, 1))
                        if out:
                            out.write(rec | {"kind": "bound"})
                        continue
                rec["kind"] = "opener"
                done[o] = rec
                if out:
                    out.write(rec)
                cutoff = _cutoff(exact_list(), top, cap)
                if shared and time.monotonic() - last_save > MEMO_SAVE_SECONDS:
                    shared.save()
                    last_save = time.monotonic()
                if progress:
                    ex = sorted(exact_list(), key=lambda r: (r["total"], r["worst"] or 0, r["opener"]))
                    progress(len(done), n_total, ex[0] if ex else None, cutoff)
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
    )


def memo_path(results: Path) -> Path:
    """Where a run with this results file saves its shared memo (and a resumed run finds it)."""
    return results.with_name(results.name + ".memo")


def openers_table(report: BestReport, bounds: dict[str, int] | None = None) -> str:
    """Every opener with its exact total or proven lower bound, best first (tab-separated)."""
    rows = []
    for o, r in report.results.items():
        total = r["total"] if r["total"] is not None else INF
        rows.append((total, 0 if r["exact"] else 1, o, "exact" if r["exact"] else "at-least", r.get("worst")))
    for o, b in (bounds if bounds is not None else report.bounds).items():
        if o not in report.results:
            rows.append((b, 1, o, "at-least", None))
    rows.sort()
    lines = ["opener\tstatus\ttotal\tworst"]
    for total, _, o, status, worst in rows:
        lines.append(f"{o}\t{status}\t{total if total < INF else 'impossible'}\t{worst if worst else ''}")
    return "\n".join(lines) + "\n"


def _dask_workers(runner) -> int:
    try:
        return len(runner.client.scheduler_info().get("workers", {}))
    except Exception:  # any failure just means "assume a few"
        return 2
