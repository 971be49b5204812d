"""The web app through its HTTP interface: every API endpoint, errors, pages, players kept apart."""

from __future__ import annotations

import json
import re
import warnings
from datetime import date

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx2
    from fastapi.testclient import TestClient

from raten.compat import feedback
from raten.engine.feedback import ALL_GREEN
from raten.engine.state import State
from raten.engine.words import WordSet
from raten.play import game as game_module
from raten.play.game import daily_answers, daily_number
from raten.web import create_app
from raten.web.service import Lists
from raten.wordlists.presets import load_words

DAY = date(2025, 5, 17)


@pytest.fixture(scope="module")
def de_words() -> WordSet:
    return load_words("de")


@pytest.fixture(scope="module")
def lists(en_words, de_words) -> Lists:
    """en and de, warmed once for the module."""
    return Lists.load({"en": en_words, "de": de_words})


@pytest.fixture
def app(lists, tmp_path):
    return create_app(lists=lists, db_path=tmp_path / "raten.sqlite3", daily_secret="test", today=lambda: DAY)


@pytest.fixture
def client(app):
    with TestClient(app) as c:
        yield c


@pytest.fixture
def other(app):
    """A second player on the same server."""
    with TestClient(app) as c:
        yield c


def error_of(response, status: int) -> str:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error", "code"}
    assert body["error"]
    return body["code"]


def start(client, **body) -> dict:
    r = client.post("/api/games", json={"list": "en", **body})
    assert r.status_code == 200, r.text
    return r.json()


def guess(client, game_id: str, word: str, **headers):
    return client.post(f"/api/games/{game_id}/guesses", json={"guess": word}, headers=headers)


def answer_of(app, client, game_id: str) -> str:
    record = app.state.store.game(client.cookies["raten_player"], game_id)
    return record.answer


# --- lists, hints, openers ----------------------------------------------------------------------


def test_lists(client, en_words):
    r = client.get("/api/lists")
    assert r.status_code == 200
    lists = {x["name"]: x for x in r.json()["lists"]}
    assert set(lists) == {"en", "de"}
    assert lists["en"]["solutions"] == len(en_words.solutions)
    assert lists["de"]["language"] == "de"


def test_hints_at_the_start_are_the_openers(client, lists):
    r = client.post("/api/hints", json={"list": "en", "top": 5})
    assert r.status_code == 200
    body = r.json()
    assert body["count"] == 2315 and not body["solved"] and not body["fallback"]
    assert [h["word"] for h in body["hints"]] == [h.word for h in lists.get("en").openers[:5]]
    assert len(body["candidates"]) == 200  # the default limit
    split = body["split"]
    assert split["word"] == body["hints"][0]["word"]
    assert sum(g["count"] for g in split["groups"]) + split["other_words"] == 2315
    assert len(split["groups"]) + split["other_groups"] == body["hints"][0]["patterns"]


def test_hints_after_one_guess_agree_with_the_library(client, en_words):
    rows = [{"guess": "crane", "pattern": "..?!."}]
    body = client.post("/api/hints", json={"list": "en", "rows": rows, "limit": 1000}).json()
    state = State(en_words).after("crane", "..?!.")
    assert body["count"] == state.count
    assert body["candidates"] == state.candidate_words
    assert [h["word"] for h in body["hints"]] == [h.word for h in state.hints(top=10)]
    assert body["constraints"] == state.constraints.to_dict()
    assert body["summary"] == state.constraints.describe()


@pytest.mark.slow
def test_hints_accept_every_notation_and_hard_mode(client):
    a = client.post("/api/hints", json={"rows": [{"guess": "CRANE", "pattern": "bbygb"}]})
    b = client.post("/api/hints", json={"rows": [{"guess": "crane", "pattern": "00120"}]})
    emoji = "\u2b1c\u2b1b\U0001f7e8\U0001f7e9\u2b1c"
    c = client.post("/api/hints", json={"rows": [{"guess": "crane", "pattern": emoji}]})
    assert a.status_code == b.status_code == c.status_code == 200
    assert a.json()["count"] == b.json()["count"] == c.json()["count"]
    hard = client.post(
        "/api/hints", json={"rows": [{"guess": "crane", "pattern": "..?!."}], "hard": True, "top": 20}
    ).json()
    assert all("a" in h["word"] and h["word"][3] == "n" for h in hard["hints"])


def test_hints_solved_and_single_candidate(client):
    body = client.post("/api/hints", json={"rows": [{"guess": "pleat", "pattern": "!!!!!"}]}).json()
    assert body["solved"] and body["count"] == 1 and body["candidates"] == ["pleat"]


def test_hints_fallback_to_allowed_words(client, en_words):
    assert "soare" not in en_words.solution_index
    body = client.post("/api/hints", json={"rows": [{"guess": "soare", "pattern": "!!!!!"}]}).json()
    assert body["fallback"] and body["candidates"] == ["soare"] and body["count"] == 1
    assert body["warnings"]


@pytest.mark.parametrize(
    ("rows", "fragment"),
    [
        ([{"guess": "cran", "pattern": "....."}], "4 letters"),
        ([{"guess": "cr4ne", "pattern": "....."}], "letters a-z"),
        ([{"guess": "crane", "pattern": "..?!"}], "4 symbols"),
        ([{"guess": "crane", "pattern": "..?!z"}], "unknown symbol"),
        ([{"guess": "crane", "pattern": "!!!!!"}, {"guess": "crane", "pattern": "....."}], "no word fits"),
    ],
)
@pytest.mark.slow
def test_bad_hint_input_is_a_400_with_a_message(client, rows, fragment):
    r = client.post("/api/hints", json={"list": "en", "rows": rows})
    assert error_of(r, 400) == "bad_request"
    assert fragment in r.json()["error"]


def test_errors_in_german_when_asked(client):
    rows = [{"guess": "cran", "pattern": "....."}]
    r = client.post("/api/hints", json={"rows": rows}, headers={"Accept-Language": "de"})
    assert error_of(r, 400) == "bad_request"
    assert "Buchstaben" in r.json()["error"]


@pytest.mark.parametrize(
    "body",
    [
        {"list": "xx"},
        {"top": 0},
        {"top": 51},
        {"rows": "crane"},
        {"rows": [{"guess": "crane"}]},
        {"strategy": "luck"},
        {"unexpected": 1},
        {"rows": [{"guess": "crane", "pattern": "....."}] * 21},
    ],
)
@pytest.mark.slow
def test_malformed_hint_requests_are_4xx_json(client, body):
    r = client.post("/api/hints", json=body)
    assert 400 <= r.status_code < 500
    assert error_of(r, r.status_code) in {"bad_request", "validation"}


def test_not_json_at_all(client):
    r = client.post("/api/hints", content=b"{not json", headers={"Content-Type": "application/json"})
    assert error_of(r, 422) == "validation"


def test_openers(client, lists):
    r = client.get("/api/openers", params={"list": "de", "top": 3})
    assert r.status_code == 200
    body = r.json()
    assert body["list"] == "de"
    assert [o["word"] for o in body["openers"]] == [h.word for h in lists.get("de").openers[:3]]
    assert set(body["openers"][0]) == {"word", "bits", "candidate", "patterns", "largest", "expected_remaining"}
    assert error_of(client.get("/api/openers", params={"list": "fr"}), 400) == "bad_request"
    assert error_of(client.get("/api/openers", params={"top": 99}), 422) == "validation"


@pytest.mark.parametrize(("name", "of"), [("en", "solutions"), ("de", "allowed")])
@pytest.mark.slow
def test_letters_count_what_a_plain_count_of_the_list_gives(client, lists, name, of):
    words = getattr(lists.get(name).words, of)
    r = client.get("/api/letters", params={"list": name, "of": of})
    assert r.status_code == 200
    body = r.json()
    assert (body["list"], body["of"], body["words"]) == (name, of, len(words))
    assert body["repeated"] == sum(len(set(w)) < 5 for w in words)
    assert list(body["letters"]) == list("abcdefghijklmnopqrstuvwxyz")
    for c, got in body["letters"].items():
        assert got["count"] == sum(w.count(c) for w in words)
        assert got["words"] == sum(c in w for w in words)
        assert got["by_position"] == [sum(w[i] == c for w in words) for i in range(5)]


def test_letters_refuse_bad_input_with_json(client):
    assert error_of(client.get("/api/letters", params={"list": "fr"}), 400) == "bad_request"
    assert error_of(client.get("/api/letters", params={"of": "both"}), 422) == "validation"


def test_unknown_routes_and_methods_are_json(client):
    assert error_of(client.get("/api/nothing"), 404) == "http_404"
    assert error_of(client.delete("/api/lists"), 405) == "http_405"


def test_a_browser_gets_an_html_404_page_with_a_way_home(client):
    html = {"Accept": "text/html,application/xhtml+xml"}
    page = client.get("/nowhere?lang=de", headers=html)
    assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
    assert "Seite nicht gefunden" in page.text and re.search(r'href="/solver\?[^"]*lang=de" id="home"', page.text)
    assert "script-src 'self'" in page.headers["content-security-policy"]
    # programs, the API and static files keep the JSON error
    assert error_of(client.get("/nowhere"), 404) == "http_404"
    assert error_of(client.get("/api/nothing", headers=html), 404) == "http_404"
    assert error_of(client.get("/static/nothing.js", headers=html), 404) == "http_404"


# --- games ---------------------------------------------------------------------------------------


def test_a_practice_game_from_start_to_win(app, client):
    game = start(client, mode="practice")
    assert client.cookies.get("raten_player")
    assert game["status"] == "playing" and game["rows"] == [] and game["answer"] is None
    assert game["number"] is None and game["max_tries"] == 6
    answer = answer_of(app, client, game["id"])
    wrong = "crane" if answer != "crane" else "slate"
    after = guess(client, game["id"], wrong).json()
    assert after["rows"] == [{"guess": wrong, "pattern": feedback(wrong, answer)}]
    assert after["answer"] is None and after["share"] is None and after["stats"] is None
    assert set(after["keyboard"]) == set(wrong)
    won = guess(client, game["id"], answer.upper()).json()
    assert won["status"] == "won" and won["answer"] == answer
    assert won["share"].startswith("raten en practice 2/6\n\n")
    stats = {k: v for k, v in won["stats"].items() if k not in ("next_daily_seconds", "share")}
    assert stats == {
        "list": "en",
        "boards": 1,
        "mode": "practice",
        "max_tries": 6,
        "played": 1,
        "wins": 1,
        "win_percent": 100,
        "current_streak": 1,
        "max_streak": 1,
        "distribution": [0, 1, 0, 0, 0, 0],
        "marked": 2,
        "number": daily_number(DAY),
    }
    assert won["stats"]["share"] == won["share"]
    again = client.get("/api/stats", params={"list": "en", "mode": "practice"}).json()
    assert {k: v for k, v in again.items() if k != "next_daily_seconds"} == {
        k: v for k, v in won["stats"].items() if k != "next_daily_seconds"
    }
    assert client.get("/api/stats", params={"list": "en"}).json()["played"] == 0  # the daily record is apart
    r = guess(client, game["id"], "slate")
    assert error_of(r, 409) == "game_over"


def test_share_text_names_the_served_list_in_the_asked_language(app, client):
    game = start(client, list="de", mode="practice")
    body = guess(client, game["id"], answer_of(app, client, game["id"]), **{"Accept-Language": "de"}).json()
    assert body["share"].startswith("raten de \u00dcbung 1/6\n\n")


def test_a_lost_game_counts_and_breaks_the_streak(app, client):
    game = start(client, mode="practice")
    answer = answer_of(app, client, game["id"])
    words = [w for w in ["crane", "slate", "pious", "dumpy", "with", "fjord", "gawky", "vixen"] if w != answer]
    words = [w for w in words if len(w) == 5][:6]
    for w in words:
        last = guess(client, game["id"], w)
        assert last.status_code == 200
    body = last.json()
    assert body["status"] == "lost" and body["answer"] == answer
    assert body["share"].splitlines()[0] == "raten en practice X/6"
    assert body["stats"]["played"] == 1 and body["stats"]["wins"] == 0 and body["stats"]["current_streak"] == 0


def test_a_german_answer_is_also_given_as_german_writes_it(client, monkeypatch):
    """boese is shown BÖSE: ``answers_written`` has the spelling the pages show (the tiles keep BOESE)."""
    monkeypatch.setattr(game_module, "random_word", lambda _words: "boese")
    game = start(client, list="de", mode="practice")
    assert game["answers_written"] is None
    for w in ["tarne", "kilos", "zweck", "bluff", "regen", "masse"]:
        body = guess(client, game["id"], w).json()
    assert body["status"] == "lost" and body["answer"] == "boese" and body["answers_written"] == ["böse"]
    game = start(client, list="de", mode="practice")
    assert guess(client, game["id"], "boese").json()["answers_written"] == ["böse"]
    monkeypatch.setattr(game_module, "random_word", lambda _words: "masse")  # Masse or Maße: as typed
    game = start(client, list="de", mode="practice")
    assert guess(client, game["id"], "masse").json()["answers_written"] == ["masse"]


def test_refused_words_cost_no_try(client):
    game = start(client, mode="practice")
    refused = [("qxzvj", "unknown_word"), ("abc", "bad_word"), ("toolong", "bad_word"), ("ab1de", "bad_word")]
    for word, code in refused:
        assert error_of(guess(client, game["id"], word), 400) == code
    assert client.get(f"/api/games/{game['id']}").json()["rows"] == []
    r = guess(client, game["id"], "qxzvj", **{"Accept-Language": "de"})
    assert r.json()["error"] == "QXZVJ steht nicht in der Wortliste"


@pytest.mark.parametrize(
    ("lang", "message"), [("en", "is not in the word list"), ("de", "steht nicht in der Wortliste")]
)
@pytest.mark.slow
def test_a_german_game_refuses_a_word_off_its_list_in_both_languages(client, lang, message):
    """Issue 23: a guess that is not an allowed word is refused (400, no try used) and the game goes on."""
    game = start(client, list="de", mode="practice")
    r = guess(client, game["id"], "qxzvj", **{"Accept-Language": lang})
    assert error_of(r, 400) == "unknown_word" and r.json()["error"] == f"QXZVJ {message}"
    assert client.get(f"/api/games/{game['id']}").json()["rows"] == []
    assert guess(client, game["id"], "tarne").json()["status"] in ("playing", "won")


@pytest.mark.parametrize("word", ["xxxxx", "xviii", "achso", "hmmmm"])
@pytest.mark.slow
def test_a_de_game_refuses_wordfreqs_non_words(client, word):
    """Issue 23: ``de``'s allowed words are German words (``raten words build`` drops wordfreq's
    runs of one letter, Roman numerals and interjections): its game refuses them in both languages."""
    assert word not in load_words("de").allowed
    game = start(client, list="de", mode="practice")
    r = guess(client, game["id"], word, **{"Accept-Language": "de"})
    assert error_of(r, 400) == "unknown_word" and r.json()["error"] == f"{word.upper()} steht nicht in der Wortliste"
    assert guess(client, game["id"], word).json()["error"] == f"{word.upper()} is not in the word list"
    assert client.get(f"/api/games/{game['id']}").json()["rows"] == []


def test_xxxxx_is_refused_in_a_6mal5_game(tmp_path):
    """6mal5's lists do not have XXXXX, so its game refuses it (so does ``de``'s, above)."""
    lists = Lists.load({"6mal5": load_words("6mal5")})
    app = create_app(lists=lists, db_path=tmp_path / "six.sqlite3", daily_secret="test", today=lambda: DAY)
    with TestClient(app) as c:
        offered = {x["name"]: x for x in c.get("/api/lists", headers={"Accept-Language": "de"}).json()["lists"]}
        assert offered["6mal5"]["language"] == "de" and offered["6mal5"]["allowed"] == 3827
        assert "6mal5.com" in offered["6mal5"]["description"]
        game = start(c, list="6mal5", mode="practice")
        r = guess(c, game["id"], "XXXXX", **{"Accept-Language": "de"})
        assert error_of(r, 400) == "unknown_word" and r.json()["error"] == "XXXXX steht nicht in der Wortliste"
        assert guess(c, game["id"], "xxxxx").json()["error"] == "XXXXX is not in the word list"
        assert c.get(f"/api/games/{game['id']}").json()["rows"] == []
        assert len(guess(c, game["id"], "sarte").json()["rows"]) == 1  # the game goes on


def test_hard_mode_is_enforced_with_the_exact_reason(client, monkeypatch):
    monkeypatch.setattr(game_module, "random_word", lambda _words: "grape")
    game = start(client, mode="practice", hard=True)
    assert game["hard"] is True
    assert guess(client, game["id"], "crane").json()["rows"][0]["pattern"] == ".!!.!"
    r = guess(client, game["id"], "drive")
    assert error_of(r, 400) == "hard_green"
    assert r.json()["error"] == "Hard mode: letter 3 must be A"
    r = guess(client, game["id"], "drive", **{"Accept-Language": "de-DE,de;q=0.9"})
    assert r.json()["error"] == "Schwerer Modus: Buchstabe 3 muss A sein"
    assert len(client.get(f"/api/games/{game['id']}").json()["rows"]) == 1
    assert guess(client, game["id"], "grape").json()["status"] == "won"


def test_hard_mode_needs_revealed_letters(client, monkeypatch):
    monkeypatch.setattr(game_module, "random_word", lambda _words: "pleat")
    game = start(client, mode="practice", hard=True)
    guess(client, game["id"], "crane")  # ..?.?: A and E revealed
    r = guess(client, game["id"], "moist")
    assert error_of(r, 400) == "hard_present"
    assert r.json()["error"] == "Hard mode: the guess must contain A"


def test_the_daily_game_is_the_same_word_for_everyone_and_resumes(app, client, other, en_words):
    mine = start(client, mode="daily")
    assert mine["mode"] == "daily" and mine["number"] == daily_number(DAY)
    again = start(client, mode="daily")
    assert again["id"] == mine["id"]
    theirs = start(other, mode="daily")
    assert theirs["id"] != mine["id"]
    (expected,) = daily_answers(en_words, DAY, 1, "test")
    assert answer_of(app, client, mine["id"]) == answer_of(app, other, theirs["id"]) == expected
    guess(client, mine["id"], expected)
    done = start(client, mode="daily")
    assert done["id"] == mine["id"] and done["status"] == "won"
    assert done["share"].startswith(f"raten en #{daily_number(DAY)} 1/6")
    # another list, another daily game
    assert start(client, list="de", mode="daily")["id"] != mine["id"]


def test_the_daily_game_is_one_per_language(lists, tmp_path, de_words):
    small = WordSet.from_lists(de_words.solutions[:200], name="de-ext", language="de")
    extended = Lists({**lists.entries, **Lists.load({"de-ext": small}).entries})
    app = create_app(lists=extended, db_path=tmp_path / "x.sqlite3", daily_secret="t", today=lambda: DAY)
    with TestClient(app) as c:
        de = start(c, list="de", mode="daily")
        ext = start(c, list="de-ext", mode="daily")
        assert ext["id"] == de["id"] and ext["list"] == "de" and ext["language"] == "de"
        practice = start(c, list="de-ext", mode="practice")
        assert practice["list"] == "de-ext"


@pytest.mark.slow
def test_daily_hard_mode_changes_only_before_the_first_guess(client):
    game = start(client, mode="daily")
    assert start(client, mode="daily", hard=True)["hard"] is True
    guess(client, game["id"], "crane")
    assert start(client, mode="daily", hard=False)["hard"] is True


@pytest.mark.slow
def test_review_after_the_game(app, client):
    game = start(client, mode="practice")
    assert error_of(client.get(f"/api/games/{game['id']}/review"), 409) == "not_over"
    answer = answer_of(app, client, game["id"])
    guess(client, game["id"], "slate" if answer != "slate" else "crane")
    guess(client, game["id"], answer)
    review = client.get(f"/api/games/{game['id']}/review").json()
    assert review["answer"] == answer and review["solved"]
    assert len(review["moves"]) == 2
    assert review["moves"][0]["before"] == 2315
    assert review["moves"][1]["pattern"] == "!!!!!"
    assert review["solver"][-1] == {"guess": answer, "pattern": "!!!!!"}


def test_unknown_games_are_404(client):
    start(client, mode="practice")
    for path in ["/api/games/nope", "/api/games/nope/review"]:
        assert error_of(client.get(path), 404) == "not_found"
    assert error_of(guess(client, "nope", "crane"), 404) == "not_found"


# --- players are kept apart -------------------------------------------------------------------------


def test_a_player_cannot_see_or_play_another_players_game(app, client, other):
    game = start(client, mode="practice")
    start(other, mode="practice")
    assert error_of(other.get(f"/api/games/{game['id']}"), 404) == "not_found"
    assert error_of(guess(other, game["id"], "crane"), 404) == "not_found"
    assert error_of(other.get(f"/api/games/{game['id']}/review"), 404) == "not_found"
    # without any cookie either
    with TestClient(app) as stranger:
        assert error_of(stranger.get(f"/api/games/{game['id']}"), 404) == "not_found"
    assert client.get(f"/api/games/{game['id']}").json()["rows"] == []


def test_statistics_are_per_player(app, client, other):
    game = start(client, mode="practice")
    guess(client, game["id"], answer_of(app, client, game["id"]))
    assert client.get("/api/stats", params={"mode": "practice"}).json()["played"] == 1
    start(other, mode="practice")
    assert other.get("/api/stats", params={"mode": "practice"}).json()["played"] == 0


def test_a_made_up_player_cookie_gets_a_fresh_identity(app, client):
    game = start(client, mode="practice")
    with TestClient(app) as forger:
        forged = {"Cookie": "raten_player=" + "A" * 32}
        assert forger.get("/api/stats", headers=forged).json()["played"] == 0
        assert error_of(forger.get(f"/api/games/{game['id']}", headers=forged), 404) == "not_found"
        r = forger.post("/api/games", json={"mode": "practice"}, headers=forged)
        assert r.cookies["raten_player"] != "A" * 32


@pytest.mark.slow
def test_the_answer_never_reaches_the_browser_before_the_end(client, monkeypatch):
    """Every response of a played game (pages, scripts, API, headers, cookies) until the last guess."""
    answer = "knoll"
    monkeypatch.setattr(game_module, "random_word", lambda _words: answer)
    seen: list[str] = []

    def record(r):
        seen.append(r.text.lower())
        seen.append(json.dumps(dict(r.headers)).lower())
        seen.append(json.dumps(dict(client.cookies)).lower())
        return r

    for path in ["/play", "/static/common.js", "/static/play.js", "/static/raten.css", "/api/lists", "/api/stats"]:
        record(client.get(path))
    game = record(client.post("/api/games", json={"list": "en", "mode": "practice"})).json()
    record(client.post("/api/games", json={"list": "en", "mode": "daily"}))
    for word in ["crane", "qxzvj", "pious", "abc", "dumpy"]:
        record(guess(client, game["id"], word))
    record(client.get(f"/api/games/{game['id']}"))
    record(client.get(f"/api/games/{game['id']}/review"))
    record(client.get("/api/stats"))
    leaks = [text for text in seen if re.search(rf"\b{answer}\b", text)]
    assert not leaks
    final = guess(client, game["id"], answer).json()
    assert final["answer"] == answer and final["status"] == "won"


def test_a_game_counts_once_when_two_guesses_race(app, client):
    from raten.web.store import ConflictError

    game = start(client, mode="practice")
    store = app.state.store
    record = store.game(client.cookies["raten_player"], game["id"])
    store.save_rows(record, (("crane", 0),), "playing")
    with pytest.raises(ConflictError):
        store.save_rows(record, (("slate", 0),), "playing")


# --- pages ---------------------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("path", ["/", "/solver", "/play", "/openers"])
def test_pages_render(client, path):
    r = client.get(path)
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/html")
    assert '<html lang="en" ' in r.text
    assert 'name="viewport"' in r.text


@pytest.mark.slow
def test_page_language_follows_the_list_with_a_switch(client):
    de = client.get("/solver", params={"list": "de"}).text
    assert '<html lang="de" ' in de and "Löser" in de
    forced = client.get("/solver", params={"list": "de", "lang": "en"}).text
    assert '<html lang="en" ' in forced and "Solver" in forced
    en_in_de = client.get("/play", params={"list": "en", "lang": "de"}).text
    assert '<html lang="de" ' in en_in_de and "Wort des Tages" in en_in_de
    config = json.loads(re.search(r'id="raten-config">(.*?)</script>', en_in_de, re.S).group(1))
    assert config["lang"] == "de" and config["list"] == "en" and config["keyboard"][0] == "qwertyuiop"


def test_unknown_list_on_a_page_falls_back_to_the_default(client):
    r = client.get("/solver", params={"list": "<script>"})
    assert r.status_code == 200
    config = json.loads(re.search(r'id="raten-config">(.*?)</script>', r.text, re.S).group(1))
    assert config["list"] == "en"
    # nothing of the parameter was echoed: every script is a static file or the config
    for attrs in re.findall(r"<script([^>]*)>", r.text):
        assert re.fullmatch(
            r'( type="module")? src="/static/[\w./-]+(\?v=\w+)?"| type="application/json" id="raten-config"', attrs
        ), attrs


@pytest.mark.slow
def test_openers_page_lists_every_list(client, lists):
    text = client.get("/openers").text
    for name in ("en", "de"):
        assert f'id="openers-{name}"' in text
        assert lists.get(name).openers[0].word.upper() in text


def test_openers_page_charts_the_letters_of_each_lists_answers(client, lists):
    text = client.get("/openers", params={"lang": "de"}).text
    assert "Buchstaben der L\u00f6sungen" in text
    for name in ("en", "de"):
        words = lists.get(name).words.list_solutions  # a game's answers, whatever the prior
        block = text.split(f'id="letters-{name}"')[1].split("</table>")[0]
        shown = re.findall(r'<td class="word">([A-Z])</td>\s*<td class="num">(\d+) %</td>', block)
        containing = {c: sum(c in w for w in words) for c in "abcdefghijklmnopqrstuvwxyz"}
        expected = sorted((c for c in containing if containing[c]), key=lambda c: (-containing[c], c))
        assert [c.lower() for c, _ in shown] == expected
        assert [int(p) for _, p in shown] == [round(100 * containing[c] / len(words)) for c in expected]


@pytest.mark.slow
def test_openapi_schema_names_the_lists(client):
    schema = client.get("/openapi.json").json()
    assert schema["components"]["schemas"]["HintsIn"]["properties"]["list"]["enum"] == ["en", "de"]
    paths = set(schema["paths"])
    assert {
        "/api/lists",
        "/api/hints",
        "/api/openers",
        "/api/games",
        "/api/games/{game_id}",
        "/api/games/{game_id}/guesses",
        "/api/games/{game_id}/review",
        "/api/stats",
    } <= paths


# --- the command -----------------------------------------------------------------------------------------


def test_serve_command_is_registered():
    from click.testing import CliRunner

    from raten.cli.main import main

    result = CliRunner().invoke(main, ["serve", "--help"])
    assert result.exit_code == 0
    assert "--port" in result.output and "--db" in result.output and "RATEN_DB" in result.output


def test_won_in_one_counts_in_the_first_column(app, client):
    game = start(client, mode="practice")
    body = guess(client, game["id"], answer_of(app, client, game["id"])).json()
    assert body["rows"][0]["pattern"] == "!!!!!" and ALL_GREEN == 242
    assert body["stats"]["distribution"][0] == 1


# --- a huge input gets a short answer in the asked language --------------------------------

HUGE = ": ': ': ' " * 7200  # 72 KB: once made the German error translation backtrack for 25 s


@pytest.mark.slow
@pytest.mark.parametrize(
    ("body", "german"),
    [
        ({"list": HUGE}, "Unbekannte Wortliste"),
        ({"rows": [{"guess": HUGE, "pattern": "....."}]}, "rows.0.guess: höchstens 40 Zeichen"),
        ({"rows": [{"guess": "crane", "pattern": HUGE}]}, "rows.0.pattern: höchstens 40 Zeichen"),
        ({"strategy": HUGE}, "strategy: ungültiger Wert"),
        ({HUGE: 1}, "ungültiger Wert"),
    ],
)
def test_a_huge_hint_request_gets_a_short_german_answer(client, body, german):
    assert len(json.dumps(body)) >= 72_000
    r = client.post("/api/hints", json=body, headers={"Accept-Language": "de"})
    assert 400 <= r.status_code < 500
    error_of(r, r.status_code)
    message = r.json()["error"]
    assert german in message
    assert len(message) < 200


def test_a_huge_list_name_elsewhere_is_short_too(client):
    r = client.post("/api/games", json={"list": HUGE}, headers={"Accept-Language": "de"})
    assert error_of(r, 400) == "bad_request"
    assert r.json()["error"].startswith("Unbekannte Wortliste \u201e: ': ")
    assert len(r.json()["error"]) < 200
    r = client.get("/api/openers", params={"list": HUGE[:2000]})
    assert error_of(r, 422) == "validation"


def test_a_finished_game_refuses_more_guesses_in_the_asked_language(app, client):
    game = start(client, mode="practice")
    guess(client, game["id"], answer_of(app, client, game["id"]))
    r = guess(client, game["id"], "crane", **{"Accept-Language": "de"})
    assert error_of(r, 409) == "game_over"
    assert r.json()["error"] == "Dieses Spiel ist vorbei"


def test_hint_query_is_the_cache_key(client, lists):
    from raten.web.service import HintQuery

    rows = [{"guess": "crane", "pattern": "..?!."}]
    first = client.post("/api/hints", json={"rows": rows, "top": 3})
    query = HintQuery(name="en", rows=(("crane", "..?!."),), top=3)
    assert lists.cached_hints(lists.resolved(query)) == first.content
    assert lists.hints_json(query) == first.content
    assert json.loads(first.content) == lists.hints(query)


def test_the_split_is_the_library_split_serialised(client, en_words):
    from raten.engine.rank import analyze
    from raten.web.service import SPLIT_GROUPS

    rows = [{"guess": "slate", "pattern": "....."}]
    split = client.post("/api/hints", json={"rows": rows}).json()["split"]
    buckets = analyze(State(en_words).after("slate", "....."), split["word"])["buckets"]
    assert split["groups"] == [{"pattern": b["pattern"], "count": b["count"]} for b in buckets[:SPLIT_GROUPS]]
    assert split["other_groups"] == len(buckets) - SPLIT_GROUPS
    assert split["other_words"] == sum(b["count"] for b in buckets[SPLIT_GROUPS:])


# --- priors, answers only, warnings with keys ---------------------------------------------------


def hints(client, **body) -> dict:
    response = client.post("/api/hints", json=body)
    assert response.status_code == 200, response.text
    return response.json()


@pytest.mark.slow
def test_hints_under_the_frequency_prior(client, de_words):
    """prior=frequency: every allowed word may be the answer, ranked by weighted entropy; its
    answer is cached apart from the uniform one (the prior is part of the key)."""
    from raten.wordlists.prior import apply_prior

    rows = [{"guess": "raten", "pattern": "...?."}]
    own = hints(client, list="de", rows=rows)
    for prior in ("frequency", "uniform"):
        client.app.state.lists.warmup.wait("de", prior)  # loaded in the background (503 until then)
    freq = hints(client, list="de", rows=rows, prior="frequency")
    uniform = hints(client, list="de", rows=rows, prior="uniform")
    again = hints(client, list="de", rows=rows, prior="uniform")
    assert own["prior"] == "mixture" and freq["prior"] == "frequency"  # de's own prior is the mixture
    assert uniform["prior"] == again["prior"] == "uniform" and uniform == again
    state = State(apply_prior(de_words, "frequency")).after("raten", "...?.")
    assert freq["count"] == state.count > uniform["count"]
    want = state.hints(top=10)
    assert [h["word"] for h in freq["hints"]] == [h.word for h in want]
    assert [h["bits"] for h in freq["hints"]] == pytest.approx([h.bits for h in want], abs=1e-12)
    lists = client.get("/api/lists").json()["lists"]
    assert {e["name"]: e["prior"] for e in lists} == {"en": "uniform", "de": "mixture"}


@pytest.mark.slow
def test_openers_under_a_prior(client, de_words):
    from raten.wordlists.prior import apply_prior

    client.app.state.lists.warmup.wait("de", "frequency")  # loaded in the background (503 until then)
    body = client.get("/api/openers", params={"list": "de", "prior": "frequency", "top": 5}).json()
    want = State(apply_prior(de_words, "frequency")).hints(top=5)
    assert body["prior"] == "frequency" and [h["word"] for h in body["openers"]] == [h.word for h in want]
    assert client.get("/api/openers", params={"list": "de"}).json()["prior"] == "mixture"  # de's own
    assert client.get("/api/openers", params={"list": "de", "prior": "zipf"}).status_code == 422


def test_answers_only(client):
    rows = [{"guess": "crane", "pattern": "..?!."}]
    body = hints(client, rows=rows, answers_only=True, top=50)
    assert {h["word"] for h in body["hints"]} == set(body["candidates"]) and all(h["candidate"] for h in body["hints"])
    assert hints(client, rows=rows)["hints"][0]["word"] == "tousy"  # the default still ranks every word


@pytest.mark.slow
def test_warnings_carry_keys_for_the_page(client):
    body = hints(client, rows=[{"guess": "soare", "pattern": "!!!!!"}, {"guess": "zzzzz", "pattern": "....."}])
    keys = [n["key"] for n in body["notices"]]
    assert keys == ["fallback", "not_in_list"]
    assert body["notices"][0]["params"] == {"list": "en", "n": 1}
    assert [n["text"] for n in body["notices"]] == body["warnings"]


def test_an_answer_outside_the_list_is_said_in_both_languages(client):
    rows = [{"guess": "clamp", "pattern": ".!!!!"}]  # GLAMP: no word of en fits, and no row is wrong
    response = client.post("/api/hints", json={"rows": rows})
    assert response.status_code == 400
    assert "the answer is probably a word the list does not know" in response.json()["error"]
    german = client.post("/api/hints", json={"rows": rows}, headers={"Accept-Language": "de"})
    assert german.status_code == 400 and "die L\u00f6sung ist wohl ein Wort" in german.json()["error"]
    clash = client.post(
        "/api/hints",
        json={"rows": [{"guess": "crane", "pattern": "!...."}, {"guess": "brine", "pattern": "!...."}]},
        headers={"Accept-Language": "de"},
    )
    assert (
        clash.status_code == 400 and "die Zeilen 1 (CRANE) / 2 (BRINE) widersprechen einander" in clash.json()["error"]
    )
