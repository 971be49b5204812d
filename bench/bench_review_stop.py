"""A review's budget inside a search: the longest reviews of human-like games, with the search
stopped where the budget runs out (now) against checked only between searches (before).

python bench/bench_review_stop.py --games 40 --words en

Each game opens with two random allowed words (seeded), the guesses people make that leave sets
too big for an instant search, then follows the entropy hint to the end. Both runs review the
same games in one process, each with a memo of its own (fresh searchers), in the order the
server would meet them. "Before" is the same code with the in-search stop switched off. The
budget is the review's default (``--cells`` of work, ``--seconds`` its ceiling); ``--cells 0
--seconds 1`` is the web's budget in seconds before issue 27.
"""

from __future__ import annotations

import argparse
import random
import statistics
from unittest import mock

from bench_review import Counted, measured, play  # type: ignore[import-not-found]  # the same games, other openers
from raten.engine.state import State
from raten.play import review as review_module
from raten.play.review import review
from raten.trees import values
from raten.trees.values import REVIEW_CELLS, REVIEW_SECONDS, Budget
from raten.wordlists.presets import load_words


def human_game(words, answer: str, hard: bool, rng: random.Random) -> list[str]:
    """Two random openers (legal in hard mode), then the entropy hint, at most six guesses."""

    def random_word(state: State, turn: int) -> str | None:
        if turn >= 2:
            return None
        return rng.choice([h.word for h in state.hints(top=len(words.allowed))] if hard else words.allowed)

    return play(words, answer, hard, "", random_word)


def never(_budget: Budget, _stats) -> int:
    """``Budget.stop_at`` as before the stop existed: 0, searches run to the end."""
    return 0


def run(words, games, hard: bool, budget) -> tuple[list[float], int, int, list[int]]:
    """(wall seconds per review, exact regrets, guesses, cells of work per review) over ``games``
    with a fresh memo; ``budget()`` makes each review's budget."""
    values._searchers.clear()
    review(words, games[0][0], games[0][1], hard=hard, budget=budget())  # tables, compile
    values._searchers.clear()
    times, exact, moves, cells = [], 0, 0, []
    for guesses, answer in games:
        r, wall, _cpu, work = measured(words, guesses, answer, hard, budget())
        times.append(wall)
        cells.append(work)
        exact += sum(m.regret_kind == "exact" for m in r.moves)
        moves += len(r.moves)
    return sorted(times), exact, moves, cells


def main() -> None:
    """Print median, 90th percentile, maximum and exact shares, before and now, per mode."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--words", default="en")
    ap.add_argument("--cells", type=int, default=REVIEW_CELLS, help="search work per review (0: no limit)")
    ap.add_argument("--seconds", type=float, default=REVIEW_SECONDS, help="its ceiling in seconds")
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--now-only", action="store_true", help="skip the run without the stop (minutes)")
    args = ap.parse_args()
    review_module.Values = Counted  # type: ignore[misc]
    words = load_words(args.words)

    def budget() -> Budget:
        return Budget(seconds=args.seconds, cells=args.cells or None)

    for hard in (False, True):
        rng = random.Random(args.seed)
        games = []
        for _ in range(args.games):
            answer = rng.choice(words.solutions)
            games.append((human_game(words, answer, hard, rng), answer))
        for label in ("now",) if args.now_only else ("before", "now"):
            if label == "before":
                with mock.patch.object(Budget, "stop_at", never):
                    times, exact, moves, cells = run(words, games, hard, budget)
            else:
                times, exact, moves, cells = run(words, games, hard, budget)
            print(
                f"{args.words} {'hard' if hard else 'normal'} {label}: {len(times)} games,"
                f" median {statistics.median(times) * 1000:.0f} ms, p90 {times[int(0.9 * len(times))] * 1000:.0f} ms,"
                f" max {times[-1] * 1000:.0f} ms, exact regret on {exact}/{moves} guesses,"
                f" work max {max(cells):.3g} cells (budget {args.cells or 'any'} cells, {args.seconds} s)",
                flush=True,
            )


if __name__ == "__main__":
    main()
