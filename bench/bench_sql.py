"""Benchmark the SQL face on en: size and build time of each (engine, schema), and the
time of the solver queries, side by side with the engine's time for the same answers.

    .venv/bin/python bench/bench_sql.py [--dir DIR] [--repeat N] [--json]

Every SQL answer is checked against the engine's before its time is printed. Times are
the best of --repeat runs, wall clock and CPU (user + system of this process, all
threads): on a shared machine the CPU time is the steadier figure. The load average is
printed for the same reason.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from raten.engine.matrix import load_matrix
from raten.engine.state import State
from raten.sql import ENGINES, SCHEMAS, SqlDatabase, build_database
from raten.wordlists.presets import load_words

#: The limits the issue sets: file size in MB, build and query times in seconds.
LIMITS = {
    ("sqlite", "classic"): 350,
    ("sqlite", "compact"): 40,
    ("duckdb", "classic"): 60,
    ("duckdb", "compact"): 60,
}
BUILD_LIMIT = 60.0
OPENERS_LIMIT = {"sqlite": 10.0, "duckdb": 1.0}
NEXT_LIMIT = 1.0
CRANE = [("crane", "⬜⬜🟨🟩⬜")]  # 20 answers left: the example
SOARE = [("soare", "⬜⬜⬜⬜⬜")]  # 183 answers left: the largest group of the best opener


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def timed(fn: Callable, repeat: int):
    """(result, best wall seconds, best CPU seconds) over ``repeat`` runs."""
    walls, cpus, result = [], [], None
    for _ in range(repeat):
        c, t = cpu_seconds(), time.perf_counter()
        result = fn()
        walls.append(time.perf_counter() - t)
        cpus.append(cpu_seconds() - c)
    return result, min(walls), min(cpus)


def same(sql_hints, engine_hints) -> bool:
    return [(h.word, round(h.bits, 9), h.candidate, h.patterns, h.largest) for h in sql_hints] == [
        (h.word, round(h.bits, 9), h.candidate, h.patterns, h.largest) for h in engine_hints
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", type=Path, help="Where to build the databases (default: a temporary folder).")
    parser.add_argument("--repeat", type=int, default=3, help="Runs per query; the best is kept.")
    parser.add_argument("--json", action="store_true", help="Print the figures as JSON too.")
    args = parser.parse_args()

    words = load_words("en")
    load_matrix(words)  # the matrix cache is shared by the engine and the builds: warm it
    print(
        f"en: {len(words.allowed)} guesses x {len(words.solutions)} answers; {os.cpu_count()} CPUs; "
        f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}",
        flush=True,
    )

    engine_state = State(words)
    engine_state.hints(top=1)  # compile the kernels before timing
    eng = {}
    eng["openers"], w, c = timed(lambda: engine_state.hints(top=10), args.repeat)
    eng["openers_s"] = (w, c)
    for name, moves in (("crane", CRANE), ("soare", SOARE)):
        state = engine_state.replay(moves)
        eng[name], w, c = timed(lambda s=state: s.hints(top=10), args.repeat)
        eng[f"{name}_s"] = (w, c)
        eng[f"{name}_left"] = state.candidate_words

    rows = []
    with tempfile.TemporaryDirectory(prefix="raten-bench-sql-") as tmp:
        folder = args.dir or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        for engine in ENGINES:
            for schema in SCHEMAS:
                path = folder / f"en-{schema}.{engine}"
                c = cpu_seconds()
                report = build_database(words, path, engine, schema, force=True)
                row = {
                    "engine": engine,
                    "schema": schema,
                    "size_mb": report.size_bytes / 1e6,
                    "build_s": report.seconds,
                    "build_cpu_s": cpu_seconds() - c,
                }
                with SqlDatabase(path) as db:
                    hints, w, c = timed(lambda db=db: db.openers(10), args.repeat)
                    row.update(openers_s=w, openers_cpu_s=c, openers_ok=same(hints, eng["openers"]))
                    for name, moves in (("crane", CRANE), ("soare", SOARE)):
                        left = db.remaining(moves)
                        hints, w, c = timed(lambda db=db, m=moves: db.next_guesses(m, 10), args.repeat)
                        ok = left == eng[f"{name}_left"] and same(hints, eng[name])
                        row.update({f"next_{name}_s": w, f"next_{name}_cpu_s": c, f"next_{name}_ok": ok})
                rows.append(row)
                print(f"  built and queried {engine} {schema}", flush=True)

    print()
    header = (
        "| engine | schema | size MB | build s | openers s (cpu) | next after crane s (cpu) "
        "| next after soare s (cpu) | same answers |"
    )
    print(header)
    print("|---|---|---:|---:|---:|---:|---:|---|")
    for r in rows:
        ok = r["openers_ok"] and r["next_crane_ok"] and r["next_soare_ok"]
        print(
            f"| {r['engine']} | {r['schema']} | {r['size_mb']:.1f} | {r['build_s']:.1f} "
            f"| {r['openers_s']:.2f} ({r['openers_cpu_s']:.2f}) "
            f"| {r['next_crane_s']:.2f} ({r['next_crane_cpu_s']:.2f}) "
            f"| {r['next_soare_s']:.2f} ({r['next_soare_cpu_s']:.2f}) | {'yes' if ok else 'NO'} |"
        )
    print(
        f"| engine (numpy/numba) | in memory | - | - | {eng['openers_s'][0]:.2f} ({eng['openers_s'][1]:.2f}) "
        f"| {eng['crane_s'][0]:.3f} ({eng['crane_s'][1]:.3f}) | {eng['soare_s'][0]:.3f} ({eng['soare_s'][1]:.3f}) | - |"
    )
    print()
    failures = []
    for r in rows:
        key = (r["engine"], r["schema"])
        checks = [
            (r["size_mb"] <= LIMITS[key], f"size {r['size_mb']:.1f} MB <= {LIMITS[key]}"),
            (r["build_s"] <= BUILD_LIMIT, f"build {r['build_s']:.1f} s <= {BUILD_LIMIT:.0f}"),
            (
                r["openers_s"] <= OPENERS_LIMIT[r["engine"]],
                f"openers {r['openers_s']:.2f} s <= {OPENERS_LIMIT[r['engine']]:.0f}",
            ),
            (r["next_crane_s"] <= NEXT_LIMIT, f"next after crane {r['next_crane_s']:.2f} s <= {NEXT_LIMIT:.0f}"),
        ]
        for ok, text in checks:
            if not ok:
                failures.append(f"{key[0]} {key[1]}: {text} fails")
    print("\n".join(failures) if failures else "every figure within the issue's limits")
    print(f"load average now {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    if args.json:
        print(json.dumps({"layouts": rows, "engine": {k: v for k, v in eng.items() if k.endswith("_s")}}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
