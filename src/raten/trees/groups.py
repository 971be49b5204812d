"""One opener's proof split into its groups: each group a job on the process pool or Dask, resumable.

When every allowed word may be the answer, one opener's proof takes hours (LANTS over 12,972
answers); its groups are independent searches, so they run as separate jobs (largest first) on
the runners of ``raten.trees.jobs``, sharing its memo, and each finished group is appended to a
results file at once: a stopped run loses only the groups in flight. A group is searched below
its ceiling + 1 when one is known (another tree's total for it, ``search.group_totals``), which
cuts the search from the start; a ceiling that is not reached after all is dropped and the group
searched again without it. Once every group is exact, the tree is built from the shared memo (a
group whose entries were evicted is searched again) and checked against the total.

The results file: a header (the lists, mode and limit as ``--best``'s, and the opener), then one
line per group with its pattern, size, exact total and the digest of that claim (status ``exact
group CODE``, ``raten.trees.digest``), checked when a run resumes.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from raten.engine.words import WordSet
from raten.errors import RatenError
from raten.trees.digest import claim_digest
from raten.trees.jobs import _LOCK, MEMO_SAVE_SECONDS, Spec, SpecRef, _Dask, _InProcess, _Pool, _searcher
from raten.trees.memo_file import SharedMemo, attach, check_memo_gb, memo_fingerprint, slots_for
from raten.trees.model import Tree
from raten.trees.results_file import memo_path, results_header
from raten.trees.search import INF, Searcher


def group_job(spec: Spec | SpecRef, opener: str, code: int, beta: int) -> dict:
    """The least total of one group of ``opener`` (by pattern) if below ``beta``, else a bound."""
    with _LOCK:
        s = _searcher(spec)
        g = s.row(opener)
        grp = dict(s._parts(g))[code]
        greens, need = s._child(g, code, s.no_greens, s.no_need)
        start, cpu = time.perf_counter(), time.process_time()
        v = s._solve(grp, beta, s._dl(1), greens, need)
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    return {"group": code, "size": len(grp), "total": v, "exact": v < beta, "seconds": round(seconds, 3),
            "cpu_seconds": round(cpu, 3)}  # fmt: skip


@dataclass
class GroupsReport:
    """Where a group-by-group proof stands: the exact total of every group done, and the tree
    once all are (``tree`` None while some are left)."""

    opener: str
    totals: dict[int, int]  #: exact total of each finished group, by pattern code
    groups: int  #: groups in all (the all-green one not counted)
    weight: int  #: the answers' total weight: what the opener's own guess adds
    #: the opener's total when complete, else a proven lower bound (the groups left at their one-level bound)
    bound: int
    tree: Tree | None
    seconds: float

    @property
    def complete(self) -> bool:
        return len(self.totals) == self.groups


def _digest(header: dict, code: int, total: int) -> str:
    return claim_digest(
        header["lists"], header["mode"], header["max_guesses"], header["opener"], f"exact group {code}", total
    )


def _read(path: Path, header: dict) -> dict[int, int]:
    """Finished groups of an earlier run (a torn last line dropped), each line's digest checked."""
    if not path.exists() or path.stat().st_size == 0:
        return {}
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")[:-1]  # a last line without its newline was torn by a kill
    out: dict[int, int] = {}
    for no, line in enumerate(lines, 1):
        try:
            rec = json.loads(line)
        except ValueError:
            raise RatenError(f"{path} line {no}: not a JSON line") from None
        if no == 1:
            if rec != header:
                raise RatenError(f"{path}: its header is for other lists, mode, limit or opener: {rec}")
            continue
        code, total = rec.get("group"), rec.get("total")
        if not (isinstance(code, int) and isinstance(total, int)) or rec.get("digest") != _digest(header, code, total):
            raise RatenError(f"{path} line {no} (group {code}): does not match its digest")
        out[code] = total
    return out


def run_groups(
    words: WordSet,
    opener: str,
    hard: bool = False,
    max_guesses: int | None = 6,
    *,
    results: Path,
    jobs: int = 1,
    scheduler=None,
    memo_bits: int = 22,
    memo_gb: float = 0.5,
    ceilings: dict[int, int] | None = None,
    progress: Callable[[int, int, int], None] | None = None,
    stop_after: float | None = None,
) -> GroupsReport:
    """Prove the least total under ``opener`` group by group (the module's docstring);
    ``progress(groups done, groups, total so far)`` hears each finished group (the total counts
    the groups left at their one-level bound: a proven lower bound of the opener's total);
    ``stop_after`` seconds: the groups in flight then are stopped and the report says what is done."""
    check_memo_gb(memo_gb)
    start = time.perf_counter()
    local = Searcher(words, hard=hard, max_guesses=max_guesses, memo_bits=16)
    g = local.row(opener)
    word = words.allowed[g]
    parts = local._parts(g)
    header = results_header(words, hard, max_guesses) | {"kind": "header-groups", "opener": word}
    done = _read(results, header)
    floor = dict(zip((code for code, _ in parts), local.group_level_bounds(g, parts)))
    slots = slots_for(memo_gb) if memo_gb > 0 else 0
    shared = SharedMemo(memo_fingerprint(words, hard, max_guesses), slots, memo_path(results)) if slots else None
    spec: Spec = (words, hard, max_guesses, memo_bits, shared.handle if shared else None)
    runner = _Dask(scheduler) if scheduler is not None else (_Pool(jobs) if jobs > 1 else _InProcess())
    job_spec = runner.prepare(spec)
    stop_at = None if stop_after is None else time.monotonic() + stop_after
    results.parent.mkdir(parents=True, exist_ok=True)
    fresh = not results.exists() or results.stat().st_size == 0
    if not fresh:
        data = results.read_bytes()
        results.write_bytes(data[: data.rfind(b"\n") + 1])
    out = results.open("a", encoding="utf-8")
    last_save = time.monotonic()
    try:
        if fresh:
            out.write(json.dumps(header) + "\n")
            out.flush()
        todo = [(code, (ceilings or {}).get(code, INF)) for code, _ in parts if code not in done]
        in_flight: dict = {}
        while todo or in_flight:
            if stop_at is not None and time.monotonic() >= stop_at:
                break  # the groups in flight are stopped with the runner
            while todo and len(in_flight) < max(2, jobs):
                code, ceiling = todo.pop(0)
                beta = ceiling + 1 if ceiling < INF else INF
                in_flight[runner.submit(group_job, job_spec, word, code, beta)] = (code, ceiling)
            if not in_flight:
                break
            finished, _ = runner.wait_any(set(in_flight), None if stop_at is None else stop_at - time.monotonic())
            for fut in finished:
                code, ceiling = in_flight.pop(fut)
                rec = fut.result()
                if not rec["exact"] and ceiling < INF:  # the ceiling was not reached after all: search plainly
                    todo.insert(0, (code, INF))
                    continue
                if not rec["exact"]:
                    raise RatenError(f"{word.upper()} cannot solve every word within {max_guesses} guesses")
                done[code] = rec["total"]
                line = {"kind": "group", "opener": word, **rec, "digest": _digest(header, code, rec["total"])}
                out.write(json.dumps(line) + "\n")
                out.flush()
                if progress:
                    progress(len(done), len(parts), local.weight + sum(done.get(c, floor[c]) for c, _ in parts))
            if shared and time.monotonic() - last_save > MEMO_SAVE_SECONDS:
                shared.save()
                last_save = time.monotonic()
        tree = None
        if len(done) == len(parts):
            total = local.weight + sum(done.values())
            memo = attach(shared.handle) if shared else None
            builder = Searcher(words, hard=hard, max_guesses=max_guesses, memo_bits=memo_bits, memo=memo)
            tree = builder.build_tree(g)
            if tree.total != total:
                raise AssertionError(f"tree total {tree.total} differs from the groups' {total}")
            tree.claim(proven="opener")
    finally:
        out.close()
        runner.close()
        if shared:
            shared.save()
            shared.close()
    bound = local.weight + sum(done.get(code, floor[code]) for code, _ in parts)
    return GroupsReport(word, dict(done), len(parts), local.weight, bound, tree, time.perf_counter() - start)
