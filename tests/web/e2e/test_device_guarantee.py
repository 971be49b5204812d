"""The guarantee on the device's solver page: the safe column and the best guess from the
opening book for the first two moves, as the server says them, and a short note once a
position is beyond what the device can check; at 320 px and on a desktop, in English and
German, online and offline (the server stopped), clean under axe."""

from __future__ import annotations

import httpx
import pytest
from test_device import AXE_SERIOUS, KEPT_OFFLINE, Server, device_config
from waits import wait_until

from raten.engine.feedback import format_pattern, pattern

NARROW = {"width": 320, "height": 720}
DESKTOP = {"width": 1200, "height": 820}
#: The note each language shows beyond the book (texts/en.json, de.json ``device_beyond``).
BEYOND = {
    "en": "Beyond what this device can check: the server marks which guesses are safe.",
    "de": "Mehr, als dieses Gerät prüfen kann: welche Wörter sicher sind, sagt der Server.",
}
#: The answer of each list's game here (not found by the second guess).
ANSWER = {"en": "pleat", "de": "blume"}
#: Each hint row's word and its safe cell, as the page shows them.
MARKS = """() => Array.from(document.querySelectorAll('#hints tbody tr'),
  (tr) => [tr.querySelector('.word button').textContent, tr.lastElementChild.textContent])"""


def served(url: str, name: str, rows: list[tuple[str, str]]) -> dict:
    """The server's answer in hard mode for ``rows`` (guess, .?! pattern)."""
    body = {"list": name, "hard": True, "rows": [{"guess": g, "pattern": p} for g, p in rows]}
    response = httpx.post(url + "/api/hints", json=body, timeout=300)
    assert response.status_code == 200, response.text
    return response.json()


def marks_of(answer: dict) -> list[list[str]]:
    """The safe cells the page draws for an answer (solver-one.js safeCell)."""
    verdicts = {v["word"]: v for v in (answer["guarantee"] or {"hints": []})["hints"] if v}
    out = []
    for h in answer["hints"]:
        v = verdicts.get(h["word"])
        cell = "" if v is None else "\u2713" if v["safe"] else f"\u26a0 {v['at_risk']}" if v["safe"] is False else "?"
        out.append([h["word"].upper(), cell])
    return out


def url_rows(rows: list[tuple[str, str]]) -> str:
    """Rows as the solver's URL writes them: the guess, then its colours as digits."""
    return "-".join(g + "".join(str(".?!".index(c)) for c in p) for g, p in rows)


def shows(page, answer: dict, move: str) -> None:
    """The page shows ``answer``'s hints with the device's marks, and names its best guess:
    on the ``opening`` the server's safe column; on the ``second`` move only the book's guess
    marked, as the server marks it; ``beyond`` the book no mark, the note, the top hint."""
    page.wait_for_selector("#device-badge:visible")
    page.wait_for_selector("#results[data-state=ready]")
    assert page.locator("#guarantee-note").is_visible() == (move == "beyond")
    marks = page.evaluate(MARKS)
    assert [w for w, _ in marks] == [h["word"].upper() for h in answer["hints"]]
    guard = answer["guarantee"]
    if move == "opening":
        assert marks == marks_of(answer)
    elif move == "second":
        assert marks == [[w, c if w == guard["guess"].upper() else ""] for w, c in marks_of(answer)]
    else:
        assert all(cell == "" for _, cell in marks), marks
    best = answer["hints"][0]["word"] if move == "beyond" or not guard["safe"] else guard["guess"]
    assert best.upper() in page.locator("#summary").text_content()


@pytest.mark.slow
@pytest.mark.parametrize("size", [NARROW, DESKTOP], ids=["320", "desktop"])
@pytest.mark.parametrize("lang,name", [("en", "en"), ("de", "de")])
def test_the_device_marks_safe_guesses_from_the_book_and_says_when_it_cannot(
    browser, live, axe_source, tmp_path, size, lang, name
):
    words = live.app.state.lists.get(name).words
    context = browser.new_context(viewport=size, locale="en-US")
    context.set_default_timeout(30_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(f"{live.url}/solver?list={name}&lang={lang}&hard=1")
        page.wait_for_selector("#results[data-state=ready]")
        page.check("#on-device")
        opening = served(live.url, name, [])
        shows(page, opening, "opening")
        page.evaluate(axe_source + "\n;0")  # CSP refuses add_script_tag's inline script
        assert page.evaluate(AXE_SERIOUS) == []
        page.screenshot(path=tmp_path / f"opening-{lang}-{size['width']}.png")

        opener = opening["guarantee"]["guess"]
        answer = ANSWER[name]
        assert answer in words.solutions
        first = [(opener, format_pattern(pattern(opener, answer)))]
        second = served(live.url, name, first)
        page.goto(f"{live.url}/solver?list={name}&lang={lang}&hard=1&rows={url_rows(first)}")
        shows(page, second, "second")

        guess = second["guarantee"]["guess"]
        later = [*first, (guess, format_pattern(pattern(guess, answer)))]
        page.goto(f"{live.url}/solver?list={name}&lang={lang}&hard=1&rows={url_rows(later)}")
        third = served(live.url, name, later)
        assert not third["solved"]
        shows(page, third, "beyond")
        assert page.locator("#guarantee-note").inner_text() == BEYOND[lang]
        page.evaluate(axe_source + "\n;0")
        assert page.evaluate(AXE_SERIOUS) == []
        page.screenshot(path=tmp_path / f"beyond-{lang}-{size['width']}.png", full_page=True)
        assert not errors, errors
    finally:
        context.close()


@pytest.mark.slow
@pytest.mark.parametrize("lang,name,size", [("en", "en", NARROW), ("de", "de", DESKTOP)], ids=["en-320", "de-desktop"])
def test_offline_the_device_still_marks_the_books_moves(browser, live, axe_source, tmp_path, lang, name, size):
    """With the server stopped, the page answers on the device: the same marks and best guess
    for the two book moves as the server gave online, the note after them."""
    server = Server(live.app.state.lists, tmp_path)
    context = browser.new_context(viewport=size, locale="en-US")
    context.set_default_timeout(30_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(f"{server.url}/solver?list={name}&lang={lang}&hard=1")
        page.wait_for_selector("#results[data-state=ready]")
        assert wait_until(page, KEPT_OFFLINE, server.url + device_config(page)["words"]), "the list was not kept"
        opening = served(server.url, name, [])
        opener = opening["guarantee"]["guess"]
        first = [(opener, format_pattern(pattern(opener, ANSWER[name])))]
        second = served(server.url, name, first)
        guess = second["guarantee"]["guess"]
        later = [*first, (guess, format_pattern(pattern(guess, ANSWER[name])))]
        third = served(server.url, name, later)
        server.stop()
        with pytest.raises(httpx.TransportError):
            httpx.get(server.url + "/solver", timeout=2)

        page.reload()
        shows(page, opening, "opening")
        page.goto(f"{server.url}/solver?list={name}&lang={lang}&hard=1&rows={url_rows(first)}")
        shows(page, second, "second")
        page.goto(f"{server.url}/solver?list={name}&lang={lang}&hard=1&rows={url_rows(later)}")
        assert not third["solved"]
        shows(page, third, "beyond")
        assert page.locator("#guarantee-note").inner_text() == BEYOND[lang]
        page.evaluate(axe_source + "\n;0")
        assert page.evaluate(AXE_SERIOUS) == []
        page.screenshot(path=tmp_path / f"offline-beyond-{lang}.png", full_page=True)
        assert not errors, errors
    finally:
        context.close()
        if server.thread.is_alive():
            server.stop()
