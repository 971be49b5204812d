"""Many boards in the browser (issue 14 item 3) and the statistics dialog (issue 12 item 5):
the 4-board solver set by clicking tiles, a Quordle game played to its end at desktop and phone
sizes in both languages with axe-core, and the dialog's numbers, focus and share fallback.

The Quordle answers are read from the server's store (the daily game the page started), so the
test knows them while the page never does before the end.
"""

from __future__ import annotations

import re

import pytest

from raten.engine.boards import Boards, variant
from raten.engine.feedback import feedback_colours, format_pattern, pattern
from raten.play.game import daily_number

DESKTOP = {"width": 1280, "height": 800}
PHONES = [{"width": 375, "height": 667}, {"width": 320, "height": 640}]
SIZES = [DESKTOP, *PHONES]
KEYCAPS = {str(d): f"{d}\ufe0f\u20e3" for d in range(10)}

_SERIOUS = """async () => (await axe.run(document, { resultTypes: ["violations"] })).violations
  .filter((v) => v.impact === "serious" || v.impact === "critical")
  .map((v) => v.id + ": " + v.nodes.map((n) => n.target.join(" ")).join(", "))"""


def player_of(page) -> str:
    return next(c["value"] for c in page.context.cookies() if c["name"] == "raten_player")


def body_of(response) -> str | None:
    """A response's text; None for one of a page navigated away from (its body is gone)."""
    from playwright.sync_api import Error

    try:
        return response.text()
    except Error:
        return None


def serious_violations(page, axe_source) -> list[str]:
    page.evaluate(axe_source + "\n;0")  # CSP refuses add_script_tag's inline script
    return page.evaluate(_SERIOUS)


def inside(box: dict, size: dict) -> bool:
    return (
        box["x"] >= -0.5
        and box["y"] >= -0.5
        and box["x"] + box["width"] <= size["width"] + 0.5
        and box["y"] + box["height"] <= size["height"] + 0.5
    )


def assert_fits(page, size, selectors: list[str]) -> None:
    """No sideways scroll, and every element of ``selectors`` inside the viewport."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= size["width"], f"{page.url} is {width} px wide at {size}"
    for selector in selectors:
        items = page.locator(selector).all()
        assert items, selector
        for item in items:
            box = item.bounding_box()
            assert box and inside(box, size), f"{selector} at {box} is outside {size}"


def slow_count(words, moves: list[tuple[str, int]]) -> int:
    """The obvious reference: solutions that show every pattern of one board."""
    return sum(all(pattern(g, s) == c for g, c in moves) for s in words.solutions)


# --- the solver on four boards -------------------------------------------------------------------


def set_colours(page, board: int, row: int, colours: list[int]) -> None:
    """Click each tile of ``board``'s ``row`` until it shows its colour (grey → yellow → green; a
    new row starts green where the board showed that letter green in that place before)."""
    tiles = page.locator(f'.mboard[data-board="{board}"] .row[data-row="{row}"] .tile')
    for i, c in enumerate(colours):
        now = int(re.search(r"\bc(\d)\b", tiles.nth(i).get_attribute("class")).group(1))
        for _ in range((c - now) % 3):
            tiles.nth(i).click()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s['width']}x{s['height']}")
def test_four_board_solver_by_clicking_tiles_shows_hints_for_all_boards(browser, live, en_words, axe_source, size):
    answers = ["pleat", "dumpy", "shirk", "crane"]
    context = browser.new_context(viewport=size)
    page = context.new_page()
    try:
        page.goto(f"{live.url}/solver?list=en")
        page.click("#boards-4")
        page.wait_for_url("**boards=4**")
        page.wait_for_selector("#results[data-state=ready]")
        assert page.locator(".mboard").count() == 4
        assert page.locator("#hints tbody tr").count() == 10  # the openers, for four boards

        # one typed guess, its colours clicked per board; then the solved board's own word
        page.keyboard.type("slate")
        page.keyboard.press("Enter")
        for b, answer in enumerate(answers, start=1):
            set_colours(page, b, 0, list(feedback_colours("slate", answer)))
        page.keyboard.type("crane")
        page.keyboard.press("Enter")
        for b, answer in enumerate(answers, start=1):
            set_colours(page, b, 1, list(feedback_colours("crane", answer)))
        page.wait_for_selector("#results[data-state=ready]")
        expected_rows = "-".join(
            g + "".join("".join(map(str, feedback_colours(g, a))) for a in answers) for g in ("slate", "crane")
        )
        assert re.search(r"[?&]rows=" + expected_rows, page.url)
        assert "boards=4" in page.url

        # board 4 is solved (marked); the others show their counts, computed here the slow way
        assert "solved" in page.locator('.mboard[data-board="4"]').get_attribute("class")
        assert "\u2713" in page.locator("#board-status-4").inner_text()
        for b, answer in enumerate(answers[:3], start=1):
            moves = [(g, pattern(g, answer)) for g in ("slate", "crane")]
            count = slow_count(en_words, moves)
            assert page.locator(f'.mboard[data-board="{b}"]').get_attribute("data-count") == str(count)

        # the hints are the engine's ranking over the three boards still in play
        game = Boards.start(en_words, 4)
        for g in ("slate", "crane"):
            game = game.after(
                g, [format_pattern(pattern(g, a)) if not s.solved else "-" for s, a in zip(game.states, answers)]
            )
        best = [h.word.upper() for h in game.hints(top=10, strategy="finish")]
        rows = page.locator("#hints tbody tr")
        shown = [rows.nth(i).locator("td.word").inner_text() for i in range(rows.count())]
        assert shown == best
        assert page.locator("#summary").inner_text().endswith(best[0])

        # a third row only goes to the boards still in play
        page.keyboard.type("dumpy")
        page.keyboard.press("Enter")
        assert page.locator('.mboard[data-board="4"] .row.done').count() == 2
        assert page.locator('.mboard[data-board="2"] .row.done').count() == 3
        page.wait_for_selector("#results[data-state=ready], #results[data-state=error]")
        if size is not DESKTOP:
            assert_fits(page, size, ["#keyboard .key", "#input-row .tile", ".mboard .tile"])
        assert serious_violations(page, axe_source) == []
    finally:
        context.close()


def test_solver_boards_refuse_a_contradiction_with_a_translated_message(browser, live):
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    try:
        # both rows say board 1 is all grey for SLATE, then SLATE green in place 1: nothing fits
        page.goto(f"{live.url}/solver?list=en&lang=de&boards=2&rows=slate0000000000-slate2000000000")
        page.wait_for_selector("#results[data-state=error]")
        assert "Feld 1" in page.locator("#error").inner_text()
    finally:
        context.close()


def test_solver_boards_rank_under_the_chosen_prior(browser, live):
    """The prior select of the boards solver: its choice goes into the request and the URL, and a
    link with &prior=frequency opens with it chosen."""
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()

    def ranked_under(prior: str):
        return page.expect_response(
            lambda r: r.url.endswith("/api/hints/boards") and r.request.post_data_json["prior"] == prior
        )

    try:
        with ranked_under("mixture") as first:  # de's own prior
            page.goto(f"{live.url}/solver?list=de&lang=de&boards=2&rows=raten0000000000")
        assert first.value.json()["prior"] == "mixture" and page.locator("#prior").input_value() == "mixture"
        with ranked_under("frequency") as chosen:
            page.select_option("#prior", "frequency")
        assert chosen.value.ok and chosen.value.json()["prior"] == "frequency"
        assert "prior=frequency" in page.url
        with ranked_under("frequency") as again:
            page.reload()
        assert again.value.ok and page.locator("#prior").input_value() == "frequency"
        page.wait_for_selector("#results[data-state=ready]")
    finally:
        context.close()


# --- Quordle played to its end ------------------------------------------------------------------------


#: Where a whole Quordle is played: each language on the desktop; on phones, English at 375 px (the
#: docs' screenshot) and German at 320 px, the narrowest phone with the longer words ("noch 8
#: Versuche"); the game itself does not depend on the size. Every size is also fitted by the solver
#: test above and 320 px by the 2- and 8-board test below.
QUORDLES = [("en", DESKTOP), ("de", DESKTOP), ("en", PHONES[0]), ("de", PHONES[1])]


@pytest.mark.parametrize(("lang", "size"), QUORDLES, ids=[f"{lang}-{s['width']}x{s['height']}" for lang, s in QUORDLES])
def test_a_daily_quordle_played_to_the_end(browser, live, day, axe_source, screenshot, close_stats, size, lang):
    context = browser.new_context(viewport=size)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    answered = []  # every API answer the page got
    page.on("response", lambda r: answered.append(r) if "/api/" in r.url else None)
    try:
        page.goto(f"{live.url}/play?list={lang}&lang={lang}")
        answered.clear()  # the Wordle page's answers are gone with it
        page.click("#boards-4")
        page.wait_for_url("**boards=4**")
        page.wait_for_selector("body[data-game=playing]")
        number = daily_number(day)
        record = live.app.state.store.daily_game(player_of(page), lang, number, 4)
        answers = list(record.answers)
        assert len(set(answers)) == 4
        # no API answer names them (the page's own German text may contain one: MEIST in "meisten")
        bodies = [b.lower() for b in map(body_of, answered) if b is not None]
        assert bodies and not any(a in b for a in answers for b in bodies), "an answer reached the page"
        config = page.locator("#raten-config").text_content().lower()
        assert not any(f'"{a}"' in config for a in answers)
        limit = variant(4).limit
        assert page.locator(".mboard").count() == 4
        assert page.locator('.mboard[data-board="1"] .row').count() == limit

        opener = next(
            w for w in (("raten", "lampe", "seite") if lang == "de" else ("crane", "slate")) if w not in answers
        )
        page.keyboard.type(opener)
        page.keyboard.press("Enter")
        page.wait_for_selector('.mboard[data-board="1"] .row.done')
        assert page.locator("#tries").inner_text() == ("noch 8 Versuche" if lang == "de" else "8 tries left")
        if size is not DESKTOP:
            assert_fits(page, size, ["#keyboard .key", ".mboard .tile"])
        assert serious_violations(page, axe_source) == []

        for k, answer in enumerate(answers, start=2):
            page.keyboard.type(answer)
            page.keyboard.press("Enter")
            page.wait_for_selector(f'.mboard[data-board="{k - 1}"].solved')
        page.wait_for_selector("body[data-game=won]")
        close_stats(page)  # opened by itself at the end of the game
        for b, answer in enumerate(answers, start=1):
            last = page.locator(f'.mboard[data-board="{b}"] .row.done').last
            assert last.inner_text().replace("\n", "").lower() == answer
        share = page.locator("#share").text_content()
        variant_head = f"raten Quordle {lang} #{number} 5/9"
        assert share.splitlines()[0] == variant_head
        assert share.splitlines()[2:4] == [f"{KEYCAPS['2']} {KEYCAPS['3']}", f"{KEYCAPS['4']} {KEYCAPS['5']}"]
        assert "\U0001f7e9" * 5 in share
        if size is not DESKTOP:
            assert_fits(page, size, [".mboard .tile"])
        assert serious_violations(page, axe_source) == []
        if lang == "en":
            screenshot(page, "quordle" if size is DESKTOP else "quordle-phone")
        # reloading shows the finished game of today
        page.reload()
        page.wait_for_selector("body[data-game=won]")
        assert errors == []
    finally:
        context.close()


def test_a_practice_dordle_with_known_answers_and_high_contrast_share(browser, live, monkeypatch):
    from raten.play import game as game_module

    monkeypatch.setattr(game_module, "practice_answers", lambda _words, _n: ("pleat", "dumpy"))
    context = browser.new_context(viewport=PHONES[0])
    page = context.new_page()
    try:
        page.goto(f"{live.url}/play?list=en&boards=2&mode=practice")
        page.wait_for_selector("body[data-game=playing]")
        # what the high-contrast setting does (another page's code): the attribute on <html>
        page.evaluate("document.documentElement.dataset.contrast = 'high'")
        assert page.locator('.mboard[data-board="1"] .row').count() == variant(2).limit
        for word in ("dumpy", "pleat"):
            page.keyboard.type(word)
            page.keyboard.press("Enter")
            page.wait_for_selector(f"body[data-game={'won' if word == 'pleat' else 'playing'}] .mboard.solved")
        share = page.locator("#share").text_content()
        assert share.startswith("raten Dordle en practice 2/7")
        assert "\U0001f7e7" * 5 in share and "\U0001f7e9" not in share  # orange for green
        assert page.locator("#answers").inner_text() == "The words were PLEAT, DUMPY."
    finally:
        context.close()


# --- the statistics dialog -----------------------------------------------------------------------------


def test_the_statistics_dialog_opens_from_the_header_and_escape_gives_focus_back(
    browser, live, axe_source, monkeypatch
):
    from raten.play import game as game_module

    monkeypatch.setattr(game_module, "practice_answers", lambda _words, _n: ("pleat", "dumpy", "shirk", "crane"))
    context = browser.new_context(viewport=PHONES[0], locale="de-DE")
    # plain HTTP on a LAN: no share sheet, no clipboard
    context.add_init_script(
        "Object.defineProperty(navigator, 'clipboard', { value: undefined });"
        "Object.defineProperty(navigator, 'share', { value: undefined });"
    )
    page = context.new_page()
    try:
        page.goto(f"{live.url}/play?list=en&boards=4&mode=practice&lang=de")
        page.wait_for_selector("body[data-game=playing]")
        for k, word in enumerate(("slate", "pleat", "dumpy", "shirk", "crane")):
            page.keyboard.type(word)
            page.keyboard.press("Enter")
            page.wait_for_selector(f'.mboard[data-board="4"] .row.done >> nth={k}')
        page.wait_for_selector("body[data-game=won]")
        # the statistics open by themselves once the last tiles have turned: closed first, so the
        # header's button opens them on their own (and their own load cannot clear this one's)
        page.wait_for_selector("#stats-dialog[open][data-state=ready]")
        page.keyboard.press("Escape")
        page.wait_for_selector("#stats-dialog:not([open])", state="attached")

        page.focus("#stats-open")
        page.keyboard.press("Enter")
        page.wait_for_selector("#stats-dialog[open][data-state=ready]")
        assert page.evaluate("document.activeElement.id") == "stats-close"
        assert page.locator("#stats-variant [aria-pressed=true]").inner_text() == "Quordle"
        assert page.locator("#stats-mode [aria-pressed=true]").inner_text() == "\u00dcben"
        assert page.locator("#stats-played").inner_text() == "1"
        assert page.locator("#stats-win").inner_text() == "100"
        assert page.locator("#stats-streak").inner_text() == "1"
        rows = page.locator("#stats-dist li")
        assert rows.count() == variant(4).limit
        assert page.locator("#stats-dist li.today").count() == 1
        assert rows.nth(4).get_attribute("class") == "dist-row today"  # won in 5
        assert re.fullmatch(r"\d\d:\d\d:\d\d", page.locator("#stats-countdown").inner_text())
        assert serious_violations(page, axe_source) == []

        # Share without share sheet or clipboard: the text, shown selected
        page.click("#stats-share")
        fallback = page.locator("#stats-fallback")
        assert fallback.is_visible()
        text = fallback.input_value()
        assert text.startswith("raten Quordle en \u00dcbung 5/9")
        assert page.evaluate(
            "() => { const t = document.getElementById('stats-fallback'); return [t.selectionStart, t.selectionEnd]; }"
        ) == [0, len(text.encode("utf-16-le")) // 2]

        # the daily record of one board is another record: nothing played there
        page.click("#stats-variant [data-value='1']")
        page.click("#stats-mode [data-value='daily']")
        page.wait_for_selector("#stats-dialog[data-state=ready]")
        assert page.locator("#stats-played").inner_text() == "0"

        page.keyboard.press("Escape")
        page.wait_for_selector("#stats-dialog:not([open])", state="attached")
        page.wait_for_function("() => document.activeElement.id === 'stats-open'")
    finally:
        context.close()


def test_the_statistics_dialog_on_the_solver_page(browser, live):
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    try:
        page.goto(f"{live.url}/solver?list=de&lang=de")
        page.click("#stats-open")
        page.wait_for_selector("#stats-dialog[open][data-state=ready]")
        assert page.locator("#stats-title").inner_text() == "Statistik"
        assert page.locator("#stats-played").inner_text() == "0"
        page.keyboard.type("abc")  # the keys are the dialog's: nothing is typed on the board behind it
        page.click("#stats-close")
        # opened by a click: focus is left on the page, so Enter types a word, not reopens it
        page.wait_for_function(
            "() => !document.getElementById('stats-dialog').open && document.activeElement === document.body"
        )
        assert page.locator("#input-row").inner_text().strip() == ""
    finally:
        context.close()


@pytest.mark.parametrize("boards", [2, 8])
def test_two_and_eight_boards_fit_a_small_phone(browser, live, boards):
    size = PHONES[1]
    context = browser.new_context(viewport=size)
    page = context.new_page()
    try:
        rows = "raten" + "01020" * boards
        page.goto(f"{live.url}/solver?list=de&lang=de&boards={boards}&rows={rows}")
        page.wait_for_selector("#results[data-state=ready]")
        assert page.locator(".mboard").count() == boards
        assert page.locator("#hints tbody tr").count() >= 1
        assert_fits(page, size, ["#keyboard .key", ".mboard .tile"])
    finally:
        context.close()
