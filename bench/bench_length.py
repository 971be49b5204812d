"""Five-letter speed before and after words of any length (issue 26): main's code at a fixed commit
against this checkout's, side by side in one run (prints figures, asserts nothing).

    nice -n 10 .venv/bin/python bench/bench_length.py                 # en: openers, SALET normal and hard
    nice -n 10 .venv/bin/python bench/bench_length.py --repeat 7 --base f45b5df

The base is ``git archive BASE src`` unpacked into ``.cache/bench-length/BASE`` (its own numba
cache beside it); both run in fresh processes with this venv's Python, alternately, ``--repeat``
times, after one unmeasured run each (the kernels compiled or loaded from numba's cache). Each
process loads ``en`` and measures, warm:

- ``openers``: ``State(en).hints(top=10)``, the opener ranking (12,972 guesses × 2,315
  answers), the median of ``--rank-runs`` calls;
- ``salet``: the proof of SALET's least total (7,920) with a fresh searcher and memo
  (``Searcher.solve_opener``, its tree included), normal mode;
- ``salet-hard``: the same in hard mode.

Printed: per task the median wall and CPU seconds (``time.process_time``: user + system of the
process, numba's threads included) of each side, and this side's over the base's (1.00 = as fast).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: main when words of other lengths came (issue 26 began here).
BASE = "f45b5df"

WORKER = r"""
import json, statistics, sys, time
from raten.engine.state import State
from raten.trees.search import Searcher
from raten.wordlists.presets import load_words

runs = int(sys.argv[1])
en = load_words("en")
State(en).hints(top=10)  # the table mapped, the kernel loaded

def clock():
    return time.perf_counter(), time.process_time()

def measure(fn):
    w0, c0 = clock()
    out = fn()
    w1, c1 = clock()
    return w1 - w0, c1 - c0, out

out = {}
rank = [measure(lambda: State(en).hints(top=10)) for _ in range(runs)]
out["openers"] = (statistics.median(r[0] for r in rank), statistics.median(r[1] for r in rank))
assert rank[0][2][0].word == "soare", rank[0][2][0]
for name, hard in (("salet", False), ("salet-hard", True)):
    wall, cpu, r = measure(lambda: Searcher(en, hard=hard).solve_opener("salet"))
    assert r.exact and (hard or r.total == 7920), (name, r.total)
    out[name] = (wall, cpu)
print(json.dumps(out))
"""


def base_source(commit: str) -> Path:
    """``git archive COMMIT src`` unpacked under .cache (once): main's package at that commit."""
    dest = ROOT / ".cache" / "bench-length" / commit
    if not (dest / "src" / "raten").is_dir():
        dest.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "src"], check=True, capture_output=True)
        subprocess.run(["tar", "-x", "-C", str(dest)], input=archive.stdout, check=True)
    return dest / "src"


def run(src: Path, runs: int) -> dict[str, tuple[float, float]]:
    env = {**os.environ, "PYTHONPATH": str(src)}
    done = subprocess.run(
        [sys.executable, "-c", WORKER, str(runs)], env=env, capture_output=True, text=True, check=False, cwd=src
    )
    if done.returncode:
        raise SystemExit(f"the run on {src} failed:\n{done.stderr[-2000:]}")
    return {k: tuple(v) for k, v in json.loads(done.stdout.strip().splitlines()[-1]).items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default=BASE, help="the commit compared with (default: %(default)s)")
    parser.add_argument("--repeat", type=int, default=5, help="measured processes per side")
    parser.add_argument("--rank-runs", type=int, default=9, help="opener rankings per process")
    args = parser.parse_args()
    sides = {"base": base_source(args.base), "this": ROOT / "src"}
    for src in sides.values():  # compile or load the kernels, unmeasured
        run(src, 1)
    results: dict[str, list[dict[str, tuple[float, float]]]] = {k: [] for k in sides}
    for _ in range(args.repeat):
        for side, src in sides.items():
            results[side].append(run(src, args.rank_runs))
    print(f"base {args.base} against this checkout, {args.repeat} processes each, medians")
    print(f"{'task':<12}{'base wall':>11}{'base CPU':>10}{'this wall':>11}{'this CPU':>10}{'wall ×':>8}{'CPU ×':>7}")
    for task in results["base"][0]:
        med = {side: [statistics.median(r[task][i] for r in results[side]) for i in (0, 1)] for side in results}
        (bw, bc), (tw, tc) = med["base"], med["this"]
        print(f"{task:<12}{bw:>10.3f}s{bc:>9.3f}s{tw:>10.3f}s{tc:>9.3f}s{tw / bw:>8.2f}{tc / bc:>7.2f}")


if __name__ == "__main__":
    main()
