"""What numba's digest-named, locked cache (``raten.engine.jitcache``) costs at start-up: this
checkout against an older commit, side by side in one run.

    .venv/bin/python bench/bench_jitcache.py --old 8b3ed8c --runs 9

Each run is a fresh process that imports the tree search's kernels and calls two of them once
from a warm cache (``trees.kernels.perfect_splitter``, whose machine code carries no callee, and
``engine.hardmode.letter_counts``): numba's import, the cache folder's digest, the locked index
read and the load. Runs alternate old, new, old, new ... Prints min and median of the process's
CPU seconds (user + system, which a busy machine disturbs less than wall time) and of wall time.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_startup import export_old

REPO = Path(__file__).resolve().parents[1]
CODE = """
import numpy as np
import raten.trees.kernels as tk
from raten.engine import hardmode
tk.perfect_splitter(np.zeros((3, 4), np.uint8), np.arange(3, dtype=np.int32), np.arange(4, dtype=np.int32), 243)
hardmode.letter_counts(np.zeros((2, 5), np.uint8), 26)
"""


def run_once(src: Path, cache: Path) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one process."""
    env = dict(os.environ, PYTHONPATH=str(src))
    env.pop("NUMBA_CACHE_DIR", None)
    env["XDG_CACHE_HOME"] = str(cache)  # the new side's folder; the old side keeps numba's in-tree one
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", CODE], env=env, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", default="8b3ed8c", help="commit to compare against (default: %(default)s)")
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    sides = {f"old ({args.old})": export_old(args.old) / "src", "this checkout": REPO / "src"}
    caches = {name: Path(tempfile.mkdtemp(prefix="raten-bench-jit-")) for name in sides}
    for name, src in sides.items():  # warm-up: compiles and fills each side's cache
        run_once(src, caches[name])
    cpu: dict[str, list[float]] = {n: [] for n in sides}
    wall: dict[str, list[float]] = {n: [] for n in sides}
    for _ in range(args.runs):
        for name, src in sides.items():
            c, w = run_once(src, caches[name])
            cpu[name].append(c)
            wall[name].append(w)
    print(f"{args.runs} runs each, load average {os.getloadavg()[0]:.1f}; min / median")
    for name in sides:
        print(
            f"{name:>20}: CPU {min(cpu[name]):.3f} / {statistics.median(cpu[name]):.3f} s, "
            f"wall {min(wall[name]):.3f} / {statistics.median(wall[name]):.3f} s"
        )


if __name__ == "__main__":
    main()
