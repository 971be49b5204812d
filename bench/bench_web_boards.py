"""The web's many-board hints (``POST /api/hints/boards``'s ranking, ``raten.web.boards``): each
board's statistics computed for every request against kept by the board's candidates, side by
side in one run, on the positions a solver page asks for first (the start, one row).

    python bench/bench_web_boards.py --words en --repeat 5
"""

from __future__ import annotations

import argparse
import statistics
import time

from raten.engine.boards import Boards, rank_boards
from raten.engine.feedback import format_pattern, pattern
from raten.web import boards as web_boards
from raten.wordlists.presets import load_words

ANSWERS = ("pleat", "dumpy", "shirk", "crane", "fjord", "gawky", "vixen", "chomp")


def positions(words, n: int) -> dict[str, Boards]:
    """The start and the position after SLATE against the first ``n`` answers."""
    start = Boards.start(words, n)
    row = [format_pattern(pattern("slate", a)) for a in ANSWERS[:n]]
    return {"start": start, "after slate": start.after("slate", row)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--words", default="en")
    parser.add_argument("--repeat", type=int, default=5, help="runs per position; the median is shown")
    args = parser.parse_args()
    words = load_words(args.words)
    Boards.start(words, 1).hints(top=1)  # compile and page in the kernels
    print(f"{args.words}: ranking 50 hints, median of {args.repeat} runs")
    print(f"{'boards':>6}  {'position':<12} {'split per request':>18} {'split kept':>11}  same ranking")
    for n in (2, 4, 8):
        for name, game in positions(words, n).items():
            plain, kept = [], []
            for _ in range(args.repeat):
                t = time.perf_counter()
                a = rank_boards(game, top=50)
                plain.append(time.perf_counter() - t)
                web_boards._splits.clear()  # each run starts with an empty cache: the first request
                t = time.perf_counter()
                b = rank_boards(game, top=50, split=web_boards.cached_split)
                kept.append(time.perf_counter() - t)
            same = [h.word for h in a] == [h.word for h in b]
            per, kept_ms = 1000 * statistics.median(plain), 1000 * statistics.median(kept)
            print(f"{n:>6}  {name:<12} {per:>15.0f} ms {kept_ms:>8.0f} ms  {'yes' if same else 'NO'}")


if __name__ == "__main__":
    main()
