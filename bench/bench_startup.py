"""Start-up benchmark: the whole process of short `raten` commands, this checkout against an
older commit (default ``e43b68e``, the last one before the package was split into
subpackages), side by side in one run.

    .venv/bin/python bench/bench_startup.py               # 10 runs of each, after a warm-up
    .venv/bin/python bench/bench_startup.py --runs 20 --old e43b68e

The old code is exported with ``git archive`` into a folder under the temporary directory
(kept, so its numba cache survives between calls). Both sides run the same launcher, this
interpreter with ``PYTHONPATH=<side>/src``, and the script first prints which ``raten``
each side imported, so the figures are known to come from the code they name. Each side has
its own matrix cache (``RATEN_CACHE_DIR``), filled by the warm-up: the hint is timed with a
warm cache. Runs alternate old, new, old, new ... so a drift in the machine's speed hits
both alike. Prints min and median wall seconds of each, the ratio of the medians, and
yardsticks no start-up can beat: the bare interpreter, ``import click``, ``import numba``,
and numba plus loading one cached kernel (the least a hint does).
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
LAUNCHER = "import sys; from raten.cli import main; sys.exit(main())"
COMMANDS = {
    "raten --version": ["--version"],
    "raten --help": ["--help"],
    "raten score crane react": ["score", "crane", "react"],
    "raten hint --words en crane=..?!.": ["hint", "--words", "en", "crane=..?!."],
}
# Floors no raten start-up can go below: the bare interpreter, and the imports a hint needs.
YARDSTICKS = {
    "python -c pass": "pass",
    "python -c 'import click'": "import click",
    "python -c 'import numba'": "import numba",
}
# What a hint cannot do without: import numba, load one cached parallel kernel, call it.
NUMBA_FLOOR = """\
import numpy as np
from numba import njit, prange


@njit(parallel=True, cache=True)
def total(x):
    s = 0
    for i in prange(x.shape[0]):
        s += x[i]
    return s


total(np.arange(10))
"""


def export_old(commit: str) -> Path:
    """``src/`` of ``commit`` in a kept folder; returns that folder."""
    sha = subprocess.run(
        ["git", "-C", str(REPO), "rev-parse", "--short=12", commit], capture_output=True, text=True, check=True
    ).stdout.strip()
    root = Path(tempfile.gettempdir()) / "raten-bench-startup" / sha
    if not (root / "src" / "raten").is_dir():
        archive = subprocess.run(["git", "-C", str(REPO), "archive", sha, "src"], capture_output=True, check=True)
        root.mkdir(parents=True, exist_ok=True)
        with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
            tar.extractall(root, filter="data")
    return root


def environment(root: Path, cache: Path) -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(root / "src"), RATEN_CACHE_DIR=str(cache))
    env.pop("PYTHONSTARTUP", None)
    return env


def imported_from(env: dict[str, str]) -> str:
    """Which raten a side's launcher imports."""
    code = "import raten.cli, raten; print(raten.__file__)"
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return proc.stdout.strip()


def run_once(args: list[str], env: dict[str, str], code: str = LAUNCHER) -> float:
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", code, *args], env=env, capture_output=True)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"{code} {' '.join(args)} failed ({proc.returncode}):\n{proc.stderr.decode()}")
    return elapsed


def cell(times: list[float]) -> str:
    return f"{min(times):.3f} / {statistics.median(times):.3f} s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--old", default="e43b68e", help="commit to compare against (default: %(default)s)")
    parser.add_argument("--runs", type=int, default=10, help="timed runs of each command on each side")
    parser.add_argument("--warmup", type=int, default=2, help="untimed runs first (they fill the caches)")
    opts = parser.parse_args()

    old_root = export_old(opts.old)
    sides = {
        f"old {opts.old}": environment(old_root, old_root / "matrix-cache"),
        "new (this checkout)": environment(REPO, old_root / "matrix-cache-new"),
    }
    for name, env in sides.items():
        print(f"{name}: {imported_from(env)}")
    print(f"{opts.runs} runs each after {opts.warmup} warm-up, wall seconds of the whole process")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print()

    floor = old_root / "numba_floor.py"
    floor.write_text(NUMBA_FLOOR)
    yardsticks = {**YARDSTICKS, "numba + one cached kernel": f"import runpy; runpy.run_path({str(floor)!r})"}
    width = max(map(len, [*COMMANDS, *yardsticks]))
    print(f"{'command':<{width}}  " + "  ".join(f"{name:>24}" for name in sides) + "  new/old")
    print(f"{'':<{width}}  " + "  ".join(f"{'min / median':>24}" for _ in sides) + "  (medians)")
    for label, args in COMMANDS.items():
        for env in sides.values():
            for _ in range(opts.warmup):
                run_once(args, env)
        times: dict[str, list[float]] = {name: [] for name in sides}
        for _ in range(opts.runs):
            for name, env in sides.items():
                times[name].append(run_once(args, env))
        old, new = (statistics.median(t) for t in times.values())
        print(f"{label:<{width}}  " + "  ".join(f"{cell(t):>24}" for t in times.values()) + f"  {new / old:7.2f}")
    for label, code in yardsticks.items():
        env = sides["new (this checkout)"]
        for _ in range(opts.warmup):
            run_once([], env, code)
        print(f"{label:<{width}}  {cell([run_once([], env, code) for _ in range(opts.runs)]):>50}")
    print()
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
