"""What NYT players expect (issue 27 item 11), in headless chromium at desktop and 320 px, in
English and German, with axe-core: How to play opens by itself on a first visit (once), the
statistics open by themselves when a game ends (after the last row has turned) and when the page
opens on a finished game, and the solver's hints can be revealed a step at a time (how many words
are left, a letter worth trying, the best guess, then everything), by mouse or keyboard.
"""

from __future__ import annotations

import pytest

from raten.engine.state import State
from raten.play.game import daily_number

DESKTOP = {"width": 1200, "height": 820}
SMALL = {"width": 320, "height": 640}
SIZES = {"desktop": DESKTOP, "320": SMALL}

_VIOLATIONS = """async () => (await axe.run(document, { resultTypes: ["violations"] })).violations
  .map((v) => v.impact + " " + v.id + ": " + v.nodes.map((n) => n.target.join(" ")).join(", "))"""


def violations(page, axe_source) -> list[str]:
    """Every axe violation of the page as it is now (any impact)."""
    page.evaluate(axe_source + "\n;0")  # CSP refuses add_script_tag's inline script
    return page.evaluate(_VIOLATIONS)


def no_sideways_scroll(page, size: dict) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"], page.url


def player_of(page) -> str:
    return next(c["value"] for c in page.context.cookies() if c["name"] == "raten_player")


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("size", SIZES, ids=list(SIZES))
def test_how_to_play_opens_by_itself_on_the_first_visit_only(browser, live, axe_source, screenshot, lang, size):
    context = browser.new_context(viewport=SIZES[size], locale="en-US", first_visit=True)
    page = context.new_page()
    try:
        page.goto(f"{live.url}/play?list={lang}&lang={lang}")
        page.wait_for_selector("#help[open]")
        page.wait_for_selector("body[data-game=playing]")
        title = {"en": "How to play", "de": "So wird gespielt"}[lang]
        assert page.locator("#help-title").inner_text() == title
        assert page.evaluate("document.getElementById('help').contains(document.activeElement)")
        no_sideways_scroll(page, SIZES[size])
        assert violations(page, axe_source) == []
        if size == "320":
            screenshot(page, f"help-first-visit-{lang}-320")
        page.keyboard.type("ab")  # the dialog has the keys: nothing typed on the board behind it
        page.keyboard.press("Escape")
        page.wait_for_selector("#help:not([open])", state="attached")
        assert page.locator("#input-row").inner_text().strip() == ""
        page.keyboard.type("crane")  # focus is back on the page: typing fills the row
        page.wait_for_function("() => document.getElementById('input-row').textContent.trim().length === 5")

        page.reload()  # the second visit: remembered, not opened again
        page.wait_for_selector("body[data-game=playing]")
        assert not page.locator("#help").evaluate("d => d.open")
        page.goto(f"{live.url}/play?list={lang}&lang={lang}&boards=2")
        page.wait_for_selector("body[data-game=playing]")
        assert not page.locator("#help").evaluate("d => d.open")
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("size", SIZES, ids=list(SIZES))
def test_the_statistics_open_by_themselves_when_the_game_ends(browser, live, day, axe_source, lang, size):
    # no screenshot: the dialog's countdown to the next daily word changes it every second
    context = browser.new_context(viewport=SIZES[size], locale="en-US")
    page = context.new_page()
    try:
        page.goto(f"{live.url}/play?list={lang}&lang={lang}")
        page.wait_for_selector("body[data-game=playing]")
        assert not page.locator("#stats-dialog").count()  # a game in play: no statistics of their own
        answer = live.app.state.store.daily_game(player_of(page), lang, daily_number(day)).answer
        first = "crane" if lang == "en" else "tarne"
        first = first if first != answer else "pious"
        page.keyboard.type(first)
        page.keyboard.press("Enter")
        page.wait_for_selector(".row.done >> nth=0")
        assert not page.locator("#stats-dialog").count()  # not after a row that does not end the game
        # the tiles' reveal is watched: the dialog opens only once it has ended
        page.evaluate("""() => { window.__revealing = null;
            new MutationObserver(() => {
              const dialog = document.getElementById('stats-dialog');
              if (dialog && dialog.open && window.__revealing === null)
                window.__revealing = document.getElementById('board').getAnimations({ subtree: true })
                  .filter((a) => a.playState === 'running').length;
            }).observe(document.body, { childList: true, subtree: true, attributes: true }); }""")
        page.keyboard.type(answer)
        page.keyboard.press("Enter")
        page.wait_for_selector("body[data-game=won]")
        page.wait_for_selector("#stats-dialog[open][data-state=ready]")
        assert page.evaluate("window.__revealing") == 0
        assert page.locator("#stats-played").inner_text() == "1"
        assert page.locator("#stats-dist li.today").count() == 1
        assert page.evaluate("document.getElementById('stats-dialog').contains(document.activeElement)")
        no_sideways_scroll(page, SIZES[size])
        assert violations(page, axe_source) == []
        page.keyboard.press("Escape")
        page.wait_for_selector("#stats-dialog:not([open])", state="attached")
        page.wait_for_selector("#after:not([hidden])")

        # the page opened on a finished game (today's, played): the statistics come up again
        page.reload()
        page.wait_for_selector("body[data-game=won]")
        page.wait_for_selector("#stats-dialog[open][data-state=ready]")
        assert page.locator("#stats-played").inner_text() == "1"
    finally:
        context.close()


def test_a_first_visit_that_ends_a_game_shows_how_to_play_first(browser, live, day):
    """Both would open by themselves: How to play first, the statistics once it is closed."""
    context = browser.new_context(viewport=DESKTOP, locale="en-US", first_visit=True)
    page = context.new_page()
    try:
        page.goto(f"{live.url}/play?list=en")
        page.wait_for_selector("#help[open]")
        page.wait_for_selector("body[data-game=playing]")
        answer = live.app.state.store.daily_game(player_of(page), "en", daily_number(day)).answer
        page.keyboard.press("Escape")
        page.wait_for_selector("#help:not([open])", state="attached")
        page.keyboard.type(answer)
        page.keyboard.press("Enter")
        page.wait_for_selector("body[data-game=won]")
        page.wait_for_selector("#stats-dialog[open][data-state=ready]")
    finally:
        context.close()


# --- the solver's hints, a step at a time ----------------------------------------------------------

STEPS = {
    "en": ["How many words are left?", "Show a letter worth trying", "Show the best guess", "Show every hint"],
    "de": [
        "Wie viele Wörter bleiben?",
        "Einen lohnenden Buchstaben zeigen",
        "Den besten Versuch zeigen",
        "Alle Hinweise zeigen",
    ],
}


def spoilers_hidden(page) -> bool:
    """Whether nothing that gives the answer away is on show: the count, the hints, the candidates,
    the split, the line under the board."""
    return page.evaluate("""() => ['count', 'hints-section', 'candidates', 'split', 'summary']
        .every((id) => document.getElementById(id).offsetParent === null)""")


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("size", SIZES, ids=list(SIZES))
def test_the_solver_reveals_its_hints_a_step_at_a_time(browser, live, axe_source, screenshot, lang, size):
    words = live.app.state.lists.get(lang).words
    first = {"en": "crane", "de": "tarne"}[lang]
    context = browser.new_context(viewport=SIZES[size], locale="en-US")
    page = context.new_page()
    try:
        page.goto(f"{live.url}/solver?list={lang}&lang={lang}&rows={first}01000")
        page.wait_for_selector("#results[data-state=ready]")
        assert not spoilers_hidden(page)  # off by default: every hint shown, as before
        assert page.locator("#steps").is_hidden()
        page.check("#hint-steps")
        assert spoilers_hidden(page)
        state = State(words).after(first, ".?...")
        best = state.hints(top=1)[0].word

        # by keyboard: the button is reached with Tab and pressed with Enter, then Space; focus stays on it
        button = page.locator("#step-next")
        assert button.inner_text() == STEPS[lang][0]
        button.focus()
        page.keyboard.press("Enter")
        page.wait_for_selector("#step-list li >> nth=0")
        assert str(state.count) in page.locator("#step-list li").nth(0).inner_text()
        assert spoilers_hidden(page)
        assert button.inner_text() == STEPS[lang][1]
        assert page.evaluate("document.activeElement.id") == "step-next"
        page.keyboard.press(" ")
        page.wait_for_selector("#step-list li >> nth=1")
        letter_line = page.locator("#step-list li").nth(1).inner_text()
        letter = letter_line.split(":")[1].strip()[0]
        assert letter.lower() in best and letter.lower() not in first  # from the best guess, not tried yet
        assert best.upper() not in page.locator("#results").inner_text()
        assert spoilers_hidden(page)
        no_sideways_scroll(page, SIZES[size])
        assert violations(page, axe_source) == []
        if size == "320":
            screenshot(page, f"solver-steps-{lang}-320")
        page.keyboard.press("Enter")
        page.wait_for_selector("#step-list li >> nth=2")
        assert best.upper() in page.locator("#step-list li").nth(2).inner_text()
        assert spoilers_hidden(page)
        assert button.inner_text() == STEPS[lang][3]
        page.keyboard.press("Enter")  # every hint: the results come back, focus on their heading
        page.wait_for_selector("body[data-steps=open]")
        assert not spoilers_hidden(page)
        assert page.evaluate("document.activeElement.id") == "hints-heading"
        assert page.locator("#hints tbody tr").first.locator("button").inner_text() == best.upper()

        # a new state starts from the first step again; the switch is remembered
        page.locator(".row.done").nth(0).locator(".tile").nth(0).click()
        page.wait_for_selector("#results[data-state=ready]")
        page.wait_for_selector("body[data-steps=on]")
        assert page.locator("#step-list li").count() == 0 and spoilers_hidden(page)
        page.reload()
        page.wait_for_selector("#results[data-state=ready]")
        assert page.locator("#hint-steps").is_checked() and spoilers_hidden(page)
        page.click("#step-next")  # by mouse too
        page.wait_for_selector("#step-list li >> nth=0")
    finally:
        context.close()


def test_a_solved_game_or_an_error_hides_nothing(browser, live):
    context = browser.new_context(viewport=DESKTOP, locale="en-US")
    page = context.new_page()
    try:
        page.goto(f"{live.url}/solver?list=en&rows=crane22222")
        page.wait_for_selector("#results[data-state=ready]")
        page.check("#hint-steps")
        assert page.locator("#steps").is_hidden()
        assert page.locator("#count").is_visible()
        page.goto(f"{live.url}/solver?list=en&rows=crane22222-crane00000")
        page.wait_for_selector("#results[data-state=error]")
        assert page.locator("#steps").is_hidden()
        assert page.locator("#error").is_visible()
    finally:
        context.close()


def boards_spoilers_hidden(page) -> bool:
    """Whether nothing on the many-board solver gives an answer away: the counts, the hints, the
    line under the input, the head of each board not yet solved."""
    return page.evaluate("""() => {
        const gone = (node) => node.offsetParent === null;
        return ['count', 'hints-section', 'summary'].every((id) => gone(document.getElementById(id)))
            && [...document.querySelectorAll('.mboard-status')]
                .every((s) => gone(s) || s.textContent.startsWith('\u2713'));
    }""")


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("size", SIZES, ids=list(SIZES))
def test_the_many_board_solver_reveals_its_hints_a_step_at_a_time(browser, live, axe_source, tmp_path, lang, size):
    words = live.app.state.lists.get(lang).words
    first = {"en": "crane", "de": "tarne"}[lang]
    codes = ["01000", "00100", "00000", "22222"]  # board 4 solved by the first guess
    context = browser.new_context(viewport=SIZES[size], locale="en-US")
    page = context.new_page()
    try:
        page.goto(f"{live.url}/solver?list={lang}&lang={lang}&boards=4&rows={first}{''.join(codes)}")
        page.wait_for_selector("#results[data-state=ready]")
        assert not boards_spoilers_hidden(page)  # off by default: every hint shown
        assert page.locator("#steps").is_hidden()
        page.check("#hint-steps")
        assert boards_spoilers_hidden(page)
        assert page.locator("#board-status-4").is_visible()  # a board solved gives nothing away
        best = page.evaluate("() => document.querySelector('#hints tbody tr .word button').textContent")

        button = page.locator("#step-next")
        assert button.inner_text() == STEPS[lang][0]
        button.focus()
        page.keyboard.press("Enter")
        page.wait_for_selector("#step-list li >> nth=0")
        counts = page.locator("#step-list li").nth(0).inner_text()
        for b, code in enumerate(codes[:3]):
            pattern = code.translate(str.maketrans("012", ".?!"))
            board = {"en": "Board", "de": "Feld"}[lang]
            assert f"{board} {b + 1}: {State(words).after(first, pattern).count}" in counts
        assert f"{board} 4" not in counts
        assert button.inner_text() == STEPS[lang][1]
        page.keyboard.press(" ")
        page.wait_for_selector("#step-list li >> nth=1")
        letter = page.locator("#step-list li").nth(1).inner_text().split(":")[1].strip()[0]
        assert letter.lower() in best.lower() and letter.lower() not in first  # of the best guess, not tried
        assert best not in page.locator("#results").inner_text() and boards_spoilers_hidden(page)
        no_sideways_scroll(page, SIZES[size])
        assert violations(page, axe_source) == []
        for scheme in ("light", "dark"):  # for a person to look at (pytest --basetemp says where)
            page.emulate_media(color_scheme=scheme)
            page.screenshot(path=tmp_path / f"boards-steps-{lang}-{size}-{scheme}.png", full_page=True)
        page.keyboard.press("Enter")
        page.wait_for_selector("#step-list li >> nth=2")
        assert best in page.locator("#step-list li").nth(2).inner_text()
        page.keyboard.press("Enter")  # every hint: the results come back, focus on their heading
        page.wait_for_selector("body[data-steps=open]")
        assert not boards_spoilers_hidden(page)
        assert page.evaluate("document.activeElement.id") == "hints-heading"

        # a new state starts from the first step again
        page.locator('.mboard[data-board="3"] .row.done .tile').first.click()
        page.wait_for_selector("#results[data-state=ready]")
        page.wait_for_selector("body[data-steps=on]")
        assert page.locator("#step-list li").count() == 0 and boards_spoilers_hidden(page)
    finally:
        context.close()
