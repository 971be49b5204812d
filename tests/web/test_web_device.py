"""What the server gives the solver on the device (raten.web.device): the list file, the
service worker at the root, the page's config and a policy that lets workers run."""

from __future__ import annotations

import json
import math
import re
import warnings
from urllib.parse import parse_qs, urlsplit

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx2
    from fastapi.testclient import TestClient

from raten.engine.words import WordSet
from raten.web import create_app
from raten.web.service import FALLBACK_MAX_RANKED, Lists


@pytest.fixture(scope="module")
def small(en_words) -> WordSet:
    """Fewer allowed words than a fallback may rank: the file covers all of them."""
    return WordSet.from_lists(en_words.solutions[::20], en_words.allowed[::40], name="small")


@pytest.fixture(scope="module")
def client(en_words, small, tmp_path_factory):
    lists = Lists.load({"en": en_words, "small": small})
    app = create_app(lists=lists, db_path=tmp_path_factory.mktemp("device") / "raten.sqlite3", daily_secret="s")
    with TestClient(app) as c:
        yield c


def config_of(page: str) -> dict:
    found = re.search(r'<script type="application/json" id="raten-config">(.*?)</script>', page, re.S)
    assert found
    return json.loads(found.group(1))


@pytest.mark.slow
def test_the_solver_page_names_the_device_files_with_versions(client, en_words):
    device = config_of(client.get("/solver?list=en").text)["device"]
    from raten.web.device import list_version

    # the lists' fingerprint and the digest of the books the file carries
    assert device["words"] == f"/device/words/en.json?v={list_version(en_words)}"
    assert re.fullmatch(rf"{en_words.fingerprint}\.[0-9a-f]{{12}}", list_version(en_words))
    for key in ("engine", "sw"):
        assert re.fullmatch(r"/[\w/.]+\.js\?v=[0-9a-f]{12}", device[key]), device[key]
    # the worker's URL names the engine it imports, the very URL the page keeps for offline use
    worker = urlsplit(device["worker"])
    assert worker.path == "/static/device/worker.js"
    assert parse_qs(worker.query)["engine"] == [device["engine"]]
    assert "device" not in config_of(client.get("/play?list=en").text)
    for key in ("worker", "engine", "sw"):
        response = client.get(device[key])
        assert response.status_code == 200
        assert "javascript" in response.headers["content-type"]
    # the hashed files are kept for good; the service worker is asked for anew on each visit
    assert client.get(device["engine"]).headers["cache-control"] == "public, max-age=31536000, immutable"
    assert client.get(device["worker"]).headers["cache-control"] == "public, max-age=31536000, immutable"
    assert client.get(device["sw"]).headers["cache-control"] == "no-cache"


@pytest.mark.slow
def test_the_list_file_holds_the_words_and_pythons_numbers(client, en_words):
    from raten.web.device import list_version

    response = client.get(f"/device/words/en.json?v={list_version(en_words)}")
    assert response.status_code == 200
    assert response.headers["cache-control"] == "public, max-age=31536000, immutable"
    # the lists' fingerprint alone names a file without its books' digest: not kept for good
    assert client.get(f"/device/words/en.json?v={en_words.fingerprint}").headers["cache-control"] == "no-cache"
    body = response.json()
    assert (body["name"], body["language"], body["version"]) == ("en", "en", en_words.fingerprint)
    assert body["solutions"] == list(en_words.solutions)
    assert body["allowed"] == list(en_words.allowed)
    # every candidate count a state can be ranked at: up to all solutions, or a ranked fallback
    most = max(len(en_words.solutions), FALLBACK_MAX_RANKED)
    assert len(body["xlogx"]) == len(body["log2"]) == most + 1
    assert body["xlogx"][:2] == [0.0, 0.0]
    assert all(body["xlogx"][c] == c * math.log2(c) for c in range(2, most + 1))
    assert all(body["log2"][n] == math.log2(n) for n in range(1, most + 1))


def test_a_small_list_covers_a_fallback_as_large_as_its_allowed_words(client, small):
    body = client.get(f"/device/words/small.json?v={small.fingerprint}").json()
    assert len(body["xlogx"]) == len(small.allowed) + 1


def test_an_old_version_is_not_kept_and_an_unknown_list_is_a_json_404(client):
    assert client.get("/device/words/en.json?v=old").headers["cache-control"] == "no-cache"
    response = client.get("/device/words/nope.json")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_the_service_worker_is_served_from_the_root(client):
    response = client.get("/sw.js?v=1")
    assert response.status_code == 200
    assert "javascript" in response.headers["content-type"]
    assert response.headers["cache-control"] == "no-cache"
    assert "caches.open" in response.text


def test_the_policy_lets_workers_run_from_this_server_only(client):
    csp = client.get("/solver").headers["content-security-policy"]
    assert "worker-src 'self';" in csp
    assert "script-src 'self';" in csp and "unsafe" not in csp and "blob:" not in csp


def test_a_list_too_large_for_a_browser_stays_on_the_server(en_words, monkeypatch):
    from raten.web import device

    assert device.on_device(en_words)
    monkeypatch.setattr(device, "MAX_DEVICE_CELLS", len(en_words.allowed) * len(en_words.solutions) - 1)
    assert not device.on_device(en_words)


def test_a_page_for_a_list_off_the_device_has_no_device_part(client, monkeypatch):
    from raten.web import device

    monkeypatch.setattr(device, "MAX_DEVICE_CELLS", 0)
    config = config_of(client.get("/solver?list=en").text)
    assert config["device"] is None


@pytest.mark.slow
def test_the_list_file_carries_the_books_the_api_reads(client):
    """Both modes' shipped books, each decision with the counts the API's guarantee gives."""
    books = client.get("/device/words/en.json").json()["books"]
    assert set(books) == {"normal", "hard"}
    for mode, book in books.items():
        served = client.post("/api/hints", json={"list": "en", "rows": [], "hard": mode == "hard"}).json()["guarantee"]
        word, safe, over, covered = book["opener"]
        assert (book["limit"], book["over"]) == (served["limit"], served["over"]) == (6, "likely")
        assert (word, safe, over, covered) == (served["guess"], served["safe"], served["safe_over"], served["covered"])
        verdicts = {w: {"word": w, "safe": s, "at_risk": r} for w, s, r in book["openers"]}
        assert served["hints"] == [verdicts[v["word"]] for v in served["hints"]]
        # a second guess for every pattern the opener shows but all green, keyed by its code
        assert len(book["second"]) > 100 and "242" not in book["second"]
        # every covered word shows one pattern: the opener's own all green if it is covered (a
        # pattern no covered word shows is judged over the next wider coverage: not counted here)
        assert covered - 1 <= sum(d[3] for d in book["second"].values() if d[2] == over) <= covered


def test_a_book_whose_key_does_not_match_the_list_is_left_out(en_words, small):
    from raten.web.device import device_books, list_file
    from raten.wordlists.prior import FREQUENCY, apply_prior

    fewer = WordSet.from_lists(en_words.solutions[1:], en_words.allowed, name="en")  # en's name, not its lists
    assert fewer.name == "en" and fewer.prior_key != en_words.prior_key
    assert device_books(fewer) == {}
    assert "books" not in json.loads(list_file(fewer))
    assert device_books(small) == {}  # no book is shipped for it
    assert device_books(apply_prior(en_words, FREQUENCY)) == {}  # en's book is for its own prior


def test_a_damaged_book_is_left_out_of_the_list_file(en_words, monkeypatch):
    from raten.trees import book
    from raten.web.device import device_books

    def damaged(*_args):
        raise book.BookError("damaged", "book_digest")

    monkeypatch.setattr(book, "shipped_book", damaged)
    assert device_books(en_words) == {}
