"""What the nodes of one deployment share through Redis (``--redis``): the rate limits and the
hint cache; Redis gone while they run (counted and cached per process, one log line each way)
and Redis wrong at start (one clear error)."""

from __future__ import annotations

import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx2
    from fastapi.testclient import TestClient

from nodes import small_lists

from raten.engine.feedback import format_pattern, pattern
from raten.engine.words import WordSet
from raten.errors import RatenError
from raten.web import create_app, sharing
from raten.web.limits import Policy
from raten.web.service import HintQuery, Lists


def node(lists: Lists, db, redis_url: str | None, policy: Policy | None = None) -> TestClient:
    app = create_app(lists=lists, db_path=db, daily_secret="s", redis_url=redis_url, policy=policy or Policy(tarpit=0))
    return TestClient(app)


def hint(c: TestClient, guess: str, answer: str = "aback"):
    """Hints after ``guess`` coloured against ``answer`` (one of the small list's solutions)."""
    row = {"guess": guess, "pattern": format_pattern(pattern(guess, answer))}
    return c.post("/api/hints", json={"list": "small", "rows": [row]})


@pytest.mark.slow
def test_two_nodes_count_one_address_together(en_words, tmp_path, redis) -> None:
    policy = Policy(tarpit=0, address="3 per hour")
    lists = small_lists(en_words)
    with node(lists, tmp_path / "a.db", redis.url, policy) as a, node(lists, tmp_path / "b.db", redis.url, policy) as b:
        assert [a.get("/api/lists").status_code for _ in range(2)] == [200, 200]
        assert b.get("/api/lists").status_code == 200
        refused = b.get("/api/lists")
        assert refused.status_code == 429 and refused.json()["code"] == "too_many_requests"
        assert a.get("/api/lists").status_code == 429
    # without Redis each node counts its own
    with node(lists, tmp_path / "a.db", None, policy) as a, node(lists, tmp_path / "b.db", None, policy) as b:
        assert [a.get("/api/lists").status_code for _ in range(3)] == [200] * 3
        assert [b.get("/api/lists").status_code for _ in range(3)] == [200] * 3


@pytest.mark.slow
def test_a_state_ranked_on_one_node_is_answered_by_another_from_redis(en_words, tmp_path, redis, monkeypatch) -> None:
    first, second = small_lists(en_words), small_lists(en_words)
    guess = en_words.allowed[7]
    with node(first, tmp_path / "a.db", redis.url) as a:
        ranked = hint(a, guess)
        assert ranked.status_code == 200, ranked.text
    monkeypatch.setattr(Lists, "rank", lambda *_a: pytest.fail("ranked again on the second node"))
    with node(second, tmp_path / "b.db", redis.url) as b:
        again = hint(b, guess)
    assert again.status_code == 200 and again.json() == ranked.json()


def test_nodes_of_other_words_under_the_same_name_never_share_answers(en_words) -> None:
    mine = small_lists(en_words)
    words = WordSet.from_lists(en_words.solutions[60:120], en_words.allowed[:120], name="small", language="en")
    theirs = Lists.load({"small": words})
    q = HintQuery(name="small", rows=(("crane", "....."),))
    assert mine.shared_key(mine.resolved(q)) != theirs.shared_key(theirs.resolved(q))


@pytest.mark.slow
def test_redis_gone_while_serving_counts_and_caches_per_process(en_words, tmp_path, redis, caplog, monkeypatch) -> None:
    policy = Policy(tarpit=0, address="1000 per hour")
    lists = small_lists(en_words)
    with node(lists, tmp_path / "a.db", redis.url, policy) as a, caplog.at_level("INFO", logger="uvicorn.error"):
        assert hint(a, en_words.allowed[3]).status_code == 200
        redis.stop()
        for guess in en_words.allowed[4:8]:  # rates and hints still work, on the node's own
            r = hint(a, guess)
            assert r.status_code == 200, r.text
        assert a.post("/api/games", json={"list": "small", "mode": "practice"}).status_code == 200
        down = [r.getMessage() for r in caplog.records if "Redis" in r.getMessage()]
        assert len(down) == 1 and "cannot be used" in down[0] and "per process" in down[0]
        redis.start()
        monkeypatch.setattr(sharing, "RETRY_SECONDS", 0.0)
        a.app.state.shared._down_until = 0.0  # the retry time is due now
        assert hint(a, en_words.allowed[9]).status_code == 200
        lines = [r.getMessage() for r in caplog.records if "Redis" in r.getMessage()]
        assert lines[-1].endswith("works again") and len(lines) == 2


@pytest.mark.parametrize("url", ["http://127.0.0.1:6379", "127.0.0.1:6379", "redis://127.0.0.1:{port}/0"])
def test_a_redis_that_cannot_be_used_stops_the_start_with_one_line(en_words, tmp_path, url) -> None:
    import redis_server

    url = url.format(port=redis_server.free_port())
    with pytest.raises(RatenError) as refused:
        create_app(lists=small_lists(en_words), db_path=tmp_path / "a.db", redis_url=url)
    assert "Redis" in str(refused.value) and "\n" not in str(refused.value)


def test_a_password_never_shows() -> None:
    assert sharing.redacted("redis://user:secret@host:6379/0") == "redis://user:***@host:6379/0"
    with pytest.raises(RatenError) as refused:
        sharing.check_url("http://user:secret@host")
    assert "secret" not in str(refused.value)


def test_raten_serve_with_a_redis_it_cannot_use_exits_with_one_line(tmp_path, monkeypatch) -> None:
    import uvicorn
    from click.testing import CliRunner

    import redis_server
    from raten.cli.main import main as cli

    monkeypatch.setattr(uvicorn, "run", lambda *_a, **_k: pytest.fail("served"))
    for url in ("http://example", f"redis://127.0.0.1:{redis_server.free_port()}/0"):
        args = ["serve", "--db", str(tmp_path / "db.sqlite3"), "--lists", "en", "--redis", url]
        result = CliRunner().invoke(cli, args)
        assert result.exit_code != 0 and "Redis" in result.output, result.output
        assert "Traceback" not in result.output
