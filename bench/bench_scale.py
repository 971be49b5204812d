"""Estimate of an all-opener proof's wall time on many cores, from a run's per-opener times.

    .venv/bin/python bench/bench_scale.py /work/runs/best-en-normal.jsonl /work/runs/en-hard.jsonl
    .venv/bin/python bench/bench_scale.py RESULTS... --cores 2 16 64 --start-up

Reads the results files of ``raten tree --best`` (one record per opener: the seconds its job
took in a worker) and prints, per file and core count: the work (sum of the jobs' seconds),
the critical path (the longest single opener: no number of cores beats it) and the makespan
of the jobs scheduled greedily in the file's order (each to the core that frees first), the
order the run finished them in, which is close to best-first. Jobs the run did not record
are left out: one-level bounds that did not refute an opener at once, in runs older than
the ``bound`` records, and the cheap bounds of the queue (computed once in the main process, measured
with ``--start-up``). ``--sample-bounds K`` times the one-level bound (at the run's final
cut-off) of K openers that have no record (CPU time) and adds that mean for each of them: runs before
the bound jobs were recorded (the normal-mode one) refuted most openers that way. The
estimate assumes the cut-off is known from the start (``--cutoff``), as it is once a run has
published its top totals; without it the first jobs of a wide run search with no cut-off.
Asserts nothing.
"""

from __future__ import annotations

import argparse
import heapq
import json
import sys
import time
from pathlib import Path


def records(path: Path) -> tuple[dict, list[dict]]:
    """(header, job records) of a results file: openers' results and, from runs that keep
    them, one-level bounds that did not refute an opener (``bound``)."""
    header: dict = {}
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if rec.get("kind") == "header":
            header = rec
        elif rec.get("kind") in ("opener", "bound"):
            out.append(rec)
    return header, out


def makespan(seconds: list[float], cores: int) -> float:
    """Greedy list schedule in the given order: each job to the core that is free first."""
    free = [0.0] * cores
    for s in seconds:
        heapq.heappush(free, heapq.heappop(free) + s)
    return max(free)


def start_up(words: str, hard: bool) -> float:
    """Seconds the main process takes for the queue's cheap bounds of every opener (timed here)."""
    from raten.trees.search import Searcher
    from raten.wordlists.presets import load_words

    w = load_words(words)
    t = time.perf_counter()
    s = Searcher(w, hard=hard, max_guesses=6, memo_bits=8)
    for g in range(len(w.allowed)):
        s.opener_bound(g)
    return time.perf_counter() - t


def unrecorded_bounds(header: dict, recs: list[dict], k: int, seed: int = 15) -> tuple[int, float]:
    """(openers without a record, mean CPU seconds of the one-level bound of ``k`` of them)."""
    import random

    from raten.trees.search import Searcher
    from raten.wordlists.presets import load_words

    w = load_words(header["words"])
    seen = {r["opener"] for r in recs if r["kind"] == "opener"}
    rest = [o for o in w.allowed if o not in seen]
    if not rest or k <= 0:
        return len(rest), 0.0
    cutoff = min(r["beta"] for r in recs if r.get("beta"))
    s = Searcher(w, hard=header["mode"] == "hard", max_guesses=header.get("max_guesses"))
    s.opener_level_bound(rest[0], cutoff)  # compile / load the kernels first
    sample = random.Random(seed).sample(rest, min(k, len(rest)))
    t = time.process_time()  # CPU seconds: on a shared machine wall time counts the others too
    for o in sample:
        s.opener_level_bound(o, cutoff)
    return len(rest), (time.process_time() - t) / len(sample)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results", type=Path, nargs="+")
    ap.add_argument("--cores", type=int, nargs="+", default=[2, 16, 64])
    ap.add_argument("--start-up", action="store_true", help="also time the main process's cheap bounds")
    ap.add_argument("--sample-bounds", type=int, default=0, metavar="K", help="time K unrecorded openers' bounds")
    args = ap.parse_args()
    for path in args.results:
        header, recs = records(path)
        secs = [float(r.get("seconds") or 0.0) for r in recs]
        exact = [r for r in recs if r.get("exact") and r["kind"] == "opener"]
        bounds = sum(1 for r in recs if r["kind"] == "bound")
        longest = max(recs, key=lambda r: r.get("seconds") or 0.0)
        print(
            f"{path}: {header.get('words')} {header.get('mode')}, {len(recs) - bounds} openers recorded "
            f"({len(exact)} exact) and {bounds} bounds, work {sum(secs):.0f} s, "
            f"longest {longest['opener'].upper()} {longest['seconds']:.1f} s"
        )
        if args.sample_bounds:
            missing, mean = unrecorded_bounds(header, recs, args.sample_bounds)
            secs += [mean] * missing
            print(
                f"  + {missing} openers without a record at {mean:.3f} s each "
                f"(one-level bound, CPU time of {args.sample_bounds})"
            )
        work = sum(secs)
        print(f"  work {work:.0f} s = {work / 3600:.2f} core-hours")
        for cores in args.cores:
            span = makespan(secs, cores)
            print(
                f"  {cores:3} cores: makespan {span:7.1f} s ({span / 60:.1f} min); "
                f"bounds: work/cores {work / cores:.1f} s, critical path {longest['seconds']:.1f} s"
            )
        if args.start_up:
            sec = start_up(header["words"], header["mode"] == "hard")
            print(f"  start-up (cheap bounds of every opener, one process): {sec:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
