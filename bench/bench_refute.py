"""Benchmark: how fast the exact search refutes openers, before and after the one-level bounds.

    .venv/bin/python bench/bench_refute.py                        # 20 seeded English openers, normal mode
    .venv/bin/python bench/bench_refute.py --sample 50 --before 10 --beta 7921 --hard

For each opener of a seeded sample of allowed words (``--seed``), in one run and one process:

- ``cheap``: the opener's bound 3n - k (``Searcher.opener_bound``), what ``--best`` sorted by;
- ``level``: every group at its one-level bound (``Searcher.opener_level_bound``), and its time;
- ``before``: ``solve_opener(beta)`` with ``deep=False`` (each group at 2m - 1 until solved);
- ``after``: ``solve_opener(beta)`` with the one-level bounds up front and inside the search.

An opener is refuted when its proven lower bound reaches ``beta`` (default 7921: it cannot
beat SALET's 7920). Each variant keeps one searcher (one memo) over the sample, as a worker
process does. Prints a line per opener and the totals, and estimates the run over all
allowed openers from the sample's mean. Asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from raten.engine.words import WordSet
from raten.trees.search import Searcher
from raten.wordlists.presets import load_words


def _warm() -> None:
    """Compile (or load) the kernels on a tiny list, both variants, so timings measure the search."""
    words = WordSet.from_lists(["crane", "slate", "trace", "crate", "react"], ["salet"], name="warm")
    for deep in (False, True):
        for hard in (False, True):
            s = Searcher(words, hard=hard, max_guesses=6, deep=deep)
            s.solve_opener("salet")
            s.opener_level_bound("salet")


def census(words: WordSet, args: argparse.Namespace) -> None:
    """How many openers the one-level bound leaves to search: the fraction below ``--cutoff``."""
    rows = random.Random(args.seed + 1).sample(range(len(words.allowed)), args.census)
    s = Searcher(words, hard=args.hard, max_guesses=args.max_guesses)
    t = time.perf_counter()
    below = [g for g in rows if s.opener_level_bound(g, args.cutoff) < args.cutoff]
    sec = (time.perf_counter() - t) / len(rows)
    share = len(below) / len(rows)
    print(
        f"census: {len(below)}/{len(rows)} sampled openers have a one-level bound below {args.cutoff} "
        f"({share:.1%}, about {share * len(words.allowed):.0f} of {len(words.allowed)}); {sec:.3f} s per bound"
    )


def head(words: WordSet, args: argparse.Namespace) -> None:
    """``run_best`` (one process, top 20) over the openers with the least cheap bound: the ones
    that need a search, so the part of the full run the sample above does not show."""
    from raten.trees.jobs import run_best

    probe = Searcher(words, hard=args.hard, max_guesses=args.max_guesses, memo_bits=8)
    rows = sorted(range(len(words.allowed)), key=lambda g: (probe.opener_bound(g), g))[: args.head]
    t = time.perf_counter()
    rep = run_best(words, args.hard, args.max_guesses, top=20, openers=[words.allowed[g] for g in rows])
    sec = time.perf_counter() - t
    searched = sum(1 for r in rep.results.values() if r.get("by") != "level-bound")
    best = rep.best or {}
    print(
        f"head: --best over the {args.head} least cheap bounds: {sec:.1f} s, best {best.get('opener')} "
        f"{best.get('total')}, cut-off {rep.cutoff}, {len(rep.exact)} exact, {searched} searched, "
        f"{rep.by_level} refuted by the one-level bound, {rep.by_bound} by the bound in the queue"
    )
    for r in rep.exact[:10]:
        print(f"  {r['opener']} {r['total']} worst {r['worst']} {r['seconds']:.1f} s")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--words", default="en")
    ap.add_argument("--hard", action="store_true")
    ap.add_argument("--max-guesses", type=int, default=6)
    ap.add_argument("--sample", type=int, default=20, help="openers in the seeded sample")
    ap.add_argument("--seed", type=int, default=15)
    ap.add_argument("--beta", type=int, default=7921, help="refute an opener that needs at least this many")
    ap.add_argument("--before", type=int, default=None, help="time the old search on only the first N (slow)")
    ap.add_argument("--census", type=int, default=0, help="also: one-level bounds of N more sampled openers")
    ap.add_argument("--cutoff", type=int, default=7960, help="the census counts openers whose bound is below this")
    ap.add_argument("--head", type=int, default=0, help="also: raten tree --best over the N least cheap bounds")
    args = ap.parse_args()
    _warm()
    words = load_words(args.words)
    if args.census:
        census(words, args)
    if args.head:
        head(words, args)
    rows = random.Random(args.seed).sample(range(len(words.allowed)), args.sample)
    n_before = args.sample if args.before is None else min(args.before, args.sample)
    old = Searcher(words, hard=args.hard, max_guesses=args.max_guesses, deep=False)
    new = Searcher(words, hard=args.hard, max_guesses=args.max_guesses)
    probe = Searcher(words, hard=args.hard, max_guesses=args.max_guesses, memo_bits=16)
    mode = "hard" if args.hard else "normal"
    print(f"{words.name} {mode} max {args.max_guesses}: {args.sample} openers (seed {args.seed}), beta {args.beta}")
    print(f"{'opener':6} {'cheap':>6} {'level':>6} {'lvl s':>6} {'before':>14} {'after':>14}")
    level_s: list[float] = []
    before_s: list[float] = []
    after_s: list[float] = []
    by_cheap = by_level = refuted_before = refuted_after = 0
    for i, g in enumerate(rows):
        word = words.allowed[g]
        cheap = probe.opener_bound(g)
        t = time.perf_counter()
        level = probe.opener_level_bound(g, args.beta)
        level_s.append(time.perf_counter() - t)
        probe.memo[:] = 0  # each level bound from an empty memo: its cost alone
        by_cheap += cheap >= args.beta
        by_level += level >= args.beta
        b_txt = "-"
        if i < n_before:
            t = time.perf_counter()
            rb = old.solve_opener(g, beta=args.beta, tree=False)
            before_s.append(time.perf_counter() - t)
            refuted_before += not rb.exact
            b_txt = f"{rb.total:>5}{'' if rb.exact else '+'} {before_s[-1]:6.2f}s"
        t = time.perf_counter()
        ra = new.solve_opener(g, beta=args.beta, tree=False)
        after_s.append(time.perf_counter() - t)
        refuted_after += not ra.exact
        a_txt = f"{ra.total:>5}{'' if ra.exact else '+'} {after_s[-1]:6.2f}s"
        print(f"{word:6} {cheap:6} {min(level, args.beta):6} {level_s[-1]:6.3f} {b_txt:>14} {a_txt:>14}", flush=True)
    n_all = len(words.allowed)
    print("(a total with + is a proven lower bound, stopped at beta; level is shown up to beta)")
    print(
        f"refuted by the cheap bound 3n-k: {by_cheap}/{args.sample}; by the one-level bound: {by_level}/{args.sample}"
    )
    print(f"level bound: mean {statistics.mean(level_s):.3f} s per opener")
    if before_s:
        m = statistics.mean(before_s)
        ma = statistics.mean(after_s[: len(before_s)])
        print(
            f"before: {refuted_before}/{len(before_s)} refuted, mean {m:.2f} s per opener "
            f"(after on the same {len(before_s)}: {ma:.3f} s, {m / max(ma, 1e-9):.0f}x faster)"
        )
        print(f"  estimate over all {n_all} openers, before: {m * n_all / 3600:.1f} core-hours")
    m = statistics.mean(after_s)
    med = statistics.median(after_s)
    print(f"after: {refuted_after}/{args.sample} refuted, mean {m:.3f} s per opener (median {med:.3f})")
    hours = m * n_all / 3600
    print(f"  estimate over all {n_all} openers, after: {hours:.2f} core-hours, {hours * 30:.0f} min on 2 cores")
    return 0


if __name__ == "__main__":
    sys.exit(main())
