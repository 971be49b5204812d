"""The game page's review: how long after a game ends its panel waits for GET /api/games/{id}/review.

python bench/bench_review_page.py --games 50 --words en
Seeded practice games played by entropy against their answers through the web app (TestClient,
one process, so the search memo warms over the run as on a server); side by side: the
endpoint's time and the library's review of the same game with the same budget, normal and hard.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from datetime import date
from pathlib import Path

from fastapi.testclient import TestClient

from bench_review import play  # type: ignore[import-not-found]  # the same entropy games
from raten.engine.state import State
from raten.play import game as game_module
from raten.play.review import review
from raten.trees.values import Budget
from raten.web import create_app
from raten.web.limits import Policy
from raten.web.routes import review as api
from raten.web.service import Lists
from raten.wordlists.presets import load_words


def summary(label: str, times: list[float]) -> str:
    times = sorted(times)
    return (
        f"{label}: median {statistics.median(times) * 1000:.0f} ms,"
        f" p90 {times[int(0.9 * len(times))] * 1000:.0f} ms, max {times[-1] * 1000:.0f} ms"
    )


def main() -> None:
    """Print the endpoint's and the library's median, p90 and max per mode."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--words", default="en")
    ap.add_argument("--seed", type=int, default=13)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    game_module.random_word = lambda w: rng.choice(w.solutions)  # seeded practice answers, for repeatable runs
    words = load_words(args.words)
    lists = Lists.load({args.words: words})
    with tempfile.TemporaryDirectory() as tmp:
        # one client plays every game: the per-address and per-player limits would refuse it
        roomy = Policy(
            address="1000000/second", player="1000000/second", work="1000000/second", new_player="1000000/second"
        )
        app = create_app(
            lists=lists, db_path=Path(tmp) / "b.sqlite3", daily_secret="bench", today=date.today, policy=roomy
        )
        with TestClient(app) as client:
            for hard in (False, True):
                opener = State(words, hard=hard).hints(top=1)[0].word
                page, library = [], []
                for i in range(args.games + 1):
                    game = client.post("/api/games", json={"list": args.words, "mode": "practice", "hard": hard}).json()
                    answer = app.state.store.game(client.cookies["raten_player"], game["id"]).answer
                    guesses = play(words, answer, hard, opener)
                    for g in guesses:
                        sent = client.post(f"/api/games/{game['id']}/guesses", json={"guess": g})
                        assert sent.status_code == 200, (guesses, sent.text)
                    start = time.perf_counter()
                    r = client.get(f"/api/games/{game['id']}/review")
                    took = time.perf_counter() - start
                    assert r.status_code == 200, r.text
                    start = time.perf_counter()
                    review(words, guesses, answer, hard=hard, budget=Budget.work(api.REVIEW_CELLS, api.REVIEW_SECONDS))
                    again = time.perf_counter() - start
                    if i:  # the first game warms up: compiling, tables
                        page.append(took)
                        library.append(again)
                mode = "hard" if hard else "normal"
                budget = f"budget {api.REVIEW_CELLS} cells, {api.REVIEW_SECONDS} s"
                print(f"{args.words} {mode}, {args.games} games, {budget}")
                print("  " + summary("GET /api/games/{id}/review", page))
                print("  " + summary("library review, same game after it", library))


if __name__ == "__main__":
    main()
