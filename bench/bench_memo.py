"""Benchmark of the shared memo: `raten tree --best` on a fixed set of openers, in one run, with a
private memo per worker process against one memo shared by the workers, and a resumed run with
against without the memo its first half saved (prints figures, asserts nothing).

    .venv/bin/python bench/bench_memo.py                  # 50 openers, 2 jobs, English normal mode
    .venv/bin/python bench/bench_memo.py --openers 30 --jobs 2 --hard --cutoff 8174

The openers are those of least cheap bound (3n - k), the part of a full run that is searched
rather than refuted by its one-level bound (``bench_refute.py --head``); a seeded random
sample (``--random``) is mostly refuted by bounds in a few milliseconds each, where no memo
matters. Every run searches below ``--cutoff`` from the start (default 7970: the published
20th best normal-mode total, TRONE 7969, plus one), so no run pays for a first search
without one. Rows:

- ``private``: ``memo_gb=0``, each worker its own memo of 2**``--memo-bits`` slots;
- ``shared``: one memo of ``--memo-gb`` for all workers;
- ``first half``: the first half of the openers with a results file (its memo saved beside it);
- ``resumed, saved memo``: the whole set from that results file, the saved memo loaded;
- ``resumed, no memo``: the same from a copy of the results file without the memo.

Each row is a fresh pool of worker processes (their start-up included); the rows' exact
totals are checked to agree. Per row: wall seconds, the row's jobs (resumed ones not counted)
with their wall and CPU seconds in the workers. The machine is shared: the load average is
printed, and CPU seconds are the figure a load does not inflate.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

from raten.trees.jobs import run_best
from raten.trees.results_file import memo_path, read_results, results_header
from raten.trees.search import Searcher
from raten.wordlists.presets import load_words


def _load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--openers", type=int, default=50, help="how many openers")
    ap.add_argument("--random", action="store_true", help="a seeded random sample instead of the least cheap bounds")
    ap.add_argument("--seed", type=int, default=15)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--hard", action="store_true")
    ap.add_argument("--cutoff", type=int, default=7970)
    ap.add_argument("--memo-gb", type=float, default=1.0)
    ap.add_argument("--memo-bits", type=int, default=21)
    args = ap.parse_args()
    words = load_words("en")
    probe = Searcher(words, hard=args.hard, max_guesses=6, memo_bits=8)
    if args.random:
        rows = random.Random(args.seed).sample(range(len(words.allowed)), args.openers)
    else:
        rows = sorted(range(len(words.allowed)), key=lambda g: (probe.opener_bound(g), g))[: args.openers]
    openers = [words.allowed[g] for g in rows]
    half = openers[: len(openers) // 2]
    mode = "hard" if args.hard else "normal"
    chosen = f"random, seed {args.seed}" if args.random else "least cheap bounds"
    print(
        f"en {mode}, {len(openers)} openers ({chosen}),"
        f" {args.jobs} jobs, cut-off {args.cutoff}, shared memo {args.memo_gb:g} GB, private 2**{args.memo_bits} slots;"
        f" load average {_load()}",
        flush=True,
    )
    common = {"max_guesses": 6, "top": 20, "jobs": args.jobs, "start_cutoff": args.cutoff, "memo_bits": args.memo_bits}
    rankings = {}
    with tempfile.TemporaryDirectory(prefix="bench-memo-") as tmp:
        res = Path(tmp) / "run.jsonl"
        bare = Path(tmp) / "bare.jsonl"

        def row(name: str, **kw) -> None:
            before = set(read_results(kw["results"], results_header(words, args.hard, 6))) if "results" in kw else set()
            start = time.perf_counter()
            report = run_best(words, args.hard, openers=kw.pop("openers", openers), **common, **kw)
            wall = time.perf_counter() - start
            new = [r for o, r in report.results.items() if o not in before]  # the jobs of this row
            work = sum(r.get("seconds", 0) for r in new)
            cpu = sum(r.get("cpu_seconds", 0) for r in new)
            rankings[name] = [(r["opener"], r["total"]) for r in report.exact if r["total"] < report.cutoff]
            print(
                f"{name:22} wall {wall:6.1f} s  jobs {len(new):3}: {work:6.1f} s, CPU {cpu:6.1f} s"
                f"  exact {len(report.exact):2}  cut-off {report.cutoff}  memo loaded {report.memo_loaded:>9,}"
                f"  saved {report.memo_saved:>9,}  load {_load()}",
                flush=True,
            )

        row("private", memo_gb=0)
        row("shared", memo_gb=args.memo_gb)
        row("first half", memo_gb=args.memo_gb, openers=half, results=res)
        shutil.copyfile(res, bare)
        row("resumed, saved memo", memo_gb=args.memo_gb, results=res)
        assert not memo_path(bare).exists()
        row("resumed, no memo", memo_gb=args.memo_gb, results=bare)
    whole = {k: v for k, v in rankings.items() if k != "first half"}
    if len({tuple(sorted(v)) for v in whole.values()}) != 1:
        print(f"exact totals differ between rows: {whole}")
    print(f"load average after: {_load()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
