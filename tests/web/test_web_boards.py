"""The web's many boards (issue 14) and statistics (issue 12 item 5) through HTTP: Dordle and
Quordle games, POST /api/hints/boards, GET /api/stats per mode and variant, the palette, and a
database made before many boards."""

from __future__ import annotations

import json
import sqlite3
import warnings
from datetime import date

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx2
    from fastapi.testclient import TestClient

from raten.engine.boards import Boards
from raten.engine.feedback import format_pattern, pattern
from raten.play import game as game_module
from raten.play.game import daily_answers, daily_number
from raten.web import create_app
from raten.web.service import Lists
from raten.web.store import DuplicateError, Store
from raten.wordlists.presets import load_words
from raten.wordlists.prior import apply_prior

DAY = date(2025, 5, 17)
ANSWERS = ("pleat", "dumpy", "shirk", "crane")


@pytest.fixture(scope="module")
def lists(en_words) -> Lists:
    return Lists.load({"en": en_words, "de": load_words("de")})


@pytest.fixture
def app(lists, tmp_path):
    return create_app(lists=lists, db_path=tmp_path / "raten.sqlite3", daily_secret="test", today=lambda: DAY)


@pytest.fixture
def client(app):
    with TestClient(app) as c:
        yield c


@pytest.fixture
def _known(monkeypatch):
    """Practice games get ANSWERS (or the first n of them)."""
    monkeypatch.setattr(game_module, "practice_answers", lambda _words, n: ANSWERS[:n])


def error_of(response, status: int) -> str:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error", "code"} and body["error"]
    return body["code"]


def start(client, **body) -> dict:
    r = client.post("/api/games", json={"list": "en", **body})
    assert r.status_code == 200, r.text
    return r.json()


def guess(client, game_id: str, word: str, **params):
    return client.post(f"/api/games/{game_id}/guesses", json={"guess": word}, params=params)


# --- games ---------------------------------------------------------------------------------------


@pytest.mark.slow
def test_a_practice_quordle_to_the_end_without_the_answers_showing_early(client, _known):
    game = start(client, mode="practice", boards=4)
    assert game["boards"] == 4 and game["max_tries"] == 9 and game["status"] == "playing"
    assert game["answer"] is None and game["answers"] is None and game["solved_at"] == [None] * 4
    for word in ("slate", "pleat", "dumpy", "shirk"):
        body = guess(client, game["id"], word).json()
        unsolved = [a for a in ANSWERS if a not in [r["guess"] for r in body["rows"]]]
        text = json.dumps(body)
        assert not any(a in text for a in unsolved), "an answer not yet found reached the player"
        assert body["share"] is None and body["stats"] is None
    assert body["rows"][1] == {
        "guess": "pleat",
        "pattern": ",".join(format_pattern(pattern("pleat", a)) for a in ANSWERS),
        "patterns": [format_pattern(pattern("pleat", a)) for a in ANSWERS],
    }
    assert body["rows"][3]["patterns"][0] is None  # board 1 was solved by PLEAT
    assert body["rows"][3]["pattern"].startswith("-,-,!!!!!,")
    # board 1 (PLEAT) counts SLATE and PLEAT only; board 2 (DUMPY) has seen its D green
    assert body["keyboards"][0]["s"] == "absent" and body["keyboards"][0]["p"] == "correct"
    assert "d" not in body["keyboards"][0] and body["keyboards"][1]["d"] == "correct"
    won = guess(client, game["id"], "crane").json()
    assert won["status"] == "won" and won["answers"] == list(ANSWERS) and won["solved_at"] == [2, 3, 4, 5]
    assert won["share"].splitlines()[:4] == [
        "raten Quordle en practice 5/9",
        "",
        "2\ufe0f\u20e3 3\ufe0f\u20e3",
        "4\ufe0f\u20e3 5\ufe0f\u20e3",
    ]
    assert won["stats"]["boards"] == 4 and won["stats"]["played"] == 1 and won["stats"]["marked"] == 5
    assert len(won["stats"]["distribution"]) == 9
    assert error_of(guess(client, game["id"], "slate"), 409) == "game_over"
    assert error_of(client.get(f"/api/games/{game['id']}/review"), 400) == "bad_request"


def test_the_daily_dordle_is_the_same_for_everyone_and_resumes(app, client, en_words):
    mine = start(client, boards=2)
    with TestClient(app) as other:
        theirs = other.post("/api/games", json={"list": "en", "boards": 2}).json()
    store = app.state.store
    expected = daily_answers(en_words, DAY, 2, "test")
    for c, g in ((client, mine), (other, theirs)):
        assert store.game(c.cookies["raten_player"], g["id"]).answers == expected
    assert mine["number"] == daily_number(DAY) and mine["max_tries"] == 7
    guess(client, mine["id"], "slate")
    again = start(client, boards=2)
    assert again["id"] == mine["id"] and [r["guess"] for r in again["rows"]] == ["slate"]
    # the day's Wordle and Quordle are games of their own
    assert start(client)["id"] != mine["id"] and start(client, boards=4)["id"] != mine["id"]


def test_no_hard_mode_on_many_boards_in_the_asked_language(client):
    r = client.post("/api/games", json={"list": "en", "boards": 4, "hard": True}, headers={"Accept-Language": "de"})
    assert error_of(r, 400) == "bad_request"
    assert r.json()["error"] == "Quordle hat keinen schweren Modus"
    assert error_of(client.post("/api/games", json={"list": "en", "boards": 3}), 422) == "validation"


def test_the_high_contrast_palette_and_a_bad_one(client, _known):
    game = start(client, mode="practice", boards=2)
    guess(client, game["id"], "dumpy")
    body = guess(client, game["id"], "pleat", palette="high").json()
    assert "\U0001f7e7" * 5 in body["share"] and "\U0001f7e9" not in body["share"]
    assert "\U0001f7e9" * 5 in client.get(f"/api/games/{game['id']}").json()["share"]
    assert error_of(client.get(f"/api/games/{game['id']}", params={"palette": "neon"}), 422) == "validation"


# --- statistics ------------------------------------------------------------------------------------


def stats(client, **params) -> dict:
    r = client.get("/api/stats", params={"list": "en", **params})
    assert r.status_code == 200, r.text
    return r.json()


def test_daily_and_practice_and_each_variant_are_counted_apart(app, client, _known):
    # practice Dordle: one won, one abandoned after a guess (counts), one replaced before any (does not)
    game = start(client, mode="practice", boards=2)
    guess(client, game["id"], "pleat")
    guess(client, game["id"], "dumpy")
    left = start(client, mode="practice", boards=2)
    guess(client, left["id"], "slate")
    start(client, mode="practice", boards=2)
    start(client, mode="practice", boards=2)
    s = stats(client, boards=2, mode="practice")
    assert (s["played"], s["wins"], s["current_streak"], s["max_streak"]) == (2, 1, 0, 1)
    assert s["marked"] is None and s["share"] is not None and s["share"].startswith("raten Dordle en practice 2/7")
    gone = client.get(f"/api/games/{left['id']}").json()
    assert gone["status"] == "abandoned" and gone["answers"] == list(ANSWERS[:2])
    assert error_of(guess(client, left["id"], "pleat"), 409) == "game_over"
    # nothing of it in the daily Dordle or in the other variants
    assert stats(client, boards=2)["played"] == 0
    assert stats(client, boards=4, mode="practice")["played"] == 0
    assert stats(client, mode="practice")["played"] == 0
    # today's daily Dordle, won: its bar is marked and its share text offered
    daily = start(client, boards=2)
    record = app.state.store.game(client.cookies["raten_player"], daily["id"])
    for word in record.answers:
        guess(client, daily["id"], word)
    d = stats(client, boards=2)
    assert (d["played"], d["wins"], d["current_streak"], d["marked"], d["number"]) == (1, 1, 1, 2, daily_number(DAY))
    assert d["share"].startswith(f"raten Dordle en #{daily_number(DAY)} 2/7")
    assert 0 <= d["next_daily_seconds"] <= 24 * 3600


def test_the_daily_streak_over_days(lists, tmp_path):
    days = [date(2025, 5, 1), date(2025, 5, 2), date(2025, 5, 3), date(2025, 5, 5)]
    today = {"day": days[0]}
    app = create_app(lists=lists, db_path=tmp_path / "d.sqlite3", daily_secret="t", today=lambda: today["day"])
    with TestClient(app) as client:
        for day in days:
            today["day"] = day
            game = start(client)
            answer = app.state.store.game(client.cookies["raten_player"], game["id"]).answer
            guess(client, game["id"], answer)
            if day == days[2]:
                assert stats(client)["current_streak"] == 3
        s = stats(client)
        assert (s["played"], s["current_streak"], s["max_streak"], s["marked"]) == (4, 1, 3, 1)
        today["day"] = date(2025, 5, 7)  # a day missed
        assert stats(client)["current_streak"] == 0 and stats(client)["marked"] is None


def test_bad_statistics_requests(client):
    assert error_of(client.get("/api/stats", params={"boards": 3}), 400) == "bad_request"
    assert error_of(client.get("/api/stats", params={"mode": "weekly"}), 422) == "validation"
    assert error_of(client.get("/api/stats", params={"list": "xx"}), 400) == "bad_request"


# --- the solver on many boards ------------------------------------------------------------------------


def board_hints(client, **body):
    return client.post("/api/hints/boards", json={"list": "en", **body})


def test_board_hints_are_each_boards_candidates_and_the_engine_ranking(client, en_words):
    answers = ANSWERS
    rows = [{"guess": g, "patterns": [format_pattern(pattern(g, a)) for a in answers]} for g in ("slate", "crane")]
    rows[1]["patterns"][3] = "!!!!!"
    body = board_hints(client, boards=4, rows=rows, top=5, limit=3).json()
    assert body["variant"] == "Quordle" and body["max_tries"] == 9 and body["turns"] == 2 and not body["done"]
    for b, answer in enumerate(answers[:3]):
        fits = [s for s in en_words.solutions if all(pattern(g, s) == pattern(g, answer) for g in ("slate", "crane"))]
        assert body["board"][b]["count"] == len(fits) and body["board"][b]["candidates"] == sorted(fits)[:3]
    assert body["board"][3] == {"board": 4, "solved": True, "solved_at": 2, "count": 1, "candidates": ["crane"]}
    game = Boards.start(en_words, 4)
    for r in rows:
        game = game.after(r["guess"], r["patterns"])
    assert [h["word"] for h in body["hints"]] == [h.word for h in game.hints(top=5)]
    # rows after a board's solve leave it out (null or "-")
    more = [*rows, {"guess": "dumpy", "patterns": [format_pattern(pattern("dumpy", a)) for a in answers[:3]] + [None]}]
    after = board_hints(client, boards=4, rows=more).json()
    assert after["board"][1]["solved_at"] == 3 and after["turns"] == 3


@pytest.mark.slow
def test_board_hints_under_the_frequency_prior(client):
    """prior=frequency: every board's candidates are all allowed words that fit, ranked as the
    library ranks the boards under that prior; without it, the list's own (uniform)."""
    de = load_words("de", prior="uniform")
    answers = ("tasse", "mauer")
    rows = [{"guess": "raten", "patterns": [format_pattern(pattern("raten", a)) for a in answers]}]
    for prior in ("frequency", "uniform"):  # loaded in the background (503 until then); de's own is the mixture
        client.app.state.lists.warmup.wait("de", prior)
    freq = client.post(
        "/api/hints/boards", json={"list": "de", "boards": 2, "rows": rows, "top": 5, "prior": "frequency"}
    )
    plain = client.post(
        "/api/hints/boards", json={"list": "de", "boards": 2, "rows": rows, "top": 5, "prior": "uniform"}
    ).json()
    assert freq.status_code == 200, freq.text
    body = freq.json()
    assert body["prior"] == "frequency" and plain["prior"] == "uniform"
    game = Boards.start(apply_prior(de, "frequency"), 2).after("raten", rows[0]["patterns"])
    assert [b["count"] for b in body["board"]] == [s.count for s in game.states]
    assert [h["word"] for h in body["hints"]] == [h.word for h in game.hints(top=5)]
    uniform = Boards.start(de, 2).after("raten", rows[0]["patterns"])
    assert [b["count"] for b in plain["board"]] == [s.count for s in uniform.states]
    assert all(f > u for f, u in zip([s.count for s in game.states], [s.count for s in uniform.states], strict=True))
    bad = client.post("/api/hints/boards", json={"list": "de", "boards": 2, "rows": rows, "prior": "zipf"})
    assert error_of(bad, 422) == "validation"


def test_board_hints_when_every_board_is_solved(client):
    body = board_hints(client, boards=2, rows=[{"guess": "crane", "patterns": ["!!!!!", "!!!!!"]}]).json()
    assert body["done"] and body["hints"] == [] and [b["solved_at"] for b in body["board"]] == [1, 1]


@pytest.mark.parametrize(
    ("rows", "german"),
    [
        ([{"guess": "crane", "patterns": ["....."]}], "jedes Wort braucht 2 Muster, eins pro Feld, nicht 1"),
        (
            [{"guess": "crane", "patterns": ["!!!!!", "....."]}, {"guess": "slate", "patterns": [".....", "....."]}],
            "Feld 1 ist schon gel\u00f6st",
        ),
        ([{"guess": "crane", "patterns": [None, "....."]}], "Feld 1 ist nicht gel\u00f6st"),
        (
            [{"guess": "crane", "patterns": [".....", "....."]}, {"guess": "crane", "patterns": ["!....", "....."]}],
            "Feld 1: kein Wort passt",
        ),
        ([{"guess": "cran", "patterns": [".....", "....."]}], "\u201ecran\u201c hat 4 Buchstaben"),
    ],
)
@pytest.mark.slow
def test_bad_board_rows_are_400_in_the_asked_language(client, rows, german):
    r = client.post(
        "/api/hints/boards", json={"list": "en", "boards": 2, "rows": rows}, headers={"Accept-Language": "de"}
    )
    assert error_of(r, 400) == "bad_request"
    assert r.json()["error"].startswith(german), r.json()["error"]


def test_malformed_board_requests_are_422(client):
    assert error_of(board_hints(client, boards=17), 422) == "validation"
    assert error_of(board_hints(client, boards=2, strategy="lookahead"), 422) == "validation"
    assert error_of(board_hints(client, boards=2, extra=1), 422) == "validation"


# --- pages ----------------------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    ("path", "script"),
    [
        ("/solver?boards=4", "solver-boards.js"),
        ("/solver?boards=8", "solver-boards.js"),
        ("/play?boards=2", "play-boards.js"),
        ("/play?boards=4&lang=de", "play-boards.js"),
        ("/play?boards=8", "play.js"),  # not offered on the game page: Wordle
        ("/solver?boards=x", "solver.js"),
    ],
)
def test_pages_on_many_boards(client, path, script):
    r = client.get(path)
    assert r.status_code == 200 and f"/static/{script}?v=" in r.text
    assert 'id="stats-open"' in r.text and "/static/stats.js?v=" in r.text


# --- a database from before many boards ------------------------------------------------------------------

OLD_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE players (id TEXT PRIMARY KEY, created TEXT NOT NULL);
CREATE TABLE games (id TEXT PRIMARY KEY, player TEXT NOT NULL REFERENCES players(id), list TEXT NOT NULL,
    mode TEXT NOT NULL CHECK (mode IN ('daily', 'practice')), number INTEGER, hard INTEGER NOT NULL,
    answer TEXT NOT NULL, rows TEXT NOT NULL DEFAULT '[]', status TEXT NOT NULL DEFAULT 'playing',
    created TEXT NOT NULL, updated TEXT NOT NULL);
CREATE UNIQUE INDEX games_daily ON games (player, list, number) WHERE mode = 'daily';
INSERT INTO meta VALUES ('daily_secret', 's');
INSERT INTO players VALUES ('p', '2025-01-01');
INSERT INTO games VALUES ('g', 'p', 'en', 'daily', 7, 0, 'crane', '[["crane", 242]]', 'won', 'x', 'x');
"""


def test_a_database_from_before_many_boards_is_brought_up_to_date(tmp_path):
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as con:
        con.executescript(OLD_SCHEMA)
    store = Store(path)
    old = store.game("p", "g")
    assert old is not None and old.boards == 1 and old.history == (("crane", 242),)
    assert [(f.number, f.won, f.tries) for f in store.finished("p", "en", 1, "daily")] == [(7, True, 1)]
    # the day's Dordle is a game of its own beside the day's Wordle
    store.create_game("p", "en", "daily", 7, False, "pleat,dumpy", 2)
    with pytest.raises(DuplicateError):
        store.create_game("p", "en", "daily", 7, False, "pleat,dumpy", 2)
    store.close()
    assert Store(path).daily_game("p", "en", 7, 2).answers == ("pleat", "dumpy")
