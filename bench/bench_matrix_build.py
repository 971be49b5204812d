"""Building a large matrix into the cache: whole in memory, then written (before) against block by
block straight into the file (after), side by side in one run, each in a fresh process.

    .venv/bin/python bench/bench_matrix_build.py            # en-nyt, every accepted word an answer
    .venv/bin/python bench/bench_matrix_build.py --runs 3

Prints the seconds to a usable mapped table and the peak anonymous memory (RssAnon sampled
every 5 ms, above the interpreter with numpy and the kernels loaded): the table's own bytes
held at once, not the page cache a memory map also counts.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile

CHILD = r"""
import json, sys, threading, time
import numpy as np
from raten.engine import cache, kernels, matrix
from raten.wordlists.presets import load_words

peak = [0]
def watch():
    while True:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("RssAnon"):
                    peak[0] = max(peak[0], int(line.split()[1]))
        time.sleep(0.005)
threading.Thread(target=watch, daemon=True).start()
words = load_words(sys.argv[1])
kernels.feedback_matrix(words.allowed_letters[:1], words.solution_letters[:1])  # compiled or cached
time.sleep(0.05)
base = peak[0]
t = time.perf_counter()
if sys.argv[2] == "whole":  # the code before: build it all, write it, map it
    path = matrix.cache_path(words)
    cache.write_entry(path, matrix.build_matrix(words), words.fingerprint, {})
    cache.read_entry(path, (len(words.allowed), len(words.solutions)), words.fingerprint)
else:
    matrix.load_matrix(words)
seconds = time.perf_counter() - t
time.sleep(0.02)
print(json.dumps({"seconds": seconds, "mb": (peak[0] - base) / 1024}))
"""


def run(list_name: str, how: str) -> dict:
    with tempfile.TemporaryDirectory() as cache_dir:
        env = {"RATEN_CACHE_DIR": cache_dir, "PATH": "/usr/bin:/bin"}
        out = subprocess.run(
            [sys.executable, "-c", CHILD, list_name, how], env=env, capture_output=True, text=True, check=True
        )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--words", default="en-nyt")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(f"{args.words}: seconds to a mapped table, peak MB of the table held in memory (min of {args.runs})")
    variants = {"whole": "before: whole, then written", "blocks": "after: 16 MB blocks into the file"}
    runs: dict[str, list[dict]] = {how: [] for how in variants}
    for _ in range(args.runs):  # interleaved, so a busy spell of the machine hits both alike
        for how in variants:
            runs[how].append(run(args.words, how))
    for how, label in variants.items():
        seconds, mb = min(r["seconds"] for r in runs[how]), min(r["mb"] for r in runs[how])
        print(f"  {label:36} {seconds:6.2f} s {mb:7.1f} MB")


if __name__ == "__main__":
    main()
