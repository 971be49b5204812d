"""Benchmark of the exact tree search: proof times for known openers (prints figures, asserts nothing).

    .venv/bin/python bench/bench_tree.py            # English SALET, normal and hard mode
    .venv/bin/python bench/bench_tree.py --german   # also the 6mal5 and de best openers

Each line: list, mode, opener, the proven optimal total, average, worst case, distribution,
wall and CPU seconds (compile excluded: the kernels are warmed on a tiny list first).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from raten.engine.words import WordSet
from raten.errors import RatenError
from raten.trees.search import Searcher
from raten.wordlists.files import read_word_file
from raten.wordlists.presets import load_words

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"


def _warm() -> None:
    """Compile (or load) the numba kernels on a tiny list so timings measure the search."""
    words = WordSet.from_lists(["crane", "slate", "trace", "crate", "react"], ["salet"], name="warm")
    Searcher(words, hard=True, max_guesses=6).solve_opener("salet")
    Searcher(words).solve_opener("salet")


def run(words: WordSet, opener: str, hard: bool, limit: int | None) -> None:
    start, cpu = time.perf_counter(), time.process_time()
    s = Searcher(words, hard=hard, max_guesses=limit)
    r = s.solve_opener(opener)
    solve_s, solve_cpu = time.perf_counter() - start, time.process_time() - cpu
    worst, _ = s.least_worst(opener, r.total, r.worst or 0)
    all_s = time.perf_counter() - start
    dist = " ".join(f"{k}:{v}" for k, v in sorted(r.distribution.items()))
    print(
        f"{words.name:7} {'hard' if hard else 'normal':6} max {limit or '-':2} {opener.upper():6} "
        f"total {r.total:5}  avg {r.total / len(words.solutions):.4f}  worst {worst}  [{dist}]  "
        f"proof {solve_s:5.1f} s ({solve_cpu:4.1f} s CPU), with least worst {all_s:5.1f} s, {int(s.stats[0])} nodes",
        flush=True,
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--german", action="store_true", help="also the German best openers")
    args = ap.parse_args()
    _warm()
    en = load_words("en")
    run(en, "salet", False, 6)
    run(en, "salet", True, 6)
    run(en, "salet", True, None)
    if args.german:
        if (SHARED / "de" / "solutions.txt").exists():
            de6 = WordSet.from_lists(
                read_word_file(SHARED / "de" / "solutions.txt"),
                read_word_file(SHARED / "de" / "allowed.txt"),
                name="6mal5",
            )
            run(de6, "sarte", False, 6)
        try:
            de = load_words("de")
        except RatenError as e:
            print(f"de preset skipped: {e}", file=sys.stderr)
        else:
            run(de, "sarte", False, 6)
    return 0


if __name__ == "__main__":
    sys.exit(main())
