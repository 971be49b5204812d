"""The solver on the device (static/device): the browser's engine against the server's API on
random histories, the on-device switch, and the solver working offline through the service
worker after the server has stopped."""

from __future__ import annotations

import random
import string
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from serving import Served
from waits import wait_until

from raten.engine.feedback import feedback_colours, format_pattern, pattern
from raten.engine.state import State

#: Histories compared per (list, mode): 4 × 520 = 2080 in all.
HISTORIES = 520
#: Histories the page ranks per page.evaluate call.
BATCH = 40
#: Whole answers compared: the candidates in full, the ranking as deep as the API ranks it.
QUERY = {"top": 50, "limit": 20000}

#: Loads the list file and the engine once per page and answers a batch of /api/hints bodies.
DEVICE_BATCH = """async ({engine, words, queries}) => {
  if (!window.__device || window.__device.words !== words) {
    const { Solver, WordList } = await import(engine);
    const list = new WordList(await (await fetch(words)).json());
    window.__device = { words, solver: new Solver(list) };
  }
  return queries.map((q) => {
    try { return window.__device.solver.hints(q); } catch (e) { return { error: String(e.message), key: e.key }; }
  });
}"""


def histories(words, hard: bool, n: int, seed: int) -> list[list[tuple[str, str]]]:
    """Random histories made with the Python engine: a random answer (one in ten an allowed word
    that is no solution, so that allowed words stand in), then one to four guesses, each a random
    allowed word, one of the top hints or (one in twenty) five random letters, stopped early
    when the answer is found."""
    rng = random.Random(seed)
    outsiders = sorted(set(words.allowed) - set(words.solutions))
    start = State(words, hard=hard)
    out: list[list[tuple[str, str]]] = []
    while len(out) < n:
        answer = rng.choice(outsiders) if outsiders and rng.random() < 0.1 else rng.choice(words.solutions)
        state, rows = start, []
        for _ in range(rng.randint(1, 4)):
            if rng.random() < 0.05:  # a word the list does not know, used anyway
                guess = "".join(rng.choice(string.ascii_lowercase) for _ in range(5))
            elif rng.random() < 0.4 or state.count > 400:
                guess = rng.choice(words.allowed)
            else:
                hints = state.hints(top=5)
                if not hints:
                    break
                guess = rng.choice(hints).word
            code = pattern(guess, answer)
            rows.append((guess, format_pattern(code)))
            state = state.after(guess, code)
            if state.solved or state.count == 1:
                break
        out.append(rows)
    return out


def device_config(page) -> dict:
    return page.evaluate("JSON.parse(document.getElementById('raten-config').textContent).device")


def assert_same(device: dict, server: dict, where: str) -> None:
    """The same answer: every field equal, the floats to 1e-9."""
    assert "error" not in device, f"{where}: {device}"
    for key in ("list", "count", "fallback", "solved", "candidates", "constraints", "summary", "warnings", "split"):
        assert device[key] == server[key], f"{where}: {key} differs: {device[key]!r} != {server[key]!r}"
    assert [h["word"] for h in device["hints"]] == [h["word"] for h in server["hints"]], where
    for mine, theirs in zip(device["hints"], server["hints"]):
        assert abs(mine["bits"] - theirs["bits"]) <= 1e-9, f"{where}: {mine} != {theirs}"
        assert abs(mine["expected_remaining"] - theirs["expected_remaining"]) <= 1e-9, f"{where}: {mine}"
        assert (mine["candidate"], mine["patterns"], mine["largest"]) == (
            theirs["candidate"],
            theirs["patterns"],
            theirs["largest"],
        ), f"{where}: {mine} != {theirs}"


@pytest.mark.slow
@pytest.mark.parametrize("name", ["en", "de"])
def test_the_device_engine_answers_as_the_server_does(page, live, name):
    words = live.app.state.lists.get(name).words
    page.goto(f"{live.url}/solver?list={name}")
    page.wait_for_selector("#results[data-state=ready]")
    config = device_config(page)
    compared = 0

    def served(client: httpx.Client, queries: list[dict]) -> list[httpx.Response]:
        return [client.post("/api/hints", json=q) for q in queries]

    # The server answers a batch on another thread while the browser ranks it (two processes
    # at work instead of one after the other); every answer is still compared.
    with httpx.Client(base_url=live.url, timeout=60) as client, ThreadPoolExecutor(1) as pool:
        for hard in (False, True):
            cases = histories(words, hard, HISTORIES, seed=2 * ["en", "de"].index(name) + hard)
            for lo in range(0, len(cases), BATCH):
                queries = [
                    {"list": name, "hard": hard, "rows": [{"guess": g, "pattern": p} for g, p in rows], **QUERY}
                    for rows in cases[lo : lo + BATCH]
                ]
                responses = pool.submit(served, client, queries)
                answers = page.evaluate(
                    DEVICE_BATCH, {"engine": config["engine"], "words": config["words"], "queries": queries}
                )
                for query, device, response in zip(queries, answers, responses.result(), strict=True):
                    assert response.status_code == 200, response.text
                    assert_same(device, response.json(), f"{name} hard={hard} {query['rows']}")
                    compared += 1
    assert compared == 2 * HISTORIES


#: Answers whose second guess the server's guarantee is compared on, per (list, mode): each
#: costs the server a search of its top hints (seconds), the device a look into its book.
SECOND_MOVES = 3

#: What the guarantee says of the position itself (the hints' verdicts are compared apart).
DECISION = ("limit", "over", "guess", "safe", "safe_over", "covered")


@pytest.mark.slow
@pytest.mark.parametrize("name", ["en", "de"])
def test_the_device_gives_the_servers_guarantee_for_the_first_two_moves(page, live, name):
    """From the book: the opener and the verdicts of the best openers as the server gives them;
    after the opener, the book's second guess, marked safe as the server marks it; later, and
    after another opener, no guarantee but ``beyond`` (the server searches there)."""
    words = live.app.state.lists.get(name).words
    page.goto(f"{live.url}/solver?list={name}")
    page.wait_for_selector("#results[data-state=ready]")
    config = device_config(page)
    books = httpx.get(live.url + config["words"], timeout=60).json()["books"]
    rng = random.Random(23)
    with httpx.Client(base_url=live.url, timeout=300) as client:
        for hard in (False, True):
            opener = books["hard" if hard else "normal"]["opener"][0]
            answers = rng.sample([w for w in words.solutions if w != opener], SECOND_MOVES)
            second = [[(opener, format_pattern(pattern(opener, a)))] for a in answers]
            other = next(w for w in words.allowed if w != opener)
            cases = [[], *second, [*second[0], (other, format_pattern(pattern(other, answers[0])))]]
            cases.append([(other, format_pattern(pattern(other, answers[0])))])
            queries = [
                {"list": name, "hard": hard, "rows": [{"guess": g, "pattern": p} for g, p in rows]} for rows in cases
            ]
            answers_here = page.evaluate(
                DEVICE_BATCH, {"engine": config["engine"], "words": config["words"], "queries": queries}
            )
            for query, device in zip(queries, answers_here, strict=True):
                where = f"{name} hard={hard} {query['rows']}"
                response = client.post("/api/hints", json=query)
                assert response.status_code == 200, response.text
                server = response.json()
                assert_same(device, server, where)
                mine, theirs = device["guarantee"], server["guarantee"]
                if len(query["rows"]) > 1 or (query["rows"] and query["rows"][0]["guess"] != opener):
                    assert mine is None and device["beyond"] is True, where
                    continue
                assert device["beyond"] is False and theirs is not None, where
                assert {k: mine[k] for k in DECISION} == {k: theirs[k] for k in DECISION}, where
                if not query["rows"]:  # the openers' verdicts, all from the book
                    assert mine["hints"] == theirs["hints"], where
                else:  # the book's guess where it is a hint, as the server judges it; the rest unsaid
                    said = {"word": mine["guess"], "safe": True, "at_risk": 0} if mine["safe"] else None
                    for hint, v, w in zip(device["hints"], mine["hints"], theirs["hints"], strict=True):
                        assert v == (said if hint["word"] == mine["guess"] else None), where
                        assert v is None or v == w, where


AXE_SERIOUS = """async () => (await axe.run(document, { resultTypes: ["violations"] })).violations
  .filter((v) => v.impact === "serious" || v.impact === "critical")
  .map((v) => v.id + ": " + v.nodes.map((n) => n.target.join(" ")).join(", "))"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_badge_and_the_switch_pass_axe(browser, live, axe_source, phone, scheme):
    context = browser.new_context(viewport=phone, color_scheme=scheme)
    page = context.new_page()
    try:
        page.goto(f"{live.url}/solver?list=en&rows=crane00120")
        page.wait_for_selector("#results[data-state=ready]")
        page.check("#on-device")
        page.wait_for_selector("#device-badge:visible")
        page.wait_for_selector("#results[data-state=ready]")
        page.evaluate(axe_source + "\n;0")  # CSP refuses add_script_tag's inline script
        assert page.evaluate(AXE_SERIOUS) == []
    finally:
        context.close()


def test_on_device_is_a_choice_kept_in_the_browser(page, live, solver_hints):
    page.goto(f"{live.url}/solver?list=de&lang=de&rows=tarne00100")
    page.wait_for_selector("#results[data-state=ready]")
    assert page.locator("#device-badge").is_hidden()
    served = page.locator("#hints tbody tr .word button").all_inner_texts()
    page.check("#on-device")
    page.wait_for_selector("#device-badge:visible")
    page.wait_for_selector("#results[data-state=ready]")
    assert page.locator("#device-badge").inner_text() == "auf diesem Gerät"
    assert page.locator("#hints tbody tr .word button").all_inner_texts() == served
    # kept for the next visit; hints asked for there never reach the server
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/api/hints" in r.url else None)
    page.reload()
    page.wait_for_selector("#results[data-state=ready]")
    assert page.is_checked("#on-device")
    assert page.locator("#device-badge").is_visible()
    assert page.locator("#hints tbody tr .word button").all_inner_texts() == served
    assert asked == []
    # a field the engine does not read goes to the server (which refuses this one: 422)
    ask = f"(body) => ({solver_hints})(body).then((d) => d.count, (e) => e.status)"
    solutions = len(live.app.state.lists.get("de").words.solutions)
    assert page.evaluate(ask, {"list": "de", "rows": [], "hard": False}) == solutions
    assert asked == []
    assert page.evaluate(ask, {"list": "de", "rows": [], "hard": False, "surprise": 1}) == 422
    assert len(asked) == 1
    page.uncheck("#on-device")
    page.wait_for_selector("#results[data-state=ready]")
    page.wait_for_selector("#device-badge", state="hidden")


class Server(Served):
    """A server of its own (the session's stays up for the other tests), stopped on demand."""

    def __init__(self, lists, tmp_path) -> None:
        from raten.web import create_app

        super().__init__(create_app(lists=lists, db_path=tmp_path / "raten.sqlite3", daily_secret="device"))


#: Whether the service worker has kept the URL given (its cache holds it), for ``wait_until``.
KEPT_OFFLINE = "async (u) => Boolean(await caches.match(u))"


def test_offline_the_solver_loads_and_solves_on_the_device(browser, live, tmp_path):
    server = Server(live.app.state.lists, tmp_path)
    context = browser.new_context(viewport={"width": 1200, "height": 820}, locale="en-US")
    context.set_default_timeout(20_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(f"{server.url}/solver?list=en")
        page.wait_for_selector("#results[data-state=ready]")
        config = device_config(page)
        assert wait_until(page, KEPT_OFFLINE, server.url + config["words"]), "the service worker did not keep the list"
        server.stop()
        with pytest.raises(httpx.TransportError):
            httpx.get(server.url + "/solver", timeout=2)

        page.reload()
        page.wait_for_selector("#results[data-state=ready]")
        assert page.locator("#device-badge").inner_text() == "on this device"
        assert page.locator("#count").inner_text() == "2315 candidates left"
        words = live.app.state.lists.get("en").words
        state = State(words)
        answer = "pleat"
        for turn in range(6):
            guess = page.locator("#hints tbody tr .word button").first.inner_text().lower()
            assert guess == state.hints(top=1)[0].word
            page.locator("#hints tbody tr .word button").first.click()
            page.keyboard.press("Enter")
            page.wait_for_selector("#results[data-state=ready], #results[data-state=error]")
            row = page.locator(".row.done").nth(turn)
            colours = feedback_colours(guess, answer)
            for i, c in enumerate(colours):
                classes = row.locator(".tile").nth(i).get_attribute("class").split()
                shown = next(int(k[1]) for k in classes if k in ("c0", "c1", "c2"))
                for _ in range((c - shown) % 3):
                    row.locator(".tile").nth(i).click()
            page.wait_for_selector("#results[data-state=ready]")
            state = state.after(guess, "".join(".?!"[c] for c in colours))
            assert page.locator("#count").get_attribute("data-count") == str(state.count)
            assert page.locator("#device-badge").is_visible()
            if state.count == 1:
                break
        assert page.locator("#count").inner_text() in {"1 candidate left: PLEAT", f"Solved in {turn + 1}!"}
        assert not errors, errors
    finally:
        context.close()
        if server.thread.is_alive():
            server.stop()


def test_a_list_off_the_device_has_no_switch_and_asks_the_server(page, live, monkeypatch):
    from raten.web import device

    monkeypatch.setattr(device, "MAX_DEVICE_CELLS", 0)
    page.goto(f"{live.url}/solver?list=en&rows=crane00120")
    page.wait_for_selector("#results[data-state=ready]")
    assert page.locator("#on-device").is_hidden()
    assert page.locator("#device-badge").is_hidden()
    assert page.evaluate("async () => (await navigator.serviceWorker.getRegistrations()).length") == 0
