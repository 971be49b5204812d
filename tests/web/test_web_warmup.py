"""Big tables never in a request: a list's other prior is loaded by the warm-up in the background,
once; meanwhile every request that needs it is a JSON 503 ``warming_up`` with Retry-After, none
loads it; identical new states are ranked once however many ask (single flight)."""

from __future__ import annotations

import asyncio
import random
import threading
import typing
import warnings

import httpx
import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx2
    from fastapi.testclient import TestClient

from raten.engine.state import State
from raten.engine.words import WordSet
from raten.web import create_app
from raten.web import service as service_module
from raten.web.limits import Policy
from raten.web.service import Lists
from raten.wordlists.prior import apply_prior

ROOMY = Policy(address="10000/second", player="10000/second", work="10000/second", new_player="10000/second")


@pytest.fixture
def small(en_words) -> WordSet:
    rnd = random.Random(24)
    sols = rnd.sample(en_words.solutions, 120)
    extra = rnd.sample([w for w in en_words.allowed if w not in set(sols)], 300)
    return WordSet.from_lists(sols, sols + extra, name="small", language="en")


@pytest.fixture
def held(monkeypatch):
    """The warm-up's loads wait for the returned event; records the thread of every load."""
    gate = threading.Event()
    loads: list[str] = []
    plain = service_module.ListEntry.start_state

    def start_state(self, prior):
        if self.ready_state(prior) is None:  # a load, not a look-up
            loads.append(threading.current_thread().name)
            assert gate.wait(60), "the test never opened the gate"
        return plain(self, prior)

    monkeypatch.setattr(service_module.ListEntry, "start_state", start_state)
    return gate, loads


@pytest.mark.slow
def test_requests_for_a_prior_still_loading_get_a_json_503_and_load_nothing(tmp_path, small, held) -> None:
    gate, loads = held
    app = create_app(
        lists=Lists.load({"small": small}), db_path=tmp_path / "db.sqlite3", daily_secret="w", policy=ROOMY
    )
    review = {"list": "small", "guesses": [small.solutions[0]], "answer": small.solutions[0], "prior": "frequency"}
    with TestClient(app) as c:
        asks = [
            c.get("/api/openers", params={"list": "small", "prior": "frequency", "top": 5}),
            c.post("/api/hints", json={"list": "small", "prior": "frequency"}),
            c.post("/api/hints/boards", json={"list": "small", "boards": 2, "rows": [], "prior": "frequency"}),
            c.post("/api/review", json=review),
            c.get("/api/openers", params={"list": "small", "prior": "frequency", "top": 5}),
        ]
        for r in asks:
            assert r.status_code == 503, r.text
            assert r.json()["code"] == "warming_up" and "small" in r.json()["error"]
            assert int(r.headers["Retry-After"]) >= 1
        # the list's own prior is served meanwhile
        assert c.get("/api/openers", params={"list": "small", "top": 5}).status_code == 200
        assert c.post("/api/hints", json={"list": "small"}).status_code == 200
        assert loads == ["raten-warmup"]  # one load under way, on the warm-up's thread, whoever asked
        gate.set()
        for prior in ("frequency", "mixture"):
            app.state.lists.warmup.wait("small", prior, timeout=60)
        r = c.get("/api/openers", params={"list": "small", "prior": "frequency", "top": 5})
        assert r.status_code == 200, r.text
    want = State(apply_prior(small, "frequency")).hints(top=5)
    assert [h["word"] for h in r.json()["openers"]] == [h.word for h in want]
    assert loads == ["raten-warmup"] * 2  # one load for each prior besides the list's own


@pytest.mark.slow
def test_a_german_request_is_told_so_in_german(tmp_path, small, held) -> None:
    gate, _ = held
    app = create_app(
        lists=Lists.load({"small": small}), db_path=tmp_path / "db.sqlite3", daily_secret="w", policy=ROOMY
    )
    with TestClient(app) as c:
        r = c.post("/api/hints", json={"list": "small", "prior": "frequency"}, headers={"Accept-Language": "de"})
        gate.set()
    assert r.status_code == 503 and "lädt die Liste small" in r.json()["error"]


def test_the_warm_up_starts_with_the_app(tmp_path, small) -> None:
    lists = Lists.load({"small": small})
    create_app(lists=lists, db_path=tmp_path / "db.sqlite3", daily_secret="w")
    state = lists.warmup.wait("small", "frequency", timeout=120)  # no request asked for it
    assert state.words.prior == "frequency" and lists.get("small").ready_state("frequency") is state


def test_a_failed_load_is_one_log_line_and_asked_again(tmp_path, small, monkeypatch, caplog) -> None:
    plain = service_module.ListEntry.start_state
    fails = [1]

    def start_state(self, prior):
        if prior != self.prior and fails:
            fails.pop()
            raise MemoryError("no room for the table")
        return plain(self, prior)

    monkeypatch.setattr(service_module.ListEntry, "start_state", start_state)
    lists = Lists.load({"small": small})
    with caplog.at_level("WARNING", logger="uvicorn.error"):
        create_app(lists=lists, db_path=tmp_path / "db.sqlite3", daily_secret="w")
        assert lists.warmup.wait("small", "frequency", timeout=120).words.prior == "frequency"
    lines = [r.getMessage() for r in caplog.records if "could not load" in r.getMessage()]
    assert lines == ["could not load list small under the frequency prior: no room for the table"]


def test_many_asking_one_new_state_rank_it_once(tmp_path, small) -> None:
    """Single flight: ten clients asking the same uncached state share one ranking."""
    app = create_app(
        lists=Lists.load({"small": small}), db_path=tmp_path / "db.sqlite3", daily_secret="w", policy=ROOMY
    )
    calls: list[tuple] = []
    gate = threading.Event()
    plain = app.state.rank

    def rank(query):
        calls.append(query.key)
        assert gate.wait(60)
        return plain(query)

    app.state.rank = rank
    body = {"list": "small", "rows": [{"guess": small.solutions[0], "pattern": "....."}], "top": 3}

    async def ask_all() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            asks = [asyncio.ensure_future(client.post("/api/hints", json=body)) for _ in range(10)]
            while not calls:  # the first has reached the ranking
                await asyncio.sleep(0.01)
            await asyncio.sleep(0.1)
            gate.set()
            return await asyncio.gather(*asks)

    with TestClient(app):  # runs the app's start-up and shut-down around the requests
        answers = _in_thread(ask_all)
    assert [r.status_code for r in answers] == [200] * 10
    assert len(calls) == 1
    assert len({r.content for r in answers}) == 1


def _in_thread(make):
    """Run a coroutine on a fresh loop in its own thread (Playwright may hold this thread's loop)."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(lambda: asyncio.run(make())).result()


def test_a_load_cut_off_by_the_stop_starts_no_new_process(monkeypatch) -> None:
    """The stop ends the warm-up process under a load; the warm-up thread then starts no other
    process for the pairs still waiting (one would outlive the server, as `raten serve` once left)."""
    from concurrent.futures import Future

    from raten.web import warmup as warmup_module

    pools: list[object] = []
    submitted = threading.Event()

    class Pool:
        """A process pool whose one call never ends until the stop breaks it."""

        def __init__(self, *_args, **_kwargs) -> None:
            self.future: Future = Future()
            pools.append(self)

        def submit(self, *_args) -> Future:
            submitted.set()
            return self.future

        def shutdown(self, **_how) -> None:
            self.future.set_exception(RuntimeError("the process was ended"))

    class Entry:
        spec = "a spec"

        def ready_state(self, _prior: str) -> None:
            return None

    class Served:
        entries: typing.ClassVar[dict] = {}

        def get(self, _name: str) -> Entry:
            return Entry()

    monkeypatch.setattr(warmup_module, "ProcessPoolExecutor", Pool)
    warm = warmup_module.Warmup(Served(), prepare=lambda *_a: None)
    warm.start(processes=True)
    for name in ("first", "second", "third"):
        warm._ask(name, "uniform")
    assert submitted.wait(60)
    thread = warm._thread
    warm.stop()
    thread.join(60)
    assert not thread.is_alive() and len(pools) == 1


def test_an_app_started_again_after_its_stop_serves_again(tmp_path, small) -> None:
    """The stop ends the warm-up and the work queue for good only until the next start-up: a
    test (or an embedding program) that enters one app twice gets hints and other priors again."""
    app = create_app(
        lists=Lists.load({"small": small}), db_path=tmp_path / "db.sqlite3", daily_secret="w", policy=ROOMY
    )
    for word in small.solutions[:2]:  # two new states: each is ranked on the work queue
        with TestClient(app) as c:  # start-up, the requests, shut-down
            app.state.lists.warmup.wait("small", "frequency", timeout=120)
            row = {"guess": word, "pattern": "....."}
            hints = c.post("/api/hints", json={"list": "small", "rows": [row], "top": 3})
            assert hints.status_code == 200, hints.text
            openers = c.get("/api/openers", params={"list": "small", "prior": "frequency", "top": 5})
            assert openers.status_code == 200, openers.text
