"""Benchmark of the exact tree search: proof times for known openers (prints figures, asserts nothing).

    .venv/bin/python bench/bench_tree.py            # English SALET, normal and hard mode
    .venv/bin/python bench/bench_tree.py --german   # also the 6mal5 and de best openers
    .venv/bin/python bench/bench_tree.py --selby /tmp/selby --repeat 3   # side by side, whole processes
    .venv/bin/python bench/bench_tree.py --selby /tmp/selby --sample 50  # refuting 50 sampled openers
    nice .venv/bin/python bench/bench_tree.py --prior de:tarne   # one opener, uniform and frequency prior

Each line: list, mode, opener, the proven optimal total, average, worst case, distribution,
wall and CPU seconds (compile excluded: the kernels are warmed on a tiny list first).

``--prior LIST:OPENER``: the proof of one opener under the uniform prior and then under the
frequency prior (every allowed word a possible answer, weighted; ``raten.trees.weights``), in
one run; under the prior "total" is the weighted total and "avg" the expected guesses.

``--selby DIR``: Alex Selby's solver (github.com/alex1770/wordle, checked out and built with
its own Makefile in DIR, not part of this repository) against raten, one opener's proof as a
whole process each, on the same lists (``-a wordlist_orig_all -h wordlist_orig_hidden`` are
``--words en``): SALET, CRANE, SALET hard. Runs alternate between the solvers, ``--repeat``
times; printed are the median and least wall seconds, the median CPU seconds (user + system:
on a shared machine the figure a load inflates least) and the peak memory of each process
(all three by GNU time, ``/usr/bin/time``: measured through this process's own children, a peak
would include this process's memory, which a child starts as a copy of).
raten runs three ways: ``start-up`` (import, lists, feedback table, kernels loaded from the
numba cache, no search), ``proof`` (the least total and its tree, what Selby's ``-w`` does)
and ``raten tree --opener`` (also the least worst case among optimal trees).

``--selby DIR --sample 50``: instead, refutation of 50 openers drawn from the 12,972 English
allowed words (``random.Random(--seed).sample``, seed 15: the sample ``bench_refute.py`` draws)
against the cut-off 7921 (SALET's 7920 + 1): prove the total >= 7921, or find it exact below.
raten is one process over the 50 (``_REFUTE``: per opener what a ``raten tree --best`` job
does, the one-level bound ``opener_level_bound(opener, 7921)``, then when it is below,
``solve_opener(opener, 7921)``), fed one opener at a time on stdin; Selby's solver is one
process per opener, ``-w OPENER -b 7921`` (its cut-off: a result >= beta is a lower bound).
The two alternate opener by opener. Printed per opener and as totals and medians: Selby's
whole process and its own "Time taken" (CPU s of the search, set-up excluded), raten's
in-process wall and CPU, and raten's whole process (start-up included; its wall is the run's
elapsed time less Selby's processes, as raten waits on stdin meanwhile). A DISAGREE flags an
opener one solver refutes and the other finds exact (or two different exact totals). Then, for the same
comparison as one process each, Selby's ``-t FILE -s -b 7921`` over the 50 (one process,
its caches shared over the openers as raten's memo is).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
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


def run(words: WordSet, opener: str, hard: bool, limit: int | None, memo_bits: int = 21) -> None:
    start, cpu = time.perf_counter(), time.process_time()
    s = Searcher(words, hard=hard, max_guesses=limit, memo_bits=memo_bits)
    r = s.solve_opener(opener)
    solve_s, solve_cpu = time.perf_counter() - start, time.process_time() - cpu
    worst, _ = s.least_worst(opener, r.total, r.worst or 0)
    all_s = time.perf_counter() - start
    dist = " ".join(f"{k}:{v}" for k, v in sorted(r.distribution.items()))
    prior = ""
    if words.prior != "uniform":
        prior = f" {words.prior} prior, {len(words.solutions)} answers, weight {s.weight}"
    print(
        f"{words.name:7} {'hard' if hard else 'normal':6} max {limit or '-':2} {opener.upper():6}{prior} "
        f"total {r.total:5}  avg {r.total / s.weight:.4f}  worst {worst}  [{dist}]  "
        f"proof {solve_s:5.1f} s ({solve_cpu:4.1f} s CPU), with least worst {all_s:5.1f} s, {int(s.stats[0])} nodes",
        flush=True,
    )


#: The openers and modes measured side by side with Selby's solver.
SIDE_BY_SIDE = (("salet", False), ("crane", False), ("salet", True))

_START_UP = """
import sys
from raten.trees.search import Searcher
from raten.wordlists.presets import load_words
Searcher(load_words("en"), hard=sys.argv[1] == "hard", max_guesses=6)
from raten.engine.words import WordSet
w = WordSet.from_lists(["crane", "slate", "trace"], ["salet"], name="warm")
Searcher(w, hard=sys.argv[1] == "hard", max_guesses=6).solve_opener("salet")
print("total 0")
"""

_PROOF = """
import sys
from raten.trees.search import Searcher
from raten.wordlists.presets import load_words
r = Searcher(load_words("en"), hard=sys.argv[1] == "hard", max_guesses=6).solve_opener(sys.argv[2])
print("total", r.total)
"""


#: The cut-off of the sample: SALET's optimal total 7920, plus one.
SAMPLE_BETA = 7921

_REFUTE = """
import sys, time
from raten.engine.words import WordSet
from raten.trees.search import Searcher
from raten.wordlists.presets import load_words
beta = int(sys.argv[1])
s = Searcher(load_words("en"), max_guesses=6)
w = WordSet.from_lists(["crane", "slate", "trace"], ["salet"], name="warm")
ws = Searcher(w, max_guesses=6)
ws.solve_opener("salet"), ws.opener_level_bound("salet")
print("ready", flush=True)
for line in sys.stdin:
    t, c = time.perf_counter(), time.process_time()
    total, by = s.opener_level_bound(line.strip(), beta), "level-bound"
    if total < beta:
        total, by = s.solve_opener(line.strip(), beta).total, "search"
    print(total, by, time.perf_counter() - t, time.process_time() - c, flush=True)
"""


#: GNU time: a process forked from this one starts as a copy of it (numba and the lists: about
#: 170 MB), and the kernel keeps that in its peak memory across exec; a process forked from
#: time's small one does not. Its last line of output gives the figures.
GNU_TIME = Path("/usr/bin/time")


def _process(cmd: list[str], cwd: Path | None = None) -> tuple[float, float, float, str]:
    """(wall seconds, CPU seconds (user + system), peak memory MB, output) of one whole process,
    measured by GNU time (``GNU_TIME``)."""
    if not GNU_TIME.exists():
        raise SystemExit(f"{GNU_TIME} (GNU time) measures each process's peak memory: apt-get install time")
    with tempfile.TemporaryFile() as out:
        proc = subprocess.run(
            [str(GNU_TIME), "-f", "TIMED %e %U %S %M", *cmd], stdout=out, stderr=subprocess.STDOUT, cwd=cwd
        )
        out.seek(0)
        text = out.read().decode(errors="replace")
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({proc.returncode}):\n{text[-2000:]}")
    wall, user, system, peak_kb = (float(x) for x in re.findall(r"^TIMED (\S+) (\S+) (\S+) (\S+)$", text, re.M)[-1])
    return wall, user + system, peak_kb / 1024, text


def _total(text: str, pattern: str) -> int | None:
    m = re.search(pattern, text)
    return int(m.group(1)) if m else None


def side_by_side(selby: Path, repeat: int) -> None:
    """Selby's solver and raten, whole processes, alternating, on SALET, CRANE, SALET hard."""
    binary = selby / "wordle"
    if not binary.exists():
        raise SystemExit(f"{binary} not found: check out github.com/alex1770/wordle in {selby} and run make there")
    raten = [str(Path(sys.executable).with_name("raten"))]
    py = sys.executable
    print(f"machine: {os.cpu_count()} CPUs, load average {_load()}")
    for opener, hard in SIDE_BY_SIDE:
        mode = "hard" if hard else "normal"
        runs = {
            "Selby -w": (
                [
                    str(binary),
                    "-a",
                    "wordlist_orig_all",
                    "-h",
                    "wordlist_orig_hidden",
                    "-w",
                    opener,
                    *(["-H"] if hard else []),
                ],
                selby,
                r"Best first guess score = (\d+)",
            ),
            "raten start-up": ([py, "-c", _START_UP, mode], None, r"total (\d+)"),
            "raten proof": ([py, "-c", _PROOF, mode, opener], None, r"total (\d+)"),
            "raten tree --opener": (
                [*raten, "tree", "--words", "en", "--opener", opener, *(["--hard"] if hard else []), "--json"],
                None,
                r'"total": (\d+)',
            ),
        }
        walls: dict[str, list[float]] = {k: [] for k in runs}
        cpus: dict[str, list[float]] = {k: [] for k in runs}
        mems: dict[str, float] = dict.fromkeys(runs, 0.0)
        totals: dict[str, int | None] = {}
        for _ in range(repeat):
            for name, (cmd, cwd, pat) in runs.items():
                wall, cpu, mem, text = _process(cmd, cwd)
                walls[name].append(wall)
                cpus[name].append(cpu)
                mems[name] = max(mems[name], mem)
                totals[name] = _total(text, pat)
        for name in runs:
            w = walls[name]
            total = totals[name] if name != "raten start-up" else "-"
            print(
                f"{opener.upper():6} {mode:6} {name:20} total {total!s:5}  wall median {statistics.median(w):5.1f} s"
                f"  least {min(w):5.1f} s  CPU median {statistics.median(cpus[name]):5.2f} s"
                f"  peak {mems[name]:5.0f} MB  ({repeat} runs)",
                flush=True,
            )
        found = {totals[k] for k in runs if k != "raten start-up"}
        if len(found) != 1:
            print(f"  totals differ: {totals}", flush=True)
    print(f"load average after: {_load()}")


def _selby_cmd(binary: Path, *args: str) -> list[str]:
    return [str(binary), "-a", "wordlist_orig_all", "-h", "wordlist_orig_hidden", *args]


def _stats(xs: list[float]) -> str:
    return f"total {sum(xs):7.2f} s  median {statistics.median(xs):5.3f} s  range {min(xs):.3f}-{max(xs):.3f} s"


def sample(selby: Path, n: int, seed: int) -> None:
    """Refutation of ``n`` sampled openers against ``SAMPLE_BETA``, raten and Selby alternating."""
    binary = selby / "wordle"
    openers = random.Random(seed).sample(load_words("en").allowed, n)
    beta = str(SAMPLE_BETA)
    print(f"{n} openers (seed {seed}), cut-off {beta}; {os.cpu_count()} CPUs, load average {_load()}")
    start = time.perf_counter()
    raten = subprocess.Popen(
        [sys.executable, "-c", _REFUTE, beta], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert raten.stdin and raten.stdout and raten.stdout.readline().strip() == "ready"
    rows: dict[str, list[float]] = {
        k: [] for k in ("selby wall", "selby cpu", "selby search", "raten wall", "raten cpu")
    }
    for opener in openers:
        wall, cpu, _, text = _process(_selby_cmd(binary, "-w", opener, "-b", beta), selby)
        s_total = _total(text, r"Best first guess score = (\d+)")
        s_search = float(re.findall(r"Time taken = ([\d.]+)s", text)[-1])
        raten.stdin.write(opener + "\n")
        raten.stdin.flush()
        total, by, r_wall, r_cpu = raten.stdout.readline().split()
        for k, x in zip(rows, (wall, cpu, s_search, float(r_wall), float(r_cpu))):
            rows[k].append(x)
        agree = int(total) == s_total or (s_total is not None and min(int(total), s_total) >= SAMPLE_BETA)
        print(
            f"{opener.upper():6} Selby {s_total!s:>5} wall {wall:5.2f} s CPU {cpu:5.2f} s (search {s_search:5.2f} s)"
            f"  raten {total:>5} by {by:11} wall {float(r_wall):5.2f} s CPU {float(r_cpu):5.2f} s"
            f"{'' if agree else '  DISAGREE'}",
            flush=True,
        )
    raten.stdin.close()
    _, status, usage = os.wait4(raten.pid, 0)
    r_proc_wall, r_proc_cpu = time.perf_counter() - start - sum(rows["selby wall"]), usage.ru_utime + usage.ru_stime
    print(f"Selby, one process per opener: wall {_stats(rows['selby wall'])}; CPU {_stats(rows['selby cpu'])}")
    print(f"Selby, its own search time:    CPU {_stats(rows['selby search'])}")
    print(f"raten, in process per opener:  wall {_stats(rows['raten wall'])}; CPU {_stats(rows['raten cpu'])}")
    print(
        f"raten, one process over the {n}: wall {r_proc_wall:.2f} s, CPU {r_proc_cpu:.2f} s "
        f"(start-up included), peak {usage.ru_maxrss / 1024:.0f} MB, exit {os.waitstatus_to_exitcode(status)}"
    )
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as f:
        f.write("\n".join(openers) + "\n")
        f.flush()
        wall, cpu, mem, text = _process(_selby_cmd(binary, "-t", f.name, "-s", "-b", beta), selby)
    refuted = len(re.findall(r"First guess \w+ >=", text))
    print(
        f"Selby, one process over the {n} (-t -s): wall {wall:.2f} s, CPU {cpu:.2f} s, "
        f"peak {mem:.0f} MB, {refuted} refuted"
    )
    print(f"load average after: {_load()}")


def _load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--german", action="store_true", help="also the German best openers")
    ap.add_argument("--selby", type=Path, metavar="DIR", help="side by side with Selby's solver built in DIR")
    ap.add_argument("--repeat", type=int, default=3, help="with --selby: runs of each process")
    ap.add_argument("--sample", type=int, metavar="N", help="with --selby: refute N seeded openers against 7921")
    ap.add_argument("--seed", type=int, default=15, help="with --sample: the sample's seed")
    ap.add_argument(
        "--prior", action="append", metavar="LIST:OPENER", help="one opener uniform, then under the frequency prior"
    )
    ap.add_argument("--memo-bits", type=int, default=22, help="with --prior: memo size, 2**bits entries")
    args = ap.parse_args()
    if args.selby and args.sample:
        sample(args.selby, args.sample, args.seed)
        return 0
    if args.selby:
        side_by_side(args.selby, args.repeat)
        return 0
    _warm()
    if args.prior:
        for spec in args.prior:
            name, _, opener = spec.partition(":")
            for prior in ("uniform", "frequency"):
                run(load_words(name, prior=prior), opener or "tarne", False, 6, args.memo_bits)
        return 0
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
