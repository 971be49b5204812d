"""The web app on lists of other lengths and letters (en-6, de-umlaut): the API answers in their
words and patterns, the pages configure tiles and keys from them, and the frequency prior,
fitted on five-letter lists in a-z only, is refused with a 400 and never warmed."""

from __future__ import annotations

import json
import re
from datetime import date

import pytest
from fastapi.testclient import TestClient

from raten.engine.feedback import format_pattern, pattern
from raten.web import create_app
from raten.web.service import Lists
from raten.wordlists.presets import load_preset
from reference import ref_filter

pytestmark = pytest.mark.slow  # two lists loaded and ranked for the module: seconds


@pytest.fixture(scope="module")
def lists() -> Lists:
    return Lists.load({"en-6": load_preset("en-6"), "de-umlaut": load_preset("de-umlaut")})


@pytest.fixture
def client(lists, tmp_path):
    app = create_app(lists=lists, db_path=tmp_path / "raten.sqlite3", daily_secret="t", today=lambda: date(2025, 5, 17))
    with TestClient(app) as c:
        yield c


def config_of(html: str) -> dict:
    return json.loads(re.search(r'id="raten-config">(.*?)</script>', html, re.S).group(1))


def test_lists_say_their_length_and_letters(client) -> None:
    got = {e["name"]: (e["length"], e["letters"]) for e in client.get("/api/lists").json()["lists"]}
    assert got == {"en-6": (6, "abcdefghijklmnopqrstuvwxyz"), "de-umlaut": (5, "abcdefghijklmnopqrstuvwxyzäöü")}
    assert client.app.state.lists.warmup.pairs() == []  # no frequency prior to warm for either


def test_hints_in_six_letters(client) -> None:
    words = load_preset("en-6")
    guess, answer = "planet", words.solutions[5]
    code = pattern(guess, answer)
    row = {"guess": guess, "pattern": format_pattern(code, "emoji", 6)}
    r = client.post("/api/hints", json={"list": "en-6", "rows": [row], "limit": 2000})
    assert r.status_code == 200, r.text
    assert r.json()["candidates"] == ref_filter(words.solutions, [(guess, code)])
    assert all(len(h["word"]) == 6 for h in r.json()["hints"])
    bad = client.post("/api/hints", json={"list": "en-6", "rows": [{"guess": "plane", "pattern": "....."}]})
    assert bad.status_code == 400 and "not 6" in bad.json()["error"]
    unfitted = client.post("/api/hints", json={"list": "en-6", "prior": "frequency"})
    assert unfitted.status_code == 400 and "fitted on five-letter lists in a-z" in unfitted.json()["error"]


def test_pages_take_tiles_and_keys_from_the_list(client) -> None:
    six = config_of(client.get("/play", params={"list": "en-6"}).text)
    assert (six["length"], six["keyboard"][0]) == (6, "qwertyuiop")
    umlaut_page = client.get("/solver", params={"list": "de-umlaut"}).text
    umlaut = config_of(umlaut_page)
    assert umlaut["length"] == 5 and umlaut["keyboard"] == ["qwertzuiopü", "asdfghjklöä", "+yxcvbnm-"]
    assert umlaut["typed"]["ä"] == "ä" and umlaut["typed"]["ß"] == "ss" and umlaut["device"] is None
    assert 'data-letters="5"' in umlaut_page and '<optgroup label="Deutsch, 5 Buchstaben">' in umlaut_page
    assert 'value="frequency"' not in umlaut_page


def test_a_game_of_six_letters(client) -> None:
    game = client.post("/api/games", json={"list": "en-6", "mode": "practice"}).json()
    r = client.post(f"/api/games/{game['id']}/guesses", json={"guess": "planet"})
    assert r.status_code == 200, r.text
    assert len(r.json()["rows"][0]["pattern"]) == 6
    short = client.post(f"/api/games/{game['id']}/guesses", json={"guess": "plane"})
    assert short.status_code == 400 and "not 6" in short.json()["error"]
