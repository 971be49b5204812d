"""Lists of other lengths and letters in the browser: a six-letter game played to its end and a
four-letter solver position, on a desktop and 320 px wide, axe clean; de-umlaut's keyboard with
Ä, Ö and Ü. Its own server offers en-6, en-4 and de-umlaut (the suite's other server en and de)."""

from __future__ import annotations

import re

import pytest
from serving import Served

from raten.engine.feedback import feedback_colours
from raten.engine.state import State
from raten.play.game import daily_number

NARROW = {"width": 320, "height": 640}


@pytest.fixture(scope="module")
def lengths(tmp_path_factory, chromium_path, day):  # noqa: ARG001 - skips without a browser
    from raten.web import create_app
    from raten.web.limits import Policy
    from raten.web.service import Lists
    from raten.wordlists.presets import load_preset

    lists = Lists.load({name: load_preset(name) for name in ("en-6", "en-4", "de-umlaut")})
    roomy = Policy(address="10000/second", work="10000/second", new_player="10000/second", player="10000/second")
    db = tmp_path_factory.mktemp("lengths") / "raten.sqlite3"
    app = create_app(lists=lists, db_path=db, daily_secret="e2e", today=lambda: day, policy=roomy)
    served = Served(app)
    yield served.url, app
    served.stop()


def player_of(page) -> str:
    return next(c["value"] for c in page.context.cookies() if c["name"] == "raten_player")


def colours_of_row(row, length: int) -> list[int]:
    classes = [row.locator(".tile").nth(i).get_attribute("class") for i in range(length)]
    return [int(re.search(r"\bc(\d)\b", c).group(1)) for c in classes]


def axe_violations(page, axe_source: str) -> list[str]:
    page.evaluate(axe_source + "\n;0")
    return page.evaluate(
        """async () => (await axe.run(document, { resultTypes: ["violations"] }))
             .violations.map((v) => v.id + ": " + v.nodes.map((n) => n.target.join(" ")).join(", "))"""
    )


def no_sideways_scroll(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= page.evaluate(
        "document.documentElement.clientWidth"
    )


@pytest.mark.parametrize("size", [None, NARROW], ids=["desktop", "320px"])
def test_a_six_letter_game_to_its_end(browser, lengths, day, size, screenshot, axe_source, close_stats) -> None:
    url, app = lengths
    context = browser.new_context(viewport=size or {"width": 1200, "height": 820}, locale="en-US")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{url}/play?list=en-6")
    page.wait_for_selector("body[data-game=playing]")
    assert page.locator("#board .row").first.locator(".tile").count() == 6
    answer = app.state.store.daily_game(player_of(page), "en-6", daily_number(day)).answer
    words = app.state.lists.get("en-6").words
    first = next(w for w in State(words).hints(top=3) if w.word != answer).word
    page.keyboard.type(first)
    page.keyboard.press("Enter")
    page.wait_for_selector(".row.done >> nth=0")
    assert colours_of_row(page.locator(".row.done").nth(0), 6) == list(feedback_colours(first, answer))
    no_sideways_scroll(page)
    if size is not None:  # the board and the keyboard on a narrow phone, mid-game
        screenshot(page, "play-six-letters-320")
    for letter in answer:  # the answer on the on-screen keyboard
        page.click(f"#keyboard .key[data-key={letter}]")
    page.click("#keyboard .key[data-key=enter]")
    page.wait_for_selector("body[data-game=won]")
    close_stats(page)
    assert page.locator("#result").inner_text() == f"Solved in 2! The word was {answer.upper()}."
    share = page.locator("#share").text_content()
    assert share.startswith(f"raten en-6 #{daily_number(day)} 2/6") and share.strip().endswith("\U0001f7e9" * 6)
    no_sideways_scroll(page)
    assert axe_violations(page, axe_source) == []
    if size is None:
        screenshot(page, "play-six-letters")
    context.close()
    assert not errors, errors


@pytest.mark.parametrize("size", [None, NARROW], ids=["desktop", "320px"])
def test_a_four_letter_solver_position(browser, lengths, size, screenshot, axe_source) -> None:
    url, app = lengths
    words = app.state.lists.get("en-4").words
    state = State(words)
    guess = state.hints(top=1)[0].word
    answer = words.solutions[100]
    code = "".join(str(c) for c in feedback_colours(guess, answer))
    context = browser.new_context(viewport=size or {"width": 1200, "height": 820}, locale="en-US")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{url}/solver?list=en-4&rows={guess}{code}")
    page.wait_for_selector("#results[data-state=ready]")
    after = state.after(guess, code.replace("0", ".").replace("1", "?").replace("2", "!"))
    assert page.locator("#count").get_attribute("data-count") == str(after.count)
    assert page.locator(".row.done").first.locator(".tile").count() == 4
    assert page.locator("#prior option[value=frequency]").count() == 0  # not fitted on four letters
    assert colours_of_row(page.locator(".row.done").first, 4) == list(feedback_colours(guess, answer))
    best = page.locator("#hints tbody tr .word button").first.inner_text().lower()
    assert best == after.hints(top=1)[0].word
    no_sideways_scroll(page)
    assert axe_violations(page, axe_source) == []
    screenshot(page, "solver-four-letters" if size is None else "solver-four-letters-320")
    page.keyboard.type(best)  # a second row typed: four tiles, then Enter adds it
    page.keyboard.press("Enter")
    page.wait_for_selector(".row.done >> nth=1")
    page.wait_for_selector("#results[data-state=ready], #results[data-state=error]")
    assert page.locator(".row.done").nth(1).locator(".tile").count() == 4
    no_sideways_scroll(page)
    assert axe_violations(page, axe_source) == []
    context.close()
    assert not errors, errors


def test_de_umlaut_has_umlaut_keys_and_takes_them_typed(browser, lengths) -> None:
    url, app = lengths
    context = browser.new_context(viewport={"width": 1200, "height": 820}, locale="de-DE")
    page = context.new_page()
    page.goto(f"{url}/solver?list=de-umlaut&lang=de")
    page.wait_for_selector("#results[data-state=ready]")
    for letter in "äöü":
        assert page.locator(f"#keyboard .key[data-key={letter}]").count() == 1
    page.keyboard.type("b")
    # Ä from a German keyboard (Playwright's own typing knows a US layout only): its keydown
    page.evaluate("document.dispatchEvent(new KeyboardEvent('keydown', {key: '\u00e4', bubbles: true}))")
    page.keyboard.type("ren")
    page.keyboard.press("Enter")
    page.wait_for_selector(".row.done")
    assert page.locator(".row.done .tile").nth(1).inner_text().lower() == "ä"
    page.wait_for_selector("#results[data-state=ready], #results[data-state=error]")
    assert app.state.lists.get("de-umlaut").words.check("BÄREN") == "bären"
    context.close()
