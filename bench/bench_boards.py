"""Many boards side by side: raten's ranking cost on one and four boards, and raten against
Doddle 1.6.0's simultaneous solver on the same seeded answer tuples, in one run.

Doddle needs numpy < 2, so this script keeps it in its own virtual environment under
``--cache`` (created on first use with ``python -m venv`` and ``pip install doddle==1.6.0
'numpy<2'``) and plays it there through a subprocess. Doddle plays the original English
lists only, so the comparison runs on ``en``.

    python bench/bench_boards.py --boards 4 --games 1000 --seed 1
    python bench/bench_boards.py --boards 2 --games 1000 --no-doddle
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from raten.engine.boards import Boards, variant
from raten.engine.state import State
from raten.play.simulate import sample_tuples, simulate
from raten.wordlists.presets import load_words

DODDLE = "doddle==1.6.0"
DEFAULT_CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "raten" / "doddle-1.6.0"

#: Runs inside Doddle's environment: reads answer tuples (JSON) on stdin, writes guesses per game and seconds.
_DODDLE_RUNNER = """
import json, sys, time
from doddle import Doddle
tuples = json.load(sys.stdin)
doddle = Doddle(size=5, solver_type="ENTROPY", lazy_eval=False)
doddle.histogram_builder.score_matrix.precompute()
start = time.perf_counter()
guesses = [max(row.n for row in doddle(answer=list(t)).rows) for t in tuples]
json.dump({"guesses": guesses, "seconds": time.perf_counter() - start}, sys.stdout)
"""


def doddle_python(cache: Path) -> Path:
    """The Python of Doddle's own virtual environment, created when missing."""
    python = cache / "bin" / "python"
    if not python.exists():
        print(f"creating {cache} with {DODDLE} and numpy<2 ...", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", str(cache)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", DODDLE, "numpy<2"], check=True)
    return python


def run_doddle(cache: Path, tuples: list[list[str]]) -> dict:
    """Doddle's guesses per game and its time on the same tuples."""
    out = subprocess.run(
        [str(doddle_python(cache)), "-c", _DODDLE_RUNNER],
        input=json.dumps(tuples),
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout)


def rank_cost(words, repeat: int) -> tuple[float, float]:
    """Median ms to rank every allowed guess after SOARE: one board, and four boards."""
    answers = ["cigar", "humph", "blush", "model"]
    single = State(words).after("soare", _pattern("soare", answers[0]))
    four = Boards.start(words, 4).after("soare", [_pattern("soare", a) for a in answers])
    out = []
    for f in (lambda: single.hints(top=1), lambda: four.hints(top=1)):
        f()
        times = []
        for _ in range(repeat):
            t = time.perf_counter()
            f()
            times.append(time.perf_counter() - t)
        out.append(1000 * statistics.median(times))
    return out[0], out[1]


def _pattern(guess: str, answer: str) -> str:
    from raten.engine.feedback import format_pattern, pattern

    return format_pattern(pattern(guess, answer))


def summary(name: str, guesses: np.ndarray, limit: int, seconds: float) -> str:
    won = float((guesses <= limit).mean())
    return f"| {name} | {100 * won:.2f}% | {guesses.mean():.4f} | {int(guesses.max())} | {seconds:.1f} s |"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=4)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=20, help="Runs of each ranking for the median.")
    ap.add_argument("--cache", type=Path, default=DEFAULT_CACHE, help="Where Doddle's environment lives.")
    ap.add_argument("--no-doddle", dest="doddle", action="store_false")
    args = ap.parse_args()

    words = load_words("en")
    one, four = rank_cost(words, args.repeat)
    print(f"ranking all {len(words.allowed)} guesses after SOARE (en, median of {args.repeat}):")
    print(f"  one board {one:.2f} ms, four boards {four:.2f} ms ({four / one:.1f}x)")

    v = variant(args.boards)
    tuples = sample_tuples(words, args.boards, args.games, args.seed)
    print(f"\n{v.name}: {args.games} en answer tuples, seed {args.seed}, win within {v.limit}\n")
    print("| solver | won | average | max | time |")
    print("|---|---:|---:|---:|---:|")
    for strategy in ("finish", "entropy"):
        r = simulate(words, strategy, boards=args.boards, answers=tuples, seed=args.seed)
        print(summary(f"raten {strategy} ({r.opener.upper()})", r.guesses, v.limit, r.seconds), flush=True)
    if args.doddle:
        named = [[words.solutions[int(c)] for c in row] for row in tuples]
        d = run_doddle(args.cache, named)
        print(summary("Doddle 1.6.0 simultaneous entropy (RAISE)", np.array(d["guesses"]), v.limit, d["seconds"]))


if __name__ == "__main__":
    main()
