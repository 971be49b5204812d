"""The web app under abuse and faults: ranking once, capped work, limits, every error JSON,
security headers, the player cookie, HEAD on pages."""

from __future__ import annotations

import json
import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from raten.engine.state import State
from raten.web import create_app
from raten.web import service as service_module
from raten.web.limits import Policy
from raten.web.service import HintQuery, Lists


@pytest.fixture(scope="module")
def lists(en_words) -> Lists:
    return Lists.load({"en": en_words})


def make(lists, tmp_path, **options) -> TestClient:
    return TestClient(create_app(lists=lists, db_path=tmp_path / "db.sqlite3", daily_secret="t", **options))


@pytest.fixture
def client(lists, tmp_path):
    with make(lists, tmp_path) as c:
        yield c


def error_code(r, status: int) -> str:
    assert r.status_code == status, r.text
    assert r.headers["content-type"] == "application/json"
    assert set(r.json()) == {"error", "code"}
    return r.json()["code"]


# --- item 2: rank once and slice, capped work ---------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("strategy", ["entropy", "minimax", "frequency", "lookahead"])
def test_a_state_is_ranked_once_and_sliced_for_every_top_and_limit(client, en_words, monkeypatch, strategy):
    rows = [{"guess": "crane", "pattern": "..?!."}]
    first = client.post("/api/hints", json={"rows": rows, "top": 50, "limit": 20000, "strategy": strategy}).json()
    calls = []
    monkeypatch.setattr(Lists, "rank", lambda _self, q: calls.append(q))  # any new ranking would be seen
    for top, limit in [(1, 0), (3, 5), (50, 20000), (17, 2)]:
        body = {"rows": rows, "top": top, "limit": limit, "strategy": strategy}
        answer = client.post("/api/hints", json=body).json()
        assert answer["hints"] == first["hints"][:top]
        assert answer["candidates"] == first["candidates"][:limit]
    assert calls == []
    direct = State(en_words).after("crane", "..?!.").hints(top=7, strategy=strategy)
    assert [h["word"] for h in first["hints"][:7]] == [h.word for h in direct]


def test_the_cache_key_leaves_out_top_and_limit():
    assert HintQuery(name="en", top=1, limit=0).key == HintQuery(name="en", top=50, limit=9).key


def test_the_cache_is_bounded_in_bytes(lists):
    small = Lists(lists.entries, cache_bytes=30_000)
    for guess in ["crane", "slate", "tours", "pious", "fjord", "mumbo"]:
        small.hints_json(HintQuery(name="en", rows=((guess, "....."),)))
    assert small._cache_used <= 30_000 or len(small._cache) == 1
    assert len(small._cache) < 6


def test_look_ahead_on_a_broad_state_is_refused_without_work(client, monkeypatch):
    monkeypatch.setattr(State, "hints", lambda *_a, **_k: pytest.fail("ranked"))
    r = client.post("/api/hints", json={"strategy": "lookahead", "top": 50})
    assert error_code(r, 400) == "lookahead_too_broad"
    r = client.post("/api/hints", json={"strategy": "lookahead"}, headers={"Accept-Language": "de"})
    assert "Vorausschau" in r.json()["error"]


def test_a_huge_fallback_is_not_ranked(client, monkeypatch, en_words):
    monkeypatch.setattr(service_module, "FALLBACK_MAX_RANKED", 5)
    state = State(en_words).after("jujus", "!...!")  # no solution: J...S without U
    assert state.fallback is not None and state.count > 5
    body = client.post("/api/hints", json={"rows": [{"guess": "jujus", "pattern": "!...!"}]}).json()
    assert body["fallback"] and body["hints"] == [] and body["split"] is None
    assert body["count"] == state.count
    assert "too many to rank" in body["warnings"][-1]


def test_a_full_work_queue_is_a_json_503_with_retry_after(lists, tmp_path, monkeypatch):
    with make(lists, tmp_path, queue=0, policy=Policy(tarpit=0)) as c:
        assert c.post("/api/hints", json={"top": 1}).status_code == 200
        queue = c.app.state.limits.queue
        monkeypatch.setattr(queue, "_pending", queue.workers)  # every worker busy
        r = c.post("/api/hints", json={"rows": [{"guess": "slate", "pattern": "....?"}]})
        assert error_code(r, 503) == "busy"
        assert r.headers["retry-after"] == "1"
        # cached answers and everything else still go through
        assert c.post("/api/hints", json={"top": 9, "limit": 3}).status_code == 200


def test_uncached_work_per_address_is_limited(lists, tmp_path):
    with make(lists, tmp_path, policy=Policy(tarpit=0, work="2 per hour")) as c:
        codes = [
            c.post("/api/hints", json={"rows": [{"guess": g, "pattern": "....."}]}).status_code
            for g in ["pious", "fjord", "mumbo"]
        ]
        assert codes == [200, 200, 429]
        assert c.post("/api/hints", json={"rows": [{"guess": "pious", "pattern": "....."}]}).status_code == 200


@pytest.mark.slow
def test_requests_per_address_and_per_player_are_limited(lists, tmp_path):
    with make(lists, tmp_path, policy=Policy(tarpit=0, address="3 per hour")) as c:
        assert [c.get("/api/lists").status_code for _ in range(4)] == [200, 200, 200, 429]
        r = c.get("/api/lists", headers={"Accept-Language": "de"})
        assert error_code(r, 429) == "too_many_requests"
        assert r.json()["error"] == "Zu viele Anfragen; bitte langsamer"
        assert int(r.headers["retry-after"]) >= 1
        assert c.get("/static/common.js").status_code == 200  # files are not counted
    with make(lists, tmp_path, policy=Policy(tarpit=0, player="2 per hour")) as c:
        c.cookies.set("raten_player", "x" * 32)
        assert [c.get("/api/lists").status_code for _ in range(3)] == [200, 200, 429]


def test_anonymous_players_are_made_only_so_fast_per_address(lists, tmp_path):
    with make(lists, tmp_path, policy=Policy(tarpit=0, new_player="2 per hour")) as c:
        for _ in range(2):
            c.cookies.clear()
            assert c.post("/api/games", json={"mode": "practice"}).status_code == 200
        kept = c.cookies["raten_player"]
        c.cookies.clear()
        assert error_code(c.post("/api/games", json={"mode": "practice"}), 429) == "too_many_requests"
        c.cookies.set("raten_player", kept)  # a known player still plays
        assert c.post("/api/games", json={"mode": "practice"}).status_code == 200


# --- item 1: bodies and strings ------------------------------------------------------------------


def test_a_body_over_the_cap_is_a_json_413(client):
    r = client.post("/api/hints", content=b" " * (200 * 1024), headers={"Content-Type": "application/json"})
    assert error_code(r, 413) == "too_large"
    r = client.post(
        "/api/hints",
        content=b" " * (200 * 1024),
        headers={"Content-Type": "application/json", "Accept-Language": "de"},
    )
    assert "gr\u00f6\u00dfer als" in r.json()["error"]


def test_a_chunked_body_over_the_cap_is_a_json_413(client):
    def chunks():
        for _ in range(300):
            yield b" " * 1024

    r = client.post("/api/hints", content=chunks(), headers={"Content-Type": "application/json"})
    assert error_code(r, 413) == "too_large"


def test_every_string_field_of_a_request_has_a_max_length(client):
    schema = client.get("/openapi.json").json()["components"]["schemas"]
    for name in ["HintsIn", "Row", "GameIn", "GuessIn"]:
        for field, prop in schema[name]["properties"].items():
            if prop.get("type") == "string" and "enum" not in prop:
                assert prop.get("maxLength", 0) <= 40, (name, field)
                assert "maxLength" in prop, (name, field)


def test_an_overlong_game_guess_or_list_is_refused(client):
    assert error_code(client.post("/api/games", json={"list": "e" * 41}), 400) == "bad_request"
    game = client.post("/api/games", json={"mode": "practice"}).json()
    assert error_code(client.post(f"/api/games/{game['id']}/guesses", json={"guess": "c" * 41}), 422) == "validation"


# --- item 3: every error is JSON -----------------------------------------------------------------


def test_a_store_conflict_is_a_json_409(client, monkeypatch):
    from raten.web.store import ConflictError, Store

    game = client.post("/api/games", json={"mode": "daily"}).json()

    def raced(_self, _record, _hard):
        raise ConflictError("hard mode can only change before the first guess")

    monkeypatch.setattr(Store, "set_hard", raced)
    r = client.post("/api/games", json={"mode": "daily", "hard": True})
    assert error_code(r, 409) == "conflict"
    assert game["id"]


def test_an_unexpected_error_is_a_json_500_without_a_traceback(lists, tmp_path, monkeypatch):
    def broken(_self):
        raise RuntimeError("secret internal detail")

    monkeypatch.setattr(Lists, "daily_entry", lambda self, _language: broken(self))
    with TestClient(
        create_app(lists=lists, db_path=tmp_path / "db.sqlite3", daily_secret="t"), raise_server_exceptions=False
    ) as c:
        r = c.post("/api/games", json={"mode": "daily"})
        assert error_code(r, 500) == "internal"
        assert "secret" not in r.text and "Traceback" not in r.text
        assert r.headers["x-content-type-options"] == "nosniff"


# --- item 4: headers and the cookie --------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("path", ["/", "/play", "/openers", "/api/lists", "/static/raten.css", "/nope"])
def test_security_headers_on_every_response(client, path):
    r = client.get(path)
    csp = r.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in csp
    assert "script-src 'self';" in csp and "unsafe-inline" not in csp
    assert r.headers["x-content-type-options"] == "nosniff"


@pytest.mark.slow
def test_the_pages_have_no_inline_script_or_style(client):
    import re

    for path in ["/", "/play", "/openers"]:
        html = client.get(path).text
        for attrs in re.findall(r"<script([^>]*)>", html):
            assert "src=" in attrs or 'type="application/json"' in attrs, attrs
        assert "<style" not in html and " style=" not in html
        assert not re.search(r"\son[a-z]+=", html)


def test_the_api_docs_policy_allows_exactly_their_inline_scripts(client):
    from raten.web.headers import inline_script_hashes

    for path in ["/docs", "/redoc"]:
        r = client.get(path)
        for source in inline_script_hashes(r.text):
            assert source in r.headers["content-security-policy"]


@pytest.mark.slow
@pytest.mark.parametrize("path", ["/", "/solver", "/play", "/openers"])
def test_head_on_pages(client, path):
    r = client.head(path)
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/html")


@pytest.mark.slow
def test_the_player_cookie_is_secure_over_https_only(lists, tmp_path):
    with make(lists, tmp_path) as c:
        r = c.post("/api/games", json={"mode": "practice"}, headers={"X-Forwarded-Proto": "https"})
        assert "secure" not in r.headers["set-cookie"].lower()  # a header the app was not told to trust
    app = create_app(lists=lists, db_path=tmp_path / "db2.sqlite3", daily_secret="t")
    with TestClient(app, base_url="https://testserver") as c:
        r = c.post("/api/games", json={"mode": "practice"})
        cookie = r.headers["set-cookie"].lower()
        assert "secure" in cookie and "httponly" in cookie


def test_hint_answers_are_json_from_the_cache_too(client):
    first = client.post("/api/hints", json={"top": 2})
    second = client.post("/api/hints", json={"top": 2})
    assert first.content == second.content
    assert json.loads(first.content)["hints"]
