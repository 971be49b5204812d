"""Review speed: median seconds to review a random game played by entropy, normal and hard mode.

python bench/bench_review.py --games 200 --words en
Games are seeded; each review runs with the given budget: ``--cells`` of search work (the
review's default), ``--seconds`` as its ceiling; values beyond it are bounds. ``--cells 0``
with ``--seconds 0.25`` is a budget in seconds only, as reviews had before issue 27. Besides
the time it prints the work each review did (table cells read, the budget's unit) and its rate
per second of CPU, which a loaded machine does not change much.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import ClassVar

import numpy as np

from raten.engine.feedback import ALL_GREEN, pattern
from raten.engine.state import State
from raten.play import review as review_module
from raten.play.review import review
from raten.trees import kernels as tk
from raten.trees.values import REVIEW_CELLS, REVIEW_SECONDS, Budget, Values
from raten.wordlists.presets import load_words


def play(words, answer: str, hard: bool, opener: str, choose=None) -> list[str]:
    """An entropy game against ``answer`` (the simple strategy the figures are measured on):
    ``opener`` first, then the top hint, or ``choose(state, turn)`` where it gives a word."""
    state = State(words, hard=hard)
    guesses: list[str] = []
    while len(guesses) < 6:
        g = (choose and choose(state, len(guesses))) or (opener if not guesses else state.hints(top=1)[0].word)
        guesses.append(g)
        code = pattern(g, answer)
        if code == ALL_GREEN:
            break
        state = state.after(g, code)
    return guesses


class Counted(Values):
    """``Values`` that keeps each review's statistics, to read its work after it."""

    made: ClassVar[list[Values]] = []

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        Counted.made.append(self)


def measured(words, guesses: list[str], answer: str, hard: bool, budget: Budget, guarantee: int | None = None) -> tuple:
    """(review, wall seconds, CPU seconds, cells of work) of one review (``guarantee``: its limit, None off)."""
    Counted.made.clear()
    start, cpu = time.perf_counter(), time.thread_time()
    r = review(words, guesses, answer, hard=hard, budget=budget, guarantee=guarantee)
    wall, cpu = time.perf_counter() - start, time.thread_time() - cpu
    return r, wall, cpu, sum(int(v.stats[tk.ST_CELLS]) for v in Counted.made)


def budget_of(args: argparse.Namespace) -> Budget:
    """The budget one review gets from the command line."""
    return Budget(seconds=args.seconds, cells=args.cells or None)


def main() -> None:
    """Print median and 90th percentile time, the work and its rate, and exact shares per mode."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--words", default="en")
    ap.add_argument("--cells", type=int, default=REVIEW_CELLS, help="search work per review (0: no limit)")
    ap.add_argument("--seconds", type=float, default=REVIEW_SECONDS, help="its ceiling in seconds")
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--guarantee", type=int, help="judge each guess's safety within this limit (default: off)")
    args = ap.parse_args()
    review_module.Values = Counted  # type: ignore[misc]
    words = load_words(args.words)
    rng = random.Random(args.seed)
    answers = [rng.choice(words.solutions) for _ in range(args.games)]
    for hard in (False, True):
        opener = State(words, hard=hard).hints(top=1)[0].word
        review(words, play(words, answers[0], hard, opener), answers[0], hard=hard)  # warm-up: compile, tables
        times, cells, cpu, exact, moves = [], [], 0.0, 0, 0
        for answer in answers:
            guesses = play(words, answer, hard, opener)
            r, wall, used, work = measured(words, guesses, answer, hard, budget_of(args), args.guarantee)
            times.append(wall)
            cells.append(work)
            cpu += used
            exact += sum(m.regret_kind == "exact" for m in r.moves)
            moves += len(r.moves)
        times.sort()
        print(
            f"{args.words} {'hard' if hard else 'normal'}: {len(times)} games,"
            f" median {statistics.median(times) * 1000:.0f} ms,"
            f" p90 {times[int(0.9 * len(times))] * 1000:.0f} ms, exact regret on {exact}/{moves} guesses;"
            f" work median {np.median(cells):.3g}, max {max(cells):.3g} cells,"
            f" {sum(cells) / max(cpu, 1e-9):.3g} per CPU s"
            f" (budget {args.cells or 'any'} cells, {args.seconds} s; guarantee {args.guarantee or 'off'})"
        )


if __name__ == "__main__":
    main()
