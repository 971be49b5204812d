"""End to end in headless chromium: play a game by typing, solve by clicking tiles, switch language.

The pages' screenshots in docs/screenshots are written here.
"""

from __future__ import annotations

import re

from raten.engine.feedback import feedback_colours
from raten.engine.state import State
from raten.play.game import daily_number


def player_of(page) -> str:
    return next(c["value"] for c in page.context.cookies() if c["name"] == "raten_player")


def type_word(page, word: str) -> None:
    page.keyboard.type(word)
    page.keyboard.press("Enter")


def colours_of_row(row) -> list[int]:
    classes = [row.locator(".tile").nth(i).get_attribute("class") for i in range(5)]
    return [int(re.search(r"\bc(\d)\b", c).group(1)) for c in classes]


# --- the game --------------------------------------------------------------------------------------


def test_play_the_daily_game_by_typing(page, live, day, phone, screenshot, close_stats):
    page.goto(f"{live.url}/play?list=en")
    page.wait_for_selector("body[data-game=playing]")
    assert page.locator("#game-title").inner_text() == f"en #{daily_number(day)}"
    record = live.app.state.store.daily_game(player_of(page), "en", daily_number(day))
    answer = record.answer
    assert answer not in page.content().lower()

    # an unknown word: a message, and no try lost
    type_word(page, "qxzvj")
    page.wait_for_selector("#toast.show")
    assert "QXZVJ is not in the word list" in page.locator("#toast").inner_text()
    assert page.locator(".row.done").count() == 0
    for _ in range(5):
        page.keyboard.press("Backspace")

    # one guess typed, one tapped on the on-screen keyboard
    first, second = [w for w in ("crane", "pious", "dumpy") if w != answer][:2]
    type_word(page, first)
    page.wait_for_selector(".row.done >> nth=0")
    assert colours_of_row(page.locator(".row.done").nth(0)) == list(feedback_colours(first, answer))
    for letter in second:
        page.click(f"#keyboard .key[data-key={letter}]")
    page.click("#keyboard .key[data-key=enter]")
    page.wait_for_selector(".row.done >> nth=1")
    assert page.locator("#tries").inner_text() == "4 tries left"
    green_or_grey = page.locator(f"#keyboard .key[data-key={first[0]}]").get_attribute("class")
    assert re.search(r"absent|present|correct", green_or_grey)

    type_word(page, answer)
    page.wait_for_selector("body[data-game=won]")
    close_stats(page)  # opened by itself once the last row has turned
    assert page.locator("#result").inner_text() == f"Solved in 3! The word was {answer.upper()}."
    share = page.locator("#share").text_content()
    assert page.locator("#share-preview .squares").count() == 3
    assert share.startswith(f"raten en #{daily_number(day)} 3/6")
    assert share.strip().endswith("\U0001f7e9" * 5)
    assert page.locator("#stat_played").inner_text() == "1"
    assert page.locator("#stat_win").inner_text() == "100"
    page.wait_for_selector("#after[data-review=ready]")
    assert page.locator("#review tbody tr").count() == 3
    assert page.locator("#solver-game .mini-row").last.inner_text().strip().endswith(answer.upper())
    screenshot(page, "play")
    screenshot(page, "play-phone", phone)

    # the daily game is over for today: reloading shows it, finished
    page.reload()
    page.wait_for_selector("body[data-game=won]")


def test_practice_game_and_hard_mode_in_german(page, live, monkeypatch):
    from raten.play import game

    monkeypatch.setattr(game, "random_word", lambda _words: "lampe")  # the server runs in this process
    page.goto(f"{live.url}/play?list=de")
    page.wait_for_selector("body[data-game=playing]")
    page.click("#new-game")
    page.wait_for_function("location.search.includes('mode=practice')")
    page.wait_for_selector("body[data-game=playing]")
    page.check("#hard")
    page.wait_for_selector("#game-title:has-text('*')")
    game_id = page.evaluate("localStorage.getItem('raten-practice-de')")
    record = live.app.state.store.game(player_of(page), game_id)
    assert record.hard and record.mode == "practice"
    assert record.answer == "lampe"
    type_word(page, "rosen")  # ...?. : E is in the word
    page.wait_for_selector(".row.done")
    type_word(page, "tisch")
    page.wait_for_selector("#toast.show")
    assert page.locator("#toast").inner_text() == "Schwerer Modus: das Wort muss E enthalten"
    assert page.locator(".row.done").count() == 1
    # the switch is locked once the game has begun
    page.click("#hard")
    assert page.is_checked("#hard")
    page.wait_for_selector("#toast.show:has-text('nur vor dem ersten Versuch')")


# --- the solver --------------------------------------------------------------------------------------


def test_solver_by_clicking_tiles_reaches_one_candidate(page, live, phone, screenshot):
    answer = "pleat"
    words = live.app.state.lists.get("en").words
    page.goto(f"{live.url}/solver?list=en")
    page.wait_for_selector("#results[data-state=ready]")
    assert page.locator("#count").inner_text() == "2315 candidates left"
    state = State(words)
    guess = "crane"
    for turn in range(6):
        type_word(page, guess)
        # all grey (or green where that is certain) may contradict earlier rows until the tiles are set
        page.wait_for_selector("#results[data-state=ready], #results[data-state=error]")
        row = page.locator(".row.done").nth(turn)
        colours = feedback_colours(guess, answer)
        shown = colours_of_row(row)
        for i, c in enumerate(colours):
            for _ in range((c - shown[i]) % 3):
                row.locator(".tile").nth(i).click()
        page.wait_for_selector("#results[data-state=ready]")
        assert colours_of_row(page.locator(".row.done").nth(turn)) == list(colours)
        state = state.after(guess, "".join(".?!"[c] for c in colours))
        assert page.locator("#count").get_attribute("data-count") == str(state.count)
        if turn == 0:
            screenshot(page, "solver")
        if state.count == 1:
            break
        guess = page.locator("#hints tbody tr .word button").first.inner_text().lower()
        assert guess == state.hints(top=1)[0].word
    assert page.locator("#count").inner_text() in {"1 candidate left: PLEAT", f"Solved in {turn + 1}!"}
    assert "rows=" in page.url
    shown = page.locator("#constraints li").all_inner_texts()
    assert shown and all(line for line in shown)

    # the URL carries the state: reload it elsewhere
    url = page.url
    page.goto(url)
    page.wait_for_selector("#results[data-state=ready]")
    assert page.locator("#count").get_attribute("data-count") == "1"

    page.click("#undo")
    page.wait_for_selector("#results[data-state=ready]")
    assert int(page.locator("#count").get_attribute("data-count")) > 1
    assert page.locator("#split .bar-row").count() >= 2
    page.set_viewport_size(phone)
    page.goto(url)
    page.wait_for_selector("#results[data-state=ready]")
    screenshot(page, "solver-phone")


# Holds the answers to /api/hints while window.__hold is set, until the test releases them.
_HOLD_HINTS = """
window.__held = [];
const realFetch = window.fetch;
window.fetch = (url, init) => {
  const answer = realFetch(url, init);
  if (!window.__hold || !String(url).includes("/api/hints")) return answer;
  return new Promise((resolve, reject) => window.__held.push(() => answer.then(resolve, reject)));
};
"""


def test_an_answer_to_an_older_state_is_never_shown_as_ready(page, live):
    """The race of issue 12: an answer for the state before the last click, arriving within
    the debounce after that click, must not be shown (nor the page say it is ready)."""
    words = live.app.state.lists.get("en").words
    page.add_init_script(_HOLD_HINTS)
    page.goto(f"{live.url}/solver?list=en&rows=crane00000")
    page.wait_for_selector("#results[data-state=ready]")
    page.evaluate("window.__hold = true")
    page.locator(".row.done").nth(0).locator(".tile").nth(0).click()  # CRANE ?....
    page.wait_for_function("() => window.__held.length === 1")  # its answer is on hold
    state_right_after = page.evaluate(
        """async () => {
            document.querySelectorAll(".row.done")[0].querySelectorAll(".tile")[1].click();  // ??...
            window.__hold = false;
            window.__held.shift()();  // the older answer arrives now, inside the debounce
            await new Promise((r) => setTimeout(r, 30));
            return document.querySelector("#results").dataset.state;
        }"""
    )
    assert state_right_after == "pending"
    page.wait_for_selector("#results[data-state=ready]")
    expected = State(words).after("crane", "??...").count
    assert page.locator("#count").get_attribute("data-count") == str(expected)


def test_solver_shows_errors_and_a_loading_state(page, live):
    page.add_init_script(
        """
        const realFetch = window.fetch;
        window.fetch = (url, init) =>
          new Promise((resolve) => setTimeout(resolve, 600)).then(() => realFetch(url, init));
        """
    )
    page.goto(f"{live.url}/solver?list=en&rows=crane22222-crane00000")
    page.wait_for_selector("#loading:not([hidden])")
    page.wait_for_selector("#results[data-state=error]")
    assert "no word fits" in page.locator("#error").inner_text()
    assert page.locator("#loading").is_hidden()
    page.click("#undo")
    page.wait_for_selector("#results[data-state=ready]")
    assert page.locator("#count").inner_text() == "Solved in 1!"


def test_switch_language(page, live):
    page.goto(f"{live.url}/solver?list=en")
    page.wait_for_selector("#results[data-state=ready]")
    assert page.locator("html").get_attribute("lang") == "en"
    assert page.locator("#nav-solver").inner_text() == "Solver"
    page.click("#lang-de")
    page.wait_for_selector("html[lang=de]")
    page.wait_for_selector("#results[data-state=ready]")
    assert page.locator("#nav-solver").inner_text() == "Löser"
    assert page.locator("#count").inner_text() == "2315 Wörter möglich"
    assert page.locator("#keyboard .krow").first.inner_text().replace("\n", "").lower().startswith("qwerty")

    # choosing the German list keeps German and brings the QWERTZ keyboard
    page.select_option("#list-select", "de")
    page.wait_for_url(re.compile(r"list=de"))
    page.wait_for_selector("#results[data-state=ready]")
    assert page.locator("html").get_attribute("lang") == "de"
    assert page.locator("#keyboard .krow").first.inner_text().replace("\n", "").lower().startswith("qwertz")

    # and back to English with the German list
    page.click("#lang-en")
    page.wait_for_selector("html[lang=en]")
    page.wait_for_selector("#results[data-state=ready]")
    assert page.locator("#nav-play").inner_text() == "Play"
    assert "list=de" in page.url

    # without a choice, the UI follows the list's language
    page.goto(f"{live.url}/play?list=de")
    assert page.locator("html").get_attribute("lang") == "de"
    assert page.locator("#mode-daily").inner_text() == "Wort des Tages"


def test_openers_page(page, live, screenshot):
    page.goto(f"{live.url}/openers?list=de")
    for name in ("en", "de"):
        page.click(f"#tab-{name}")
        table = page.locator(f"#openers-{name} .entropy-table tbody tr")
        assert table.count() == 15
        top = live.app.state.lists.get(name).openers[0]
        assert table.first.locator(".word").inner_text() == top.word.upper()
    screenshot(page, "openers")  # the German list, entropy beside the proven openers
    page.click("#tab-en")
    page.locator("#openers-en .entropy-table tbody tr .word a").first.click()
    page.wait_for_selector("#results[data-state=ready]")
    top = live.app.state.lists.get("en").openers[0].word
    assert page.locator("#input-row").inner_text().replace("\n", "").lower() == top
