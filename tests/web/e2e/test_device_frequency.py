"""The device engine in Chromium under the frequency prior: a server offering a list small enough
for the frequency table on the device, the solver page's config naming that list file, and the
browser's engine giving the server's /api/hints answers on random histories (the same ranking, and
weighted entropy equal at the 9 decimals the ranking compares: the server's log2 and summation may
differ from the browser's in the last place, by CPU). tests/web/test_device_prior.py checks the same
under node."""

from __future__ import annotations

import random

import httpx
import numpy as np
import pytest
from serving import Served

from raten.engine.feedback import format_pattern, pattern
from raten.engine.rank import _TIE_DECIMALS
from raten.engine.words import WordSet

DEVICE_ANSWERS = """async ({engine, words, queries}) => {
  const { Solver, WordList } = await import(engine);
  const solver = new Solver(new WordList(await (await fetch(words)).json()));
  return queries.map((q) => {
    try { return solver.hints(q); } catch (e) { return { error: String(e.message), key: e.key }; }
  });
}"""


def tied(bits: float) -> float:
    """Bits as the ranking compares them on both sides (rank.py, engine.js roundKey): 9 decimals."""
    return float(np.round(bits, _TIE_DECIMALS))


def ranked(hints: list[dict]) -> list[tuple]:
    """What decides a hint's place: its word, bits at the tie rule's decimals, whether it can be the answer."""
    return [(h["word"], tied(h["bits"]), h["candidate"]) for h in hints]


@pytest.fixture(scope="module")
def small_server(en_words, tmp_path_factory, chromium_path):  # noqa: ARG001 - skips without a browser
    from raten.web import create_app
    from raten.web.limits import Policy
    from raten.web.service import Lists

    rnd = random.Random(21)
    sols = rnd.sample(en_words.solutions, 200)
    extra = rnd.sample([w for w in en_words.allowed if w not in set(sols)], 500)
    small = WordSet.from_lists(sols, sols + extra, name="small", language="en")
    roomy = Policy(address="10000/second", work="10000/second", new_player="10000/second")
    db = tmp_path_factory.mktemp("e2e-prior") / "raten.sqlite3"
    app = create_app(lists=Lists.load({"small": small}), db_path=db, daily_secret="p", policy=roomy)
    served = Served(app)
    yield served.url, small
    served.stop()


def test_the_browser_ranks_the_frequency_prior_as_the_server_does(browser, small_server) -> None:
    url, small = small_server
    rnd = random.Random(5)
    queries = []
    for i in range(80):
        answer, rows = rnd.choice(small.allowed), []
        for _ in range(rnd.randint(0, 3)):
            guess = rnd.choice(small.allowed)
            rows.append({"guess": guess, "pattern": format_pattern(pattern(guess, answer))})
        queries.append(
            {"list": "small", "rows": rows, "hard": i % 4 == 0, "top": 30, "limit": 100, "prior": "frequency"}
        )
    context = browser.new_context()
    page = context.new_page()
    try:
        page.goto(f"{url}/solver?list=small")
        device = page.evaluate("JSON.parse(document.getElementById('raten-config').textContent).device")
        words = device["priors"]["frequency"]
        assert words == f"/device/words/small.json?prior=frequency&v={small.fingerprint}"
        answers = page.evaluate(DEVICE_ANSWERS, {"engine": device["engine"], "words": words, "queries": queries})
    finally:
        context.close()
    with httpx.Client(base_url=url, timeout=60) as client:
        for q, mine in zip(queries, answers):
            theirs = client.post("/api/hints", json=q).json()
            assert "error" not in mine, (q, mine)
            for key in ("prior", "count", "candidates", "split", "constraints", "warnings"):
                assert mine[key] == theirs[key], (q, key)
            assert ranked(mine["hints"]) == ranked(theirs["hints"]), q
            for a, b in zip(mine["hints"], theirs["hints"]):
                assert a["bits"] == pytest.approx(b["bits"], abs=1e-12)
                assert a["expected_remaining"] == pytest.approx(b["expected_remaining"], rel=1e-12)


def test_the_page_sends_a_frequency_body_to_the_device_when_chosen(browser, small_server, solver_hints) -> None:
    """With "on this device" chosen, a body with the frequency prior is answered in the worker
    (the badge shows) from the frequency list file, as the server answers it."""
    url, small = small_server
    body = {"list": "small", "rows": [{"guess": "crane", "pattern": "....."}], "prior": "frequency", "top": 10}
    body["rows"] = [{"guess": small.allowed[0], "pattern": format_pattern(pattern(small.allowed[0], small.allowed[1]))}]
    context = browser.new_context()
    page = context.new_page()
    try:
        page.goto(f"{url}/solver?list=small")
        page.evaluate("localStorage.setItem('raten.onDevice', '1')")
        mine = page.evaluate(solver_hints, body)
        assert page.locator("#device-badge").is_visible()
    finally:
        context.close()
    theirs = httpx.post(f"{url}/api/hints", json=body, timeout=60).json()
    assert mine["prior"] == "frequency" and mine["count"] == theirs["count"]
    assert ranked(mine["hints"]) == ranked(theirs["hints"])
    assert [h["bits"] for h in mine["hints"]] == pytest.approx([h["bits"] for h in theirs["hints"]], abs=1e-12)
