"""What the guarantee costs a hint: the same hint with ``--guarantee 6`` and with ``--guarantee off``.

python bench/bench_hint_guarantee.py --words en,en-nyt --positions 200 [--json]

The positions are taken from played games: seeded answers of each list are played with the
strategy's own top hint (``raten hint --guarantee off``), and the positions after moves 2 to 5
that are not yet solved are pooled; ``--positions`` of them are drawn (seeded). At each
position the two hints run back to back, alternately first, so the machine's load falls on
both alike: ``off`` ranks the top 10 (what ``raten hint --guarantee off`` computes), ``on``
does what ``raten hint`` does under the guarantee: one ranking deep enough for the guarded
strategy's decision (its top 20) and the guarantee's view of the position
(``raten.play.safe_hints.guarded_hints``: the guess to play, a verdict for each of the 10).
Each guarantee starts from a fresh memo at every position
(``--memo fresh``, a one-shot ``raten hint``); ``--memo kept`` keeps it between positions as
a server process does. The tables and compiled kernels are warmed first, outside the figures.
Wall time and CPU time of the process are printed side by side, with the ratio of the medians
(the issue asks at most 2) and of the CPU totals.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from raten.engine.feedback import ALL_GREEN, pattern
from raten.engine.state import State
from raten.play import safe_hints
from raten.play.strategies import GUARDED_RANKED
from raten.trees.memo import new_memo
from raten.wordlists.presets import default_over, load_words

#: How many hints each side ranks (``raten hint``'s default).
TOP = 10


def positions(words, games: int, count: int, strategy: str, seed: int, hard: bool) -> list[State]:
    """``count`` states after moves 2..5 of games played with the strategy's top hint (seeded)."""
    rng = random.Random(seed)
    pool: list[State] = []
    first = State(words, hard=hard).hints(top=1, strategy=strategy)[0].word
    for answer in rng.sample(list(words.solutions), min(games, len(words.solutions))):
        state = State(words, hard=hard)
        for move in range(5):
            guess = first if move == 0 else state.hints(top=1, strategy=strategy)[0].word
            code = pattern(guess, answer)
            if code == ALL_GREEN:
                break
            state = state.after(guess, code)
            if move >= 1 and not state.solved:
                pool.append(state)
    return rng.sample(pool, min(count, len(pool)))


def _timed(fn) -> tuple[float, float]:
    """(wall, CPU) seconds of ``fn()``; CPU of the whole process, every thread."""
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - wall, time.process_time() - cpu


def _fresh_memos() -> None:
    """Every guarantee of this process forgets what it proved (a one-shot hint's start)."""
    for strat in safe_hints._STRATEGIES.values():
        for g in strat._guarantees.values():
            g.memo = new_memo(20)


def measure(name: str, states: list[State], strategy: str, limit: int, fresh: bool) -> dict:
    """Both sides at every state: medians, 90th percentiles, ratios and what the guarantee said."""
    words = states[0].words
    over = default_over(words, states[0].hard)

    def off(state: State) -> None:
        state.hints(top=TOP, strategy=strategy)

    def on(state: State) -> None:  # what `raten hint` does: one ranking, deep enough for the decision
        ranked = state.hints(top=max(TOP, GUARDED_RANKED), strategy=strategy)
        guard = safe_hints.guarded_hints(state, ranked[:TOP], limit, over, strategy, ranked=ranked)
        said.append(guard.decision.safe)

    said: list[bool | None] = []
    for state in states[:3]:  # warm-up: tables, kernels, the guarantee's covered set
        off(state)
        on(state)
    said.clear()
    rows: dict[str, list[tuple[float, float]]] = {"off": [], "on": []}
    for i, state in enumerate(states):
        if fresh:
            _fresh_memos()
        order = (("off", off), ("on", on)) if i % 2 == 0 else (("on", on), ("off", off))
        for side, fn in order:
            rows[side].append(_timed(lambda fn=fn, state=state: fn(state)))  # type: ignore[misc]

    def stats(side: str) -> dict:
        walls = sorted(w for w, _ in rows[side])
        cpus = sorted(c for _, c in rows[side])
        p90 = int(0.9 * len(walls))
        return {
            "wall_median_ms": statistics.median(walls) * 1000,
            "wall_p90_ms": walls[p90] * 1000,
            "cpu_median_ms": statistics.median(cpus) * 1000,
            "cpu_p90_ms": cpus[p90] * 1000,
            "cpu_total_s": sum(cpus),
        }

    out = {"list": name, "over": over, "positions": len(states), "off": stats("off"), "on": stats("on")}
    out["ratio_wall"] = out["on"]["wall_median_ms"] / out["off"]["wall_median_ms"]
    out["ratio_cpu"] = out["on"]["cpu_median_ms"] / out["off"]["cpu_median_ms"]
    out["ratio_cpu_total"] = out["on"]["cpu_total_s"] / out["off"]["cpu_total_s"]
    out["verdicts"] = {"safe": said.count(True), "none_safe": said.count(False), "undecided": said.count(None)}
    return out


def main() -> None:
    """Measure each list and print a table (or ``--json``)."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--words", default="en,en-nyt", help="comma-separated presets")
    ap.add_argument("--positions", type=int, default=200)
    ap.add_argument("--games", type=int, default=150, help="games played to draw the positions from")
    ap.add_argument("--strategy", default="entropy")
    ap.add_argument("--limit", type=int, default=6)
    ap.add_argument("--hard", action="store_true")
    ap.add_argument("--memo", choices=["fresh", "kept"], default="fresh")
    ap.add_argument("--seed", type=int, default=23)
    ap.add_argument("--json", action="store_true", dest="as_json")
    args = ap.parse_args()
    results = []
    for name in args.words.split(","):
        words = load_words(name.strip())
        states = positions(words, args.games, args.positions, args.strategy, args.seed, args.hard)
        results.append(measure(name.strip(), states, args.strategy, args.limit, args.memo == "fresh"))
    if args.as_json:
        print(json.dumps({"hard": args.hard, "memo": args.memo, "results": results}, indent=1))
        return
    mode = "hard" if args.hard else "normal"
    print(f"hint top {TOP}, {args.strategy}, {mode}, memo {args.memo}: median (p90) ms")
    print(f"{'list':8} {'n':>4} {'off wall':>14} {'off CPU':>14} {'on wall':>14} {'on CPU':>14} {'ratio':>11}")
    for r in results:
        cells = [
            f"{r[s][k + '_median_ms']:.1f} ({r[s][k + '_p90_ms']:.0f})" for s in ("off", "on") for k in ("wall", "cpu")
        ]
        print(
            f"{r['list']:8} {r['positions']:4} "
            + " ".join(f"{c:>14}" for c in cells)
            + f" {r['ratio_wall']:.2f}/{r['ratio_cpu']:.2f}"
        )
        v = r["verdicts"]
        print(
            f"         over {r['over']}: {v['safe']} safe, {v['none_safe']} none safe, {v['undecided']} undecided;"
            f" CPU in all {r['off']['cpu_total_s']:.2f} s off, {r['on']['cpu_total_s']:.2f} s on"
            f" ({r['ratio_cpu_total']:.2f})"
        )


if __name__ == "__main__":
    main()
