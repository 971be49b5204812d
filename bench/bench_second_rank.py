"""A process that ranks again (issue 27 item 15): the rankings of a small table in a fresh process,
with the kernel loader (``raten.engine.rank.KERNEL``: numpy for the first ranking, the compiled
kernel once the loader has loaded it behind) against the old rule (numpy for the whole process
while nothing imported numba, the loader switched off).

    .venv/bin/python bench/bench_second_rank.py              # 5 processes of each, en after CRANE
    .venv/bin/python bench/bench_second_rank.py --list de --guess tarne --processes 9

Each process ranks the same state ``--rankings`` times, ``--pause`` seconds apart (a person at
``raten solve`` or a notebook takes longer than that between two hints), and reports each
ranking's milliseconds. The matrix cache is filled first, so no process builds a table (building
imports numba). Prints the median over the processes of each ranking, old and new side by side,
and checks that every ranking of every process gave the same hints.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

CHILD = """
import json, sys, time
from raten.engine import rank
from raten.engine.state import State
from raten.wordlists.presets import load_words

name, guess, rankings, pause, loader = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
if loader == "off":
    rank.KERNEL.start = lambda *args: None  # the old rule: numpy while nothing imported numba
state = State(load_words(name)).after(guess, 0)
times, hints = [], []
for i in range(rankings):
    if i:
        time.sleep(pause)
    start = time.perf_counter()
    ranked = state.hints(top=10)
    times.append(1000 * (time.perf_counter() - start))
    hints.append([h.word for h in ranked])
print(json.dumps({"ms": times, "hints": hints, "cells": len(state.guess_rows()) * state.count}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--list", default="en")
    parser.add_argument("--guess", default="crane", help="the state ranked: this guess, all grey")
    parser.add_argument("--processes", type=int, default=5)
    parser.add_argument("--rankings", type=int, default=6)
    parser.add_argument("--pause", type=float, default=1.0)
    args = parser.parse_args()

    from raten.engine.matrix import load_matrix
    from raten.wordlists.presets import load_words

    load_matrix(load_words(args.list))  # the cache the children read
    runs: dict[str, list[dict]] = {"off": [], "on": []}
    for _ in range(args.processes):
        for loader in ("off", "on"):  # alternating, so a drift in the machine's speed hits both
            out = subprocess.run(
                [sys.executable, "-c", CHILD, args.list, args.guess, str(args.rankings), str(args.pause), loader],
                capture_output=True,
                text=True,
                check=True,
                env=os.environ,
            )
            runs[loader].append(json.loads(out.stdout))
    every = {json.dumps(h) for side in runs.values() for r in side for h in r["hints"]}
    cells = runs["on"][0]["cells"]
    print(
        f"{args.list} after {args.guess.upper()} (all grey): {cells} cells, {args.processes} processes each, "
        f"rankings {args.pause:g} s apart; load average {os.getloadavg()[0]:.2f}"
    )
    print("ranking   old rule (numpy throughout)   with the loader")
    for i in range(args.rankings):
        old = statistics.median(r["ms"][i] for r in runs["off"])
        new = statistics.median(r["ms"][i] for r in runs["on"])
        print(f"{i + 1:>7}   {old:>21.1f} ms   {new:>12.1f} ms")
    print("every ranking the same hints:", "yes" if len(every) == 1 else f"NO ({len(every)} different)")


if __name__ == "__main__":
    main()
