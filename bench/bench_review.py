"""Review speed: median seconds to review a random game played by entropy, normal and hard mode.

python bench/bench_review.py --games 200 --words en --seconds 0.25
Games are seeded; each review runs with the given search budget (values beyond it are bounds).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from raten.engine.feedback import ALL_GREEN, pattern
from raten.engine.state import State
from raten.play.review import review
from raten.trees.values import Budget
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


def main() -> None:
    """Print median, 90th percentile and exact shares per mode."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--words", default="en")
    ap.add_argument("--seconds", type=float, default=0.25, help="search budget per review")
    ap.add_argument("--seed", type=int, default=13)
    args = ap.parse_args()
    words = load_words(args.words)
    rng = random.Random(args.seed)
    answers = [rng.choice(words.solutions) for _ in range(args.games)]
    for hard in (False, True):
        opener = State(words, hard=hard).hints(top=1)[0].word
        review(words, play(words, answers[0], hard, opener), answers[0], hard=hard)  # warm-up: compile, tables
        times, exact, moves = [], 0, 0
        for answer in answers:
            guesses = play(words, answer, hard, opener)
            start = time.perf_counter()
            r = review(words, guesses, answer, hard=hard, budget=Budget(seconds=args.seconds))
            times.append(time.perf_counter() - start)
            exact += sum(m.regret_kind == "exact" for m in r.moves)
            moves += len(r.moves)
        times.sort()
        print(
            f"{args.words} {'hard' if hard else 'normal'}: {len(times)} games,"
            f" median {statistics.median(times) * 1000:.0f} ms,"
            f" p90 {times[int(0.9 * len(times))] * 1000:.0f} ms, exact regret on {exact}/{moves} guesses"
            f" (budget {args.seconds} s)"
        )


if __name__ == "__main__":
    main()
