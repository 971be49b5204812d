"""The review behind the pages (issue 13 item 4): what the best guess would have left, the notes
worded in the page's language, and the game's review endpoint giving the library's review once
the game is over (never before: it would tell the answer)."""

from __future__ import annotations

import random
import re
from datetime import date
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from raten.engine.feedback import pattern
from raten.play import game as game_module
from raten.play.review import review
from raten.trees.values import Budget
from raten.web import create_app, i18n
from raten.web.routes import review as review_route
from raten.web.service import Lists
from raten.wordlists.presets import load_words

REVIEW_SOURCE = Path(__file__).resolve().parents[2] / "src" / "raten" / "play" / "review.py"


def big() -> Budget:
    """A budget no test spends, on a fresh clock (one made at import runs out in a long suite)."""
    return Budget(seconds=600)


@pytest.fixture(scope="module")
def de_words():
    return load_words("de", prior="uniform")  # the exact review's tables: the solutions, equally likely


@pytest.fixture(scope="module")
def lists(en_words, de_words) -> Lists:
    return Lists.load({"en": en_words, "de": de_words})


@pytest.fixture
def client(lists, tmp_path):
    app = create_app(lists=lists, db_path=tmp_path / "r.sqlite3", daily_secret="t", today=lambda: date(2025, 6, 1))
    with TestClient(app) as c:
        c.app_state = app.state  # type: ignore[attr-defined]
        yield c


@pytest.fixture(autouse=True)
def steady_reviews(monkeypatch):
    """A search budget no game here reaches: the same game reviewed twice gives the same figures
    (a cell budget too can be reached first by the review that finds the memo cold)."""
    from raten.web.routes import review as api

    monkeypatch.setattr(api, "REVIEW_SECONDS", 120.0)
    monkeypatch.setattr(api, "REVIEW_CELLS", None)


def fits(words, history) -> list[str]:
    """The solutions that agree with every (guess, code) of ``history``: the slow obvious way."""
    return [s for s in words.solutions if all(pattern(g, s) == c for g, c in history)]


def random_game(words, rng: random.Random) -> tuple[list[str], str]:
    """A game played by picking a random candidate each turn (legal in hard mode, as candidates are)."""
    answer = rng.choice(words.solutions)
    guesses: list[str] = []
    history: list[tuple[str, int]] = []
    while not guesses or guesses[-1] != answer:
        pick = rng.choice(fits(words, history))
        guesses.append(pick)
        history.append((pick, pattern(pick, answer)))
    return guesses, answer


@pytest.mark.slow
@pytest.mark.parametrize("hard", [False, True])
def test_what_the_best_guess_would_have_left_is_counted_by_brute_force(de_words, hard):
    rng = random.Random(13 + hard)
    for _ in range(4):
        guesses, answer = random_game(de_words, rng)
        out = review(de_words, guesses, answer, hard=hard, budget=big())
        history: list[tuple[str, int]] = []
        for move, g in zip(out.moves, guesses):
            before = fits(de_words, history)
            assert move.before == len(before)
            assert move.best is not None
            left = [s for s in before if pattern(move.best, s) == pattern(move.best, answer)]
            assert move.best_after == len(left), (guesses, move.number)
            history.append((g, pattern(g, answer)))


def test_without_the_answer_the_best_guess_leaves_no_count(de_words):
    out = review(de_words, ["tarne", "kilos"], patterns=["!!..!", "....?"])
    assert [m.best_after for m in out.moves] == [None, None]


def test_every_review_key_has_a_text_in_both_languages():
    keys = set(re.findall(r'"(review_[a-z_]+)"', REVIEW_SOURCE.read_text()))
    assert {"review_lost_answer", "review_outside", "review_partial"} <= keys
    for key in keys:
        for lang in i18n.LANGUAGES:
            assert i18n.TEXT[lang].get(f"w_{key}") or i18n.TEXT[lang].get(f"err_{key}"), (lang, key)


def play(client, answer: str, guesses: list[str], monkeypatch, hard: bool = False, list_name: str = "en") -> dict:
    monkeypatch.setattr(game_module, "random_word", lambda _words: answer)
    game = client.post("/api/games", json={"list": list_name, "mode": "practice", "hard": hard}).json()
    for word in guesses:
        r = client.post(f"/api/games/{game['id']}/guesses", json={"guess": word})
        assert r.status_code == 200, r.text
    return game


@pytest.mark.slow
@pytest.mark.parametrize(
    ("list_name", "answer", "guesses", "hard"),
    [
        ("en", "music", ["crane", "pious", "music"], False),
        ("de", "lampe", ["tarne", "kappe", "lampe"], True),
        ("en", "knoll", ["crane", "pious", "dumpy", "light", "wreck", "stomp"], False),
    ],
)
@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_games_review_is_the_librarys(client, monkeypatch, list_name, answer, guesses, hard, lang):
    # the same work gives the same review; the seconds' ceiling (a loaded machine reaching it in
    # one of the two and not the other) is lifted so that only the work counts
    monkeypatch.setattr(review_route, "REVIEW_SECONDS", 1e9)
    game = play(client, answer, guesses, monkeypatch, hard, list_name)
    headers = {"Accept-Language": lang}
    mine = client.get(f"/api/games/{game['id']}/review", headers=headers)
    assert mine.status_code == 200, mine.text
    body = {"list": list_name, "guesses": guesses, "answer": answer, "hard": hard}
    posted = client.post("/api/review", json=body, headers=headers).json()
    assert mine.json() == posted
    out = mine.json()
    assert out["hard"] == hard and out["answer"] == answer and [m["guess"] for m in out["moves"]] == guesses
    if answer == "knoll":
        worded = i18n.t(lang, "w_review_lost_answer", n=6, answer="KNOLL")
        assert out["notes"] == [worded]
        assert (worded.startswith("nicht gel\u00f6st")) == (lang == "de")


@pytest.mark.slow
def test_the_review_waits_for_the_end_and_never_tells_the_answer(client, monkeypatch):
    game = play(client, "knoll", ["crane", "pious"], monkeypatch)
    for lang in ("en", "de"):
        r = client.get(f"/api/games/{game['id']}/review", headers={"Accept-Language": lang})
        assert r.status_code == 409 and r.json()["code"] == "not_over"
        assert "knoll" not in r.text.lower()


@pytest.mark.slow
def test_a_game_on_two_boards_has_no_review(client):
    game = client.post("/api/games", json={"list": "en", "mode": "practice", "boards": 2}).json()
    r = client.get(f"/api/games/{game['id']}/review")
    assert r.status_code == 400 and set(r.json()) == {"error", "code"}


@pytest.mark.slow
def test_notes_of_the_game_and_of_its_guesses_are_worded_in_the_pages_language(client, en_words):
    outside = next(w for w in en_words.allowed if w not in en_words.solution_index)
    for lang in ("en", "de"):
        headers = {"Accept-Language": lang}
        out = client.post("/api/review", json={"list": "en", "guesses": [outside], "answer": outside}, headers=headers)
        assert i18n.t(lang, "w_review_outside", answer=outside.upper(), n=2315, list="en") in out.json()["notes"]
        # CRANE leaves CRANK (and itself); XXXXX is no allowed guess
        body = {"list": "en", "guesses": ["crane", "xxxxx"], "patterns": ["!!!!.", "....."]}
        moves = client.post("/api/review", json=body, headers=headers).json()["moves"]
        assert i18n.t(lang, "w_review_not_allowed", word="XXXXX", list="en") in moves[1]["notes"]


@pytest.mark.slow
def test_the_review_api_says_which_guesses_were_safe(client) -> None:
    """Issue 23 item 2: each guess's verdict and the best safe guess; off with ``guarantee: null``;
    a bad limit or coverage is a 422 naming the field."""
    body = {"list": "en", "guesses": ["soare", "beret", "wider", "viper", "riper"], "answer": "riper"}
    r = client.post("/api/review", json=body)
    assert r.status_code == 200, r.text
    out = r.json()
    assert (out["guarantee"], out["guarantee_over"]) == (6, "likely")
    viper = out["moves"][3]["safety"]
    assert viper["status"] == "unsafe" and viper["at_risk"] > 0 and viper["best_safe"] is True
    assert out["moves"][0]["safety"] == {
        "status": "safe",
        "at_risk": 0,
        "best": "soare",
        "best_safe": True,
        "over": "likely",
    }
    off = client.post("/api/review", json=body | {"guarantee": None}).json()
    assert off["guarantee"] is None and all(m["safety"] is None for m in off["moves"])
    for bad in ({"guarantee": 0}, {"guarantee_over": "some"}):
        r = client.post("/api/review", json=body | bad)
        assert r.status_code == 422 and next(iter(bad)) in r.text
