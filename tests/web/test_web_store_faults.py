"""A store fault while the server runs (the SQLite file deleted or unwritable, PostgreSQL's
connections gone): one clear log line, JSON 503s with Retry-After, never a crash or a 500, and
the server works again once the fault is gone."""

from __future__ import annotations

import contextlib
import shutil
import sqlite3
import warnings
from pathlib import Path

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx2
    from fastapi.testclient import TestClient

from raten.engine.words import WordSet
from raten.web import create_app
from raten.web.limits import Policy
from raten.web.service import Lists

ROOMY = Policy(address="10000/second", player="10000/second", work="10000/second", new_player="10000/second")


@pytest.fixture(scope="module")
def lists(en_words) -> Lists:
    words = WordSet.from_lists(en_words.solutions[:40], en_words.allowed[:80], name="small", language="en")
    return Lists.load({"small": words})


def refused(response) -> None:
    assert response.status_code == 503, response.text
    assert response.json()["code"] == "store_unavailable"
    assert int(response.headers["Retry-After"]) >= 1


def fault_lines(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "uvicorn.error" and "database" in r.getMessage()]


def play(c: TestClient) -> dict:
    """Start a practice game (its player made by the first one)."""
    r = c.post("/api/games", json={"list": "small", "mode": "practice"})
    assert r.status_code == 200, r.text
    return r.json()


def test_a_deleted_sqlite_file_is_503_until_it_is_restored(tmp_path, lists, caplog) -> None:
    db = tmp_path / "raten.sqlite3"
    app = create_app(lists=lists, db_path=db, daily_secret="f", policy=ROOMY)
    backup = tmp_path / "backup.sqlite3"
    with TestClient(app) as c, caplog.at_level("INFO", logger="uvicorn.error"):
        game = play(c)
        with contextlib.closing(sqlite3.connect(db)) as src, contextlib.closing(sqlite3.connect(backup)) as dst:
            src.backup(dst)
        for suffix in ("", "-wal", "-shm"):
            Path(f"{db}{suffix}").unlink(missing_ok=True)
        for _ in range(3):
            refused(c.get(f"/api/games/{game['id']}"))
            refused(c.post("/api/games", json={"list": "small", "mode": "practice"}))
        lines = fault_lines(caplog)
        assert len(lines) == 1, lines  # one line for the outage, not one per request
        assert "was deleted while the server runs" in lines[0] and str(db) in lines[0]
        assert c.get("/api/lists").status_code == 200  # what needs no database is served meanwhile
        shutil.copy(backup, db)  # the operator restores it
        again = c.get(f"/api/games/{game['id']}")
        assert again.status_code == 200, again.text
        assert again.json()["id"] == game["id"]
        assert play(c)["id"] != game["id"]
    lines = fault_lines(caplog)
    assert any("was replaced; opened it again" in line for line in lines)
    assert lines[-1].endswith("works again")


def test_an_unwritable_sqlite_file_is_503_and_reads_still_work(tmp_path, lists, caplog) -> None:
    """Unwritable as SQLite sees it (root ignores file modes, so the test asks SQLite itself to
    refuse writes): moves are refused with 503, and accepted again once writes work."""
    app = create_app(lists=lists, db_path=tmp_path / "raten.sqlite3", daily_secret="f", policy=ROOMY)
    engine = app.state.store.engine
    with TestClient(app) as c, caplog.at_level("INFO", logger="uvicorn.error"):
        game = play(c)
        word = lists.get("small").words.allowed[0]
        engine.read("PRAGMA query_only=ON")
        guess = c.post(f"/api/games/{game['id']}/guesses", json={"guess": word})
        refused(guess)
        refused(c.post("/api/games", json={"list": "small", "mode": "practice"}))
        assert c.get(f"/api/games/{game['id']}").status_code == 200
        engine.read("PRAGMA query_only=OFF")
        guess = c.post(f"/api/games/{game['id']}/guesses", json={"guess": word})
        assert guess.status_code == 200, guess.text
    lines = fault_lines(caplog)
    assert len(lines) == 2 and "readonly" in lines[0] and lines[1].endswith("works again"), lines


@pytest.mark.slow
def test_postgresql_gone_is_503_then_it_recovers(postgres, lists, caplog, monkeypatch) -> None:  # noqa: ARG001 - skips without PostgreSQL
    """The PostgreSQL server stopped under a running raten (a server of its own, so the other
    tests keep theirs): 503s within the pool's timeout, then the same game is played on once it
    is back."""
    import time

    import postgres_server
    from raten.web.store import postgres as postgres_engine

    monkeypatch.setattr(postgres_engine, "POOL_TIMEOUT", 1.0)  # a request waits this long for a connection
    with postgres_server.running() as server:
        url = server.create()
        app = create_app(lists=lists, db_path=url, daily_secret="f", policy=ROOMY)
        with TestClient(app) as c, caplog.at_level("INFO", logger="uvicorn.error"):
            game = play(c)
            server.pause()
            refused(c.get(f"/api/games/{game['id']}"))
            refused(c.get(f"/api/games/{game['id']}"))
            server.resume()
            deadline = time.monotonic() + 60
            while (r := c.get(f"/api/games/{game['id']}")).status_code != 200:
                assert r.status_code == 503 and time.monotonic() < deadline, r.text
                time.sleep(0.2)
            word = lists.get("small").words.allowed[0]
            assert c.post(f"/api/games/{game['id']}/guesses", json={"guess": word}).status_code == 200
    lines = fault_lines(caplog)
    assert len(lines) == 2, lines
    assert "cannot be used" in lines[0] and lines[1].endswith("works again")
