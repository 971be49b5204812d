"""Several nodes on one database, on both engines: any node answers any player's next move, the
daily word and the statistics are the same on every node, a guess sent again after a lost answer
is played once, and each node says whether it can serve (``/api/health``)."""

from __future__ import annotations

import contextlib
import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx2
    from fastapi.testclient import TestClient

from nodes import ROOMY, answer_of, small_lists

from raten.web import create_app
from raten.web.service import Lists


@pytest.fixture(scope="module")
def lists(en_words) -> Lists:
    return small_lists(en_words)


@contextlib.contextmanager
def nodes(lists: Lists, target, n: int = 2):
    """``n`` apps on one database, each made as a node makes its own (the daily secret from the database)."""
    with contextlib.ExitStack() as stack:
        yield [stack.enter_context(TestClient(create_app(lists=lists, db_path=target, policy=ROOMY))) for _ in range(n)]


@pytest.mark.slow
def test_any_node_plays_any_players_next_move(lists, store_target) -> None:
    with nodes(lists, store_target) as (a, b):
        game = a.post("/api/games", json={"list": "small", "mode": "practice"}).json()
        b.cookies = a.cookies  # the same player, sent to the other node
        answer = answer_of(store_target, game["id"])
        wrong = next(w for w in ("aback", "abase", "abate") if w != answer)
        first = b.post(f"/api/games/{game['id']}/guesses", json={"guess": wrong, "row": 0})
        assert first.status_code == 200 and [r["guess"] for r in first.json()["rows"]] == [wrong]
        won = a.post(f"/api/games/{game['id']}/guesses", json={"guess": answer, "row": 1}).json()
        assert won["status"] == "won" and won["stats"]["played"] == 1
        stats = [c.get("/api/stats", params={"list": "small", "mode": "practice"}).json() for c in (a, b)]
        assert stats[0] == stats[1] and stats[0]["wins"] == 1


@pytest.mark.slow
def test_every_node_gives_the_same_daily_word(lists, store_target) -> None:
    with nodes(lists, store_target, 3) as clients:
        games = []
        for c in clients:  # three players, one on each node
            games.append(c.post("/api/games", json={"list": "small", "mode": "daily"}).json())
        answers = {answer_of(store_target, g["id"]) for g in games}
        assert len(answers) == 1 and len({g["id"] for g in games}) == 3


@pytest.mark.slow
def test_a_guess_sent_again_is_played_once_and_one_on_a_changed_game_is_refused(lists, store_target) -> None:
    with nodes(lists, store_target) as (a, b):
        game = a.post("/api/games", json={"list": "small", "mode": "practice"}).json()
        b.cookies = a.cookies
        answer = answer_of(store_target, game["id"])
        wrong = next(w for w in ("aback", "abase", "abate") if w != answer)
        url = f"/api/games/{game['id']}/guesses"
        once = a.post(url, json={"guess": wrong, "row": 0}).json()
        again = b.post(url, json={"guess": wrong.upper(), "row": 0})  # the retry, on another node
        assert again.status_code == 200 and again.json()["rows"] == once["rows"]
        other = next(w for w in ("adage", "adapt", "adept") if w not in (wrong, answer))
        for row in (0, 2):
            stale = a.post(url, json={"guess": other, "row": row})
            assert stale.status_code == 409 and stale.json()["code"] == "conflict"
        assert len(a.get(f"/api/games/{game['id']}").json()["rows"]) == 1


def test_health_says_whether_the_node_can_serve(lists, tmp_path) -> None:
    db = tmp_path / "raten.sqlite3"
    with nodes(lists, db, 1) as (a,):
        assert a.get("/api/health").json() == {"status": "ok", "database": "sqlite", "shared": None}
        for suffix in ("", "-wal", "-shm"):
            (tmp_path / f"raten.sqlite3{suffix}").unlink(missing_ok=True)
        down = a.get("/api/health")
        assert down.status_code == 503 and down.json()["code"] == "store_unavailable"
