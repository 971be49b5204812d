"""Wall time, CPU time and peak memory of a whole ``raten tree --best`` run, its workers included.

Runs the command given after ``--`` and samples its process tree with psutil every
``--every`` seconds: the CPU seconds of every process (the last sample of each, and the
rusage of the waited-for children, whichever is more), the peak resident memory of the
largest single process (RSS: the shared memo's pages a process touched count in it) and the
peak of all processes together counted by PSS (shared pages split between their users, so the
shared memo counts once). On a machine shared with others, CPU seconds are the figure a load
inflates least; the load average at start and end is printed beside them.

Run: ``.venv/bin/python bench/bench_best.py -- raten tree --words de --best --jobs 2 --json``
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

import psutil


def measure(cmd: list[str], every: float) -> dict:
    """Run ``cmd`` to its end; its figures (see the module's docstring)."""
    load0 = os.getloadavg()[0]
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    root = psutil.Process(proc.pid)
    cpu: dict[int, float] = {}
    peak_rss = peak_pss = 0.0
    while proc.poll() is None:
        try:
            tree = [root, *root.children(recursive=True)]
        except psutil.NoSuchProcess:
            break
        pss = 0.0
        for p in tree:
            try:
                with p.oneshot():
                    t = p.cpu_times()
                    cpu[p.pid] = t.user + t.system
                    peak_rss = max(peak_rss, p.memory_info().rss)
                    pss += getattr(p.memory_full_info(), "pss", 0)
            except (psutil.NoSuchProcess, psutil.AccessDenied):
                continue
        peak_pss = max(peak_pss, pss)
        time.sleep(every)
    out, _ = proc.communicate()
    wall = time.perf_counter() - start
    children = os.times()
    waited = children.children_user + children.children_system
    return {
        "command": " ".join(cmd),
        "exit": proc.returncode,
        "wall_seconds": round(wall, 1),
        "cpu_seconds": round(max(waited, sum(cpu.values())), 1),
        "cpu_seconds_main_process": round(cpu.get(proc.pid, 0.0), 1),
        "peak_rss_mb_largest_process": round(peak_rss / 2**20),
        "peak_pss_mb_all_processes": round(peak_pss / 2**20),
        "load_average_start_end": [round(load0, 2), round(os.getloadavg()[0], 2)],
        "cpus": os.cpu_count(),
        "output_tail": out.strip().splitlines()[-3:] if out else [],
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--every", type=float, default=0.5, help="seconds between samples")
    p.add_argument("cmd", nargs=argparse.REMAINDER, help="-- the command to run")
    args = p.parse_args()
    cmd = args.cmd[1:] if args.cmd[:1] == ["--"] else args.cmd
    if not cmd:
        p.error("give the command after --")
    figures = measure(cmd, args.every)
    for key, value in figures.items():
        print(f"{key}: {value}", file=sys.stderr if key == "output_tail" else sys.stdout)
    return int(figures["exit"] != 0)


if __name__ == "__main__":
    raise SystemExit(main())
