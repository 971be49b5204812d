"""Strategy benchmark figures, and the simulator measured against slower ways of getting them.

Prints, in one run:

1. cached vs uncached: the simulator (one shared position tree) against playing each game
   from scratch with ``State.after`` and ``State.hints``, on a sample; the paths must agree.
2. greedy entropy against a plain-Python player (``tests/reference.py``) on a small list.
3. the figures: every strategy over every solution of each word set, normal and hard mode,
   as markdown tables (en; the 6mal5 German lists in ../shared/data if present; the de
   preset if its lists are built).

Usage: python bench/bench_strategies.py [--sets en,6mal5,de] [--modes normal,hard] [--sample N]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))  # reference.py: the plain-Python rule

from raten.engine.matrix import load_matrix
from raten.engine.rank import STRATEGIES
from raten.engine.state import State
from raten.engine.words import WordSet
from raten.errors import RatenError
from raten.play.results import WIN_WITHIN, BenchResult
from raten.play.simulate import sample_answers, simulate
from raten.wordlists.presets import load_words
from reference import ref_code, ref_filter, ref_split

SHARED = HERE.parent.parent / "shared" / "data"


def word_sets(names: list[str]) -> dict[str, WordSet]:
    """The word sets asked for that are available here."""
    out: dict[str, WordSet] = {}
    for name in names:
        try:
            if name == "6mal5":
                sols, allowed = SHARED / "de" / "solutions.txt", SHARED / "de" / "allowed.txt"
                if not sols.exists():
                    print(f"(skipping 6mal5: {sols} is not here)")
                    continue
                out[name] = load_words(solutions=sols, allowed=allowed, language="de")
            else:
                out[name] = load_words(name)
        except RatenError as e:
            print(f"(skipping {name}: {e})")
    return out


def uncached_play(words: WordSet, strategy: str, answers: list[int]) -> list[list[str]]:
    """Every game from scratch: State.after and State.hints each turn, nothing shared."""
    paths = []
    for a in answers:
        answer = words.solutions[a]
        state = State(words)
        path: list[str] = []
        while not state.solved:
            guess = state.hints(top=1, strategy=strategy)[0].word
            path.append(guess)
            state = state.after(guess, ref_code(guess, answer))
        paths.append(path)
    return paths


def cached_vs_uncached(words: WordSet, strategy: str, sample: int) -> None:
    answers = sample_answers(words, sample, seed=1)
    t = time.perf_counter()
    slow = uncached_play(words, strategy, answers)
    uncached = time.perf_counter() - t
    fast = simulate(words, strategy, answers=answers)
    full = simulate(words, strategy)
    same = slow == fast.paths
    print(f"## cached vs uncached ({words.name}, {strategy}, {sample} games, seed 1)\n")
    print("| way | games | seconds | per game |")
    print("|---|---:|---:|---:|")
    print(f"| from scratch (State.after + hints) | {sample} | {uncached:.2f} | {uncached / sample * 1000:.1f} ms |")
    print(f"| simulator, cached positions | {sample} | {fast.seconds:.2f} | {fast.seconds / sample * 1000:.1f} ms |")
    print(
        f"| simulator, every solution | {full.games} | {full.seconds:.2f} | {full.seconds / full.games * 1000:.2f} ms |"
    )
    print(
        f"\nsame guesses: {same}; from scratch, all {full.games} games would take about "
        f"{uncached / sample * full.games:.0f} s\n"
    )


def reference_player(words: WordSet) -> tuple[int, float]:
    """Greedy entropy in plain Python (positions cached): (total guesses, seconds)."""
    t = time.perf_counter()
    cache: dict[tuple, str] = {}
    total = 0
    for answer in words.solutions:
        history: list[tuple[str, int]] = []
        cands = list(words.solutions)
        while True:
            key = tuple(history)
            if key not in cache:
                pool = cands if len(cands) <= 2 else list(words.allowed)
                cache[key] = min((-round(ref_split(g, cands)[0], 9), g not in cands, g) for g in pool)[2]
            guess = cache[key]
            code = ref_code(guess, answer)
            history.append((guess, code))
            if guess == answer:
                break
            cands = ref_filter(cands, [(guess, code)])
        total += len(history)
    return total, time.perf_counter() - t


def against_reference(en: WordSet) -> None:
    words = WordSet.from_lists(en.solutions[::12], en.allowed[::12], name="en/12")
    total, seconds = reference_player(words)
    ours = simulate(words, "entropy")
    print(
        f"## greedy entropy: raten vs plain Python ({len(words.solutions)} solutions, "
        f"{len(words.allowed)} allowed: every 12th en word)\n"
    )
    print("| player | total | average | seconds |")
    print("|---|---:|---:|---:|")
    print(f"| plain Python (tests/reference.py) | {total} | {total / len(words.solutions):.4f} | {seconds:.2f} |")
    print(f"| raten simulate | {ours.total} | {ours.average:.4f} | {ours.seconds:.2f} |")
    print(f"\nsame total: {total == ours.total}\n")


def table(results: list[BenchResult]) -> str:
    head = ["strategy", "opener", "average", "total", *map(str, range(1, WIN_WITHIN + 1)), "failed", "max", "s"]
    lines = ["| " + " | ".join(head) + " |", "|---|---|" + "---:|" * (len(head) - 2)]
    for r in results:
        d = r.distribution
        cells = [
            r.strategy,
            r.opener.upper(),
            f"{r.average:.4f}",
            str(r.total),
            *[str(d[str(n)]) for n in range(1, WIN_WITHIN + 1)],
            str(d["failed"]),
            str(r.max),
            f"{r.seconds:.1f}",
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def figures(sets: dict[str, WordSet], modes: list[str]) -> None:
    for name, words in sets.items():
        load_matrix(words)
        for mode in modes:
            hard = mode == "hard"
            t = time.perf_counter()
            results = [simulate(words, s, hard=hard) for s in STRATEGIES]
            took = time.perf_counter() - t
            print(
                f"## {name}: {len(words.solutions)} solutions, {len(words.allowed)} allowed, {mode} mode "
                f"({took:.0f} s for all seven)\n"
            )
            print(table(results) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sets", default="en,6mal5,de", help="word sets: en, de, de-ext, 6mal5")
    parser.add_argument("--modes", default="normal,hard", help="normal, hard or both")
    parser.add_argument("--sample", type=int, default=40, help="games for the cached vs uncached comparison")
    parser.add_argument("--skip-checks", action="store_true", help="only the figures")
    args = parser.parse_args()
    sets = word_sets([s.strip() for s in args.sets.split(",") if s.strip()])
    if not args.skip_checks:
        en = sets.get("en") or load_words("en")
        cached_vs_uncached(en, "entropy", args.sample)
        against_reference(en)
    figures(sets, [m.strip() for m in args.modes.split(",") if m.strip()])


if __name__ == "__main__":
    main()
