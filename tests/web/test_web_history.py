"""Statistics that travel, on both engines: a player's finished games exported as a signed file or
a short code and imported on another browser, merged by game id; the history of every stored
game, and its exact review made once in the background and kept for every node."""

from __future__ import annotations

import contextlib
import time
import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx2
    from fastapi.testclient import TestClient

from nodes import ROOMY, answer_of, small_lists

from raten.web import create_app, transfer
from raten.web.limits import Policy
from raten.web.service import Lists


@pytest.fixture(scope="module")
def lists(en_words) -> Lists:
    return small_lists(en_words)


@contextlib.contextmanager
def browsers(lists: Lists, target, n: int = 2, policy: Policy = ROOMY):
    """``n`` browsers (each its own cookies) on one server each, all on one database."""
    with contextlib.ExitStack() as stack:
        yield [
            stack.enter_context(TestClient(create_app(lists=lists, db_path=target, policy=policy))) for _ in range(n)
        ]


def play(c: TestClient, target, mode: str = "practice", win: bool = True) -> dict:
    """A whole game: won in two, or lost in six."""
    game = c.post("/api/games", json={"list": "small", "mode": mode}).json()
    answer = answer_of(target, game["id"])
    wrong = [w for w in ("aback", "abase", "abate", "abbey", "abbot", "abhor", "abide") if w != answer]
    for guess in [wrong[0], answer] if win else wrong[:6]:
        game = c.post(f"/api/games/{game['id']}/guesses", json={"guess": guess}).json()
    assert game["status"] == ("won" if win else "lost")
    return game


def stats(c: TestClient, mode: str = "practice") -> dict:
    return {k: v for k, v in c.get("/api/stats", params={"list": "small", "mode": mode}).json().items() if k != "share"}


@pytest.mark.slow
def test_a_file_brings_the_games_to_another_browser_merged_by_id(lists, store_target) -> None:
    with browsers(lists, store_target) as (a, b):
        won, lost = play(a, store_target), play(a, store_target, win=False)
        play(b, store_target)  # b has a game of its own
        file = a.get("/api/export")
        assert file.headers["content-disposition"].startswith('attachment; filename="raten-games-')
        data = file.json()
        assert {g["id"] for g in data["games"]} == {won["id"], lost["id"]}
        first = b.post("/api/import", json={"file": data})
        assert first.status_code == 200 and first.json() == {"added": 2, "present": 0, "conflicting": 0}
        assert b.post("/api/import", json={"file": data}).json() == {"added": 0, "present": 2, "conflicting": 0}
        mine = stats(b)
        assert mine["played"] == 3 and mine["wins"] == 2
        seen = b.get(f"/api/games/{lost['id']}").json()  # b plays no further on it, but sees it
        assert seen["status"] == "lost" and seen["rows"] == lost["rows"]
        back = a.post("/api/import", json={"file": b.get("/api/export").json()}).json()
        assert back == {"added": 1, "present": 2, "conflicting": 0}
        assert stats(a)["played"] == stats(b)["played"] == 3


@pytest.mark.slow
def test_a_changed_or_foreign_file_is_refused(lists, store_target, tmp_path) -> None:
    with browsers(lists, store_target) as (a, b):
        play(a, store_target, win=False)
        data = a.get("/api/export").json()
        forged = {**data, "games": [{**g, "status": "won"} for g in data["games"]]}
        refused = b.post("/api/import", json={"file": forged})
        assert refused.status_code == 400 and refused.json()["code"] == "bad_transfer_file"
        assert "changed" in refused.json()["error"]
        assert b.post("/api/import", json={"file": {"format": "other"}}).json()["code"] == "bad_transfer_file"
        assert b.post("/api/import", json={}).status_code == 400
    with browsers(lists, tmp_path / "elsewhere.sqlite3", 1) as (elsewhere,):  # another server's database
        r = elsewhere.post("/api/import", json={"file": data}, headers={"Accept-Language": "de"})
        assert r.status_code == 400 and r.json()["code"] == "bad_transfer_file"


@pytest.mark.slow
def test_a_code_brings_the_games_for_a_day(lists, store_target, monkeypatch) -> None:
    with browsers(lists, store_target) as (a, b):
        play(a, store_target)
        made = a.post("/api/export/code").json()
        code = made["code"]
        assert made["expires_in"] == transfer.CODE_HOURS * 3600 and len(code) == 9 and code[4] == "-"
        typed = " " + code.lower().replace("-", " ").replace("1", "l").replace("0", "o") + " "
        assert b.post("/api/import", json={"code": typed}).json() == {"added": 1, "present": 0, "conflicting": 0}
        play(a, store_target)  # the code names a's games as they are when it is typed
        assert b.post("/api/import", json={"code": code}).json() == {"added": 1, "present": 1, "conflicting": 0}
        unknown = b.post("/api/import", json={"code": "ZZZZ-ZZZZ"})
        assert unknown.status_code == 400 and unknown.json()["code"] == "unknown_transfer_code"
        monkeypatch.setattr(transfer, "CODE_HOURS", 0)  # every code is too old now
        assert b.post("/api/import", json={"code": code}).json()["code"] == "unknown_transfer_code"


@pytest.mark.slow
def test_a_days_daily_game_is_not_counted_twice(lists, store_target) -> None:
    with browsers(lists, store_target) as (a, b):
        play(a, store_target, "daily")
        play(b, store_target, "daily", win=False)
        got = b.post("/api/import", json={"file": a.get("/api/export").json()}).json()
        assert got == {"added": 0, "present": 0, "conflicting": 1}
        assert stats(b, "daily")["played"] == 1


@pytest.mark.slow
def test_codes_and_imports_are_limited_per_address(lists, tmp_path) -> None:
    policy = Policy(tarpit=0, transfer="2 per hour")
    with browsers(lists, tmp_path / "db.sqlite3", 1, policy) as (a,):
        assert [a.post("/api/export/code").status_code for _ in range(3)] == [200, 200, 429]


def test_an_import_may_be_larger_than_other_bodies(lists, tmp_path) -> None:
    with browsers(lists, tmp_path / "db.sqlite3", 1) as (a,):
        padding = " " * (1024 * 1024)  # 1 MiB of JSON whitespace: over the API's cap, under the import's
        body = '{"file": {"format": "other"}' + padding + "}"
        r = a.post("/api/import", content=body, headers={"Content-Type": "application/json"})
        assert r.status_code == 400 and r.json()["code"] == "bad_transfer_file"
        r = a.post("/api/hints", content=body, headers={"Content-Type": "application/json"})
        assert r.status_code == 413


@pytest.mark.slow
def test_the_history_shows_every_game_and_its_review_once_made(lists, store_target, monkeypatch) -> None:
    with browsers(lists, store_target) as (a, other_node):
        assert a.get("/api/history").json() == {"games": [], "more": False}
        won = play(a, store_target)
        lost = play(a, store_target, win=False)
        in_play = a.post("/api/games", json={"list": "small", "mode": "practice"}).json()
        wrong = "aback" if answer_of(store_target, in_play["id"]) != "aback" else "abase"
        a.post(f"/api/games/{in_play['id']}/guesses", json={"guess": wrong})
        history = a.get("/api/history").json()["games"]
        assert [g["id"] for g in history] == [in_play["id"], lost["id"], won["id"]]  # newest first
        assert history[0]["answers"] is None and history[0]["review"] == "unavailable"
        assert history[2]["rows"] == won["rows"] and history[2]["answers"] == won["answers"]
        assert history[2]["review"] == "none"
        first = a.get(f"/api/games/{won['id']}/review", params={"wait": "false"})
        assert first.status_code in (200, 202)
        deadline = time.monotonic() + 120
        while (r := a.get(f"/api/games/{won['id']}/review", params={"wait": "false"})).status_code == 202:
            assert r.json() == {"status": "pending"} and r.headers["retry-after"] == "1"
            assert time.monotonic() < deadline
            time.sleep(0.1)
        review = r.json()
        assert r.status_code == 200 and review["answer"] == won["answers"][0]
        assert [g["review"] for g in a.get("/api/history").json()["games"]][2] == "kept"
        from raten.web.routes import review as review_module

        monkeypatch.setattr(review_module, "game_review", lambda _g: pytest.fail("reviewed again"))
        other_node.cookies = a.cookies
        again = other_node.get(f"/api/games/{won['id']}/review")  # another node: the kept one
        assert again.status_code == 200 and again.json() == review
        waited = a.get(f"/api/games/{lost['id']}/review")  # waiting (the default), as the game page does
        assert waited.status_code == 200 and waited.json()["answer"] == lost["answers"][0]
