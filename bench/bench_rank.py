"""Benchmark of the ranking engine against a plain-Python reference, in one run.

Figures (median and best of ``--repeat`` warm runs):

- openers of every list: ``State(matrix).hints(top=10)`` over all allowed guesses × all solutions,
  for English (12972 × 2315), the 6mal5 German reference lists (3827 × 1070, from
  ../shared/data/de, tests only) and the built-in ``de`` preset when it has been built;
- a hint after one guess: ``State(matrix).after(guess, pattern).hints(top=10)``;
- building the English matrix (the compiled kernel, warm), and loading it from the cache;
- ``raten hint --words en crane=..?!.`` as a whole process with a warm cache;
- the plain-Python reference (feedback of every pair, a dictionary histogram, ``math.log2``)
  ranking the 6mal5 openers. By default it runs on every ``--reference-stride``-th allowed
  guess against all 1070 solutions and is scaled up by (all guesses / guesses timed): its cost
  is the same for every guess, so the scaling is linear. ``--full-reference`` runs all of them
  (about a minute) and also compares the whole top ten. Two plain-Python feedback functions
  are timed: ``tests/reference.py``'s ``ref_code`` (an independent algorithm) and the core's
  ``raten.engine.feedback.pattern``; the speed-up is stated against the faster one.

The fast figures are checked against the reference (same bits for every guess timed, same
best guess) and against the published openers, so a fast but wrong engine does not pass.

Run: ``.venv/bin/python bench/bench_rank.py`` (``--help`` for options). Timings on a shared
machine are noisy: the load average is printed with the figures.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED_DE = REPO.parent / "shared" / "data" / "de"
sys.path.insert(0, str(REPO / "tests"))  # the one copy of the plain-Python reference

import numba
import numpy as np

import raten
from raten.compat import feedback
from raten.engine import matrix as matrix_mod
from raten.engine.feedback import pattern
from raten.engine.matrix import PatternMatrix, build_matrix, load_matrix
from raten.engine.rank import split_stats
from raten.engine.state import State
from raten.engine.words import WordSet
from raten.errors import RatenError
from raten.wordlists.files import read_word_file
from raten.wordlists.presets import load_preset
from reference import ref_code

PUBLISHED_EN_TOP = ["soare", "roate", "raise", "raile", "reast", "slate", "crate", "salet", "irate", "trace"]


@dataclass
class Figure:
    """One measured figure: name, times in seconds, an optional target and a note."""

    name: str
    times: list[float]
    target: float | None = None
    note: str = ""
    cpu: list[float] = field(default_factory=list)

    @property
    def median(self) -> float:
        return statistics.median(self.times)

    @property
    def best(self) -> float:
        return min(self.times)

    @property
    def cpu_median(self) -> float | None:
        return statistics.median(self.cpu) if self.cpu else None

    @property
    def status(self) -> str:
        if self.target is None:
            return ""
        return "ok" if self.median <= self.target else "MISSED"


def timed(fn: Callable[[], object], repeat: int, warmup: int = 1) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU seconds (all threads of this process) of ``repeat`` calls after ``warmup`` untimed ones."""
    for _ in range(warmup):
        fn()
    wall, cpu = [], []
    for _ in range(repeat):
        c = time.process_time()
        t = time.perf_counter()
        fn()
        wall.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    return wall, cpu


def figure(name: str, fn: Callable[[], object], repeat: int, target: float | None = None, note: str = "") -> Figure:
    wall, cpu = timed(fn, repeat)
    return Figure(name, wall, target, note, cpu)


def fmt(seconds: float) -> str:
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds * 1e6:.0f} µs"


def load_lists() -> dict[str, WordSet]:
    """English, the 6mal5 reference lists when present, the de preset when built."""
    lists = {"en": raten.load_words("en")}
    if (SHARED_DE / "solutions.txt").exists():
        lists["6mal5"] = WordSet.from_lists(
            read_word_file(SHARED_DE / "solutions.txt"),
            read_word_file(SHARED_DE / "allowed.txt"),
            name="6mal5",
            language="de",
        )
    else:
        print(f"note: {SHARED_DE} is not there; the German reference figures are skipped")
    try:
        lists["de"] = load_preset("de")
    except RatenError as e:
        print(f"note: the de preset is skipped ({e})")
    return lists


def first_move(words: WordSet) -> tuple[str, str]:
    """A realistic first move: the best opener's published guess for en, RATEN for German lists,
    with the pattern of a fixed answer (the middle solution), so every run measures the same."""
    guess = "crane" if words.language == "en" else "raten"
    if words.name == "en":
        return guess, "..?!."
    answer = words.solutions[len(words.solutions) // 2]
    return guess, feedback(guess, answer)


def reference_openers(words: WordSet, stride: int, code: Callable[[str, str], int]) -> tuple[float, list[str], dict]:
    """Plain-Python entropy of every ``stride``-th allowed guess: (seconds, guesses, bits by guess)."""
    guesses = list(words.allowed[::stride])
    sols = words.solutions
    n = len(sols)
    bits = {}
    t = time.perf_counter()
    for g in guesses:
        hist: dict[int, int] = {}
        for a in sols:
            c = code(g, a)
            hist[c] = hist.get(c, 0) + 1
        bits[g] = -sum(k / n * math.log2(k / n) for k in hist.values())
    return time.perf_counter() - t, guesses, bits


def process_times(args: list[str], repeat: int) -> list[float]:
    """Wall time of a whole process (one untimed run first, so caches are warm)."""
    times = []
    for i in range(repeat + 1):
        t = time.perf_counter()
        proc = subprocess.run(args, capture_output=True, text=True)
        elapsed = time.perf_counter() - t
        if proc.returncode != 0:
            raise SystemExit(f"{' '.join(args)} failed:\n{proc.stderr}")
        if i:
            times.append(elapsed)
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=15, help="timed runs per figure (median reported)")
    parser.add_argument("--reference-stride", type=int, default=10, help="time the reference on every K-th guess")
    parser.add_argument("--full-reference", action="store_true", help="run the reference on every guess (slow)")
    parser.add_argument("--process-repeat", type=int, default=7, help="timed runs of the whole `raten hint` process")
    parser.add_argument("--json", type=Path, help="also write the figures to this JSON file")
    args = parser.parse_args(argv)
    stride = 1 if args.full_reference else max(1, args.reference_stride)
    repeat = max(1, args.repeat)

    print(
        f"raten {raten.__version__}, numpy {np.__version__}, numba {numba.__version__}, "
        f"{os.cpu_count()} CPUs, numba threads {numba.get_num_threads()} ({numba.config.THREADING_LAYER}), "
        f"load average {os.getloadavg()[0]:.2f} at start"
    )
    figures: list[Figure] = []
    problems: list[str] = []
    lists = load_lists()

    # --- the English matrix: build (kernel, warm) and load from the cache ----------------------
    en = lists["en"]
    figures.append(figure("build en matrix 12972×2315", lambda: build_matrix(en), max(3, repeat // 3), 2.0))

    def cold_load() -> None:
        matrix_mod._LOADED.clear()
        load_matrix(en)

    figures.append(figure("load en matrix from cache", cold_load, repeat, None, "mmap + 258 spot checks"))

    # --- openers and a hint after one guess, every list ----------------------------------------
    fast_openers: dict[str, float] = {}
    for name, words in lists.items():
        pm: PatternMatrix = load_matrix(words)
        shape = f"{len(words.allowed)}×{len(words.solutions)}"
        top: list = []

        def openers(pm: PatternMatrix = pm, top: list = top) -> None:
            top[:] = State(pm).hints(top=10)

        target = {"en": 0.100, "6mal5": 0.015}.get(name)
        fig = figure(f"openers {name} {shape}", openers, repeat, target)
        fig.note = f"best {top[0].word} {top[0].bits:.4f}"
        figures.append(fig)
        fast_openers[name] = fig.median
        if name == "en" and [h.word for h in top] != PUBLISHED_EN_TOP:
            problems.append(f"en openers differ from the published top ten: {[h.word for h in top]}")
        if name == "6mal5" and (top[0].word, round(top[0].bits, 4)) != ("sarte", 5.8835):
            problems.append(f"6mal5 best opener is {top[0].word} {top[0].bits:.4f}, published SARTE 5.8835")

        guess, pat = first_move(words)
        after: list = []

        def hint(pm: PatternMatrix = pm, guess: str = guess, pat: str = pat, after: list = after) -> None:
            state = State(pm).after(guess, pat)
            after[:] = [state.count, state.hints(top=10)[0]]

        fig = figure(f"hint after {guess}={pat} ({name})", hint, repeat * 4, 0.002 if name == "en" else None)
        fig.note = f"{after[0]} left, best {after[1].word} {after[1].bits:.4f}"
        figures.append(fig)

    # --- the whole process ---------------------------------------------------------------------
    exe = shutil.which("raten", path=str(Path(sys.executable).parent))
    cmd = [exe] if exe else [sys.executable, "-m", "raten"]
    cmd += ["hint", "--words", "en", "crane=..?!."]
    n = max(1, args.process_repeat)
    figures.append(Figure("`raten hint` process, warm cache", process_times(cmd, n), 1.0, "raten " + " ".join(cmd[1:])))
    # what no raten code can go under: the interpreter with the imports alone
    for module in ("numba", "raten.cli.main"):
        times = process_times([sys.executable, "-c", f"import {module}"], n)
        figures.append(Figure(f"  floor: python -c 'import {module}'", times, None, "imports only"))

    # --- the plain-Python reference on the 6mal5 openers ----------------------------------------
    ref_rows = []
    if "6mal5" in lists:
        words = lists["6mal5"]
        pm = load_matrix(words)
        total = len(words.allowed)
        fast_bits = split_stats(pm.data, np.arange(total), np.arange(len(words.solutions))).bits
        for label, code in (("tests/reference.py ref_code", ref_code), ("raten.engine.feedback.pattern", pattern)):
            seconds, guesses, bits = reference_openers(words, stride, code)
            scaled = seconds * total / len(guesses)
            worst = max(abs(bits[g] - fast_bits[words.allowed_index[g]]) for g in guesses)
            if worst > 1e-9:
                problems.append(f"reference ({label}) and kernel disagree by {worst:.2e} bits")
            best_ref = min(guesses, key=lambda g: (-round(bits[g], 9), g not in words.solution_index, g))
            best_fast = min(
                guesses, key=lambda g: (-round(fast_bits[words.allowed_index[g]], 9), g not in words.solution_index, g)
            )
            if best_ref != best_fast:
                problems.append(f"reference best {best_ref} differs from the kernel's {best_fast}")
            if stride == 1:
                ref_top = sorted(guesses, key=lambda g: (-round(bits[g], 9), g not in words.solution_index, g))[:10]
                fast_top = [h.word for h in State(pm).hints(top=10)]
                if ref_top != fast_top:
                    problems.append(f"reference top ten {ref_top} differs from the kernel's {fast_top}")
            ref_rows.append((label, seconds, len(guesses), scaled, worst, best_ref))

    # --- report ----------------------------------------------------------------------------------
    width = max(len(f.name) for f in figures) + 2
    print()
    print(f"{'figure':<{width}}{'median':>10}{'best':>10}{'cpu':>10}{'target':>10}  {'':7}note")
    print("-" * (width + 60))
    for f in figures:
        target = fmt(f.target) if f.target is not None else ""
        cpu = fmt(f.cpu_median) if f.cpu_median is not None else ""
        print(f"{f.name:<{width}}{fmt(f.median):>10}{fmt(f.best):>10}{cpu:>10}{target:>10}  {f.status:7}{f.note}")
    print("(wall-clock median and best of warm runs; cpu: median CPU time of this process, all threads)")
    speedups = {}
    if ref_rows:
        fast = fast_openers["6mal5"]
        total = len(lists["6mal5"].allowed)
        print()
        print(f"plain-Python reference, 6mal5 openers ({total}×{len(lists['6mal5'].solutions)}):")
        for label, seconds, n, scaled, worst, best in ref_rows:
            if n == total:
                how = f"all {total} guesses (top ten compared too)"
            else:
                how = f"{n} guesses (every {stride}th) -> {fmt(scaled)} for all, scaled ×{total / n:.2f}"
            speedups[label] = scaled / fast
            print(
                f"  {label:<28} {fmt(seconds):>9} for {how}; "
                f"kernel {fmt(fast)} is {scaled / fast:,.0f}× faster; max |Δbits| {worst:.1e}; best {best}"
            )
        conservative = min(speedups.values())
        status = "ok" if conservative >= 400 else "MISSED"
        print(f"  speed-up against the faster reference: {conservative:,.0f}× (target ≥ 400×) {status}")
        if conservative < 400:
            problems.append(f"speed-up {conservative:.0f}× is under 400×")
    missed = [f.name for f in figures if f.status == "MISSED"]
    print()
    print(f"load average {os.getloadavg()[0]:.2f} at the end")
    for p in problems:
        print(f"PROBLEM: {p}")
    print(f"targets missed: {', '.join(missed)}" if missed else "all timing targets met")
    if args.json:
        doc = {
            "figures": [
                {
                    "name": f.name,
                    "median_s": f.median,
                    "best_s": f.best,
                    "cpu_median_s": f.cpu_median,
                    "target_s": f.target,
                    "note": f.note,
                }
                for f in figures
            ],
            "reference": [
                {"feedback": label, "seconds": s, "guesses": n, "scaled_s": sc, "max_abs_bits": w, "best": b}
                for label, s, n, sc, w, b in ref_rows
            ],
            "speedups": speedups,
            "problems": problems,
        }
        args.json.write_text(json.dumps(doc, indent=2))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
