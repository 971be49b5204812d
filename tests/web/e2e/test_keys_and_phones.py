"""Issue 12, items 1 and 2: what Enter does where focus is, and every page on a phone's screen."""

from __future__ import annotations

import pytest

ROWS = "crane00120-tousy10200"
PHONES = [
    {"width": 320, "height": 640},
    {"width": 360, "height": 740},
    {"width": 375, "height": 667},
    {"width": 390, "height": 844},
    {"width": 1200, "height": 820},
]


def rows_in_url(page) -> str:
    return page.evaluate("new URLSearchParams(location.search).get('rows') || ''")


def solver(page, live, rows: str = ROWS, extra: str = "") -> None:
    page.goto(f"{live.url}/solver?list=en&rows={rows}{extra}")
    page.wait_for_selector("#results[data-state=ready]")


# --- item 1: Enter ---------------------------------------------------------------------------------


@pytest.mark.parametrize("button", ["#undo", "#copy-link", "#clear"])
def test_enter_after_clicking_a_button_types_the_word(page, live, button):
    solver(page, live)
    page.click(button)
    before = rows_in_url(page)
    page.keyboard.type("slate")
    page.keyboard.press("Enter")
    page.wait_for_selector("#results[data-state=ready], #results[data-state=error]")
    rows = rows_in_url(page)
    assert rows.split("-")[-1].startswith("slate"), rows
    assert rows.count("-") == (before.count("-") + 1 if before else 0)


def test_enter_on_a_button_reached_by_keyboard_presses_it(page, live):
    solver(page, live)
    page.focus("#undo")
    page.keyboard.press("Enter")
    page.wait_for_selector("#results[data-state=ready]")
    assert rows_in_url(page) == "crane00120"
    # a letter typed there moves focus to the board: Enter then types the word, not Undo again
    page.keyboard.type("slate")
    assert page.evaluate("document.activeElement.id") == "board"
    page.keyboard.press("Enter")
    page.wait_for_selector("#results[data-state=ready], #results[data-state=error]")
    assert rows_in_url(page).startswith("crane00120-slate")


def test_enter_follows_a_focused_link(page, live):
    solver(page, live)
    page.focus("#nav-play")
    page.keyboard.press("Enter")
    page.wait_for_url("**/play?**")
    assert rows_in_url(page) == ""


def test_enter_opens_the_candidates(page, live):
    solver(page, live, rows="")  # 2315 candidates: the list starts closed
    assert not page.evaluate("document.getElementById('candidates').open")
    page.focus("#candidates summary")
    page.keyboard.press("Enter")
    assert page.evaluate("document.getElementById('candidates').open")
    assert rows_in_url(page) == ""


def typed(page) -> str:
    return page.locator("#input-row").inner_text().replace("\n", "").lower()


def test_enter_on_a_hint_button_uses_the_hint_and_enter_after_tapping_keys_types(page, live):
    solver(page, live)
    hint = page.locator("#hints tbody tr .word button").first
    word = hint.inner_text().lower()
    hint.focus()
    page.keyboard.press("Enter")  # the hint's own action: it becomes the next guess
    assert typed(page) == word
    assert rows_in_url(page) == ROWS
    for _ in range(5):
        page.click("#keyboard .key[data-key=backspace]")
    for letter in word:
        page.click(f"#keyboard .key[data-key={letter}]")  # tapped keys keep focus...
    assert page.evaluate("document.activeElement.dataset.key") == word[-1]
    page.keyboard.press("Enter")  # ...and Enter on the physical keyboard then types the word
    page.wait_for_selector("#results[data-state=ready], #results[data-state=error]")
    assert rows_in_url(page).startswith(ROWS + "-" + word)


@pytest.mark.parametrize("where", ["solver", "play"])
def test_enter_and_space_on_a_key_reached_by_keyboard_press_that_key(page, live, where):
    if where == "solver":
        solver(page, live)
    else:
        page.goto(f"{live.url}/play?list=en&mode=practice")
        page.wait_for_selector("body[data-game=playing]")
    page.focus("#keyboard .key[data-key=q]")
    page.keyboard.press("Enter")
    assert typed(page) == "q"
    page.keyboard.press(" ")
    assert typed(page) == "qq"
    assert page.evaluate("document.activeElement.dataset.key") == "q"  # focus stays on the key
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.dataset.key") == "w"
    page.keyboard.press("Enter")
    assert typed(page) == "qqw"
    page.focus("#keyboard .key[data-key=backspace]")
    page.keyboard.press("Enter")
    assert typed(page) == "qq" and page.evaluate("document.activeElement.dataset.key") == "backspace"
    assert rows_in_url(page) == (ROWS if where == "solver" else "")
    assert page.locator(".row.done").count() == (2 if where == "solver" else 0)


def test_enter_and_space_on_a_solver_tile_cycle_its_colour_and_keep_focus(page, live):
    solver(page, live, rows="crane00120")
    tile = page.locator('#board .row[data-row="0"] .tile').nth(0)
    tile.focus()
    page.keyboard.press("Enter")  # grey to yellow, as a click does
    page.wait_for_selector("#results[data-state=ready]")
    assert rows_in_url(page) == "crane10120"
    focused = "[document.activeElement.closest('.row').dataset.row, document.activeElement.dataset.col]"
    assert page.evaluate(focused) == ["0", "0"]  # the board was drawn anew: the same tile has focus
    assert "c1" in page.evaluate("document.activeElement.className")
    page.keyboard.press(" ")  # yellow to green
    page.wait_for_selector("#results[data-state=ready]")
    assert rows_in_url(page) == "crane20120"
    assert page.evaluate(focused) == ["0", "0"]
    assert page.locator("#input-row").inner_text().strip() == ""  # no word typed, none submitted


def test_enter_after_clicking_new_game_plays_the_word(page, live):
    page.goto(f"{live.url}/play?list=en")
    page.wait_for_selector("body[data-game=playing]")
    page.click("#new-game")
    page.wait_for_url("**mode=practice**")
    page.wait_for_selector("body[data-game=playing]")
    first_game = page.evaluate("localStorage.getItem('raten-practice-en')")
    page.keyboard.type("crane")
    page.keyboard.press("Enter")
    page.wait_for_selector(".row.done")
    assert page.evaluate("localStorage.getItem('raten-practice-en')") == first_game


# --- item 2: phones ---------------------------------------------------------------------------------


def inside(box: dict, size: dict) -> bool:
    return (
        box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= size["width"] + 0.5
        and box["y"] + box["height"] <= size["height"] + 0.5
    )


def assert_no_sideways_scroll(page, size):
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= size["width"], f"{page.url} is {width} px wide at {size}"


@pytest.mark.parametrize("size", PHONES, ids=lambda s: f"{s['width']}x{s['height']}")
@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_game_and_its_whole_keyboard_fit_the_screen(browser, live, screenshot, monkeypatch, size, lang):
    from raten.play import game

    monkeypatch.setattr(game, "random_word", lambda _words: "lampe" if lang == "de" else "pleat")  # steady screenshots
    context = browser.new_context(viewport=size)
    page = context.new_page()
    try:
        page.goto(f"{live.url}/play?list={lang}&lang={lang}&mode=practice")
        page.wait_for_selector("body[data-game=playing]")
        page.keyboard.type("raten" if lang == "de" else "crane")
        page.keyboard.press("Enter")
        page.wait_for_selector(".row.done")
        page.keyboard.type("sl")
        assert_no_sideways_scroll(page, size)
        keys = page.locator("#keyboard .key")
        assert keys.count() >= 28
        for i in range(keys.count()):
            box = keys.nth(i).bounding_box()
            assert box and inside(box, size), f"key {i} at {box} is outside {size}"
        for tile in page.locator("#board .tile").all():
            assert inside(tile.bounding_box(), size)
        if size["width"] == 360:
            screenshot(page, f"play-phone-typing-{lang}")
    finally:
        context.close()


@pytest.mark.parametrize("size", PHONES, ids=lambda s: f"{s['width']}x{s['height']}")
@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_solver_shows_count_and_best_guess_by_the_input(browser, live, screenshot, size, lang):
    context = browser.new_context(viewport=size)
    page = context.new_page()
    try:
        page.goto(f"{live.url}/solver?list=en&lang={lang}&rows={ROWS}")
        page.wait_for_selector("#results[data-state=ready]")
        assert_no_sideways_scroll(page, size)
        count = page.locator("#count").get_attribute("data-count")
        best = page.locator("#hints tbody tr .word button").first.inner_text()
        summary = page.locator("#summary")
        assert count in summary.inner_text() and best in summary.inner_text()
        if size["width"] == 375 and lang == "de":
            screenshot(page, "solver-phone-de")
        for selector in (
            "#summary",
            "#input-row",
            "#keyboard .key[data-key=enter]",
            "#keyboard .key[data-key=backspace]",
        ):
            box = page.locator(selector).bounding_box()
            assert box and inside(box, size), f"{selector} at {box} is outside {size}"
        # after a new row the summary (not the hints below the fold) says what changed
        page.keyboard.type(best.lower())
        page.keyboard.press("Enter")
        page.wait_for_selector("#results[data-state=ready], #results[data-state=error]")
        assert page.locator("#summary").inner_text()
        assert inside(page.locator("#summary").bounding_box(), size)
    finally:
        context.close()


@pytest.mark.parametrize("size", PHONES, ids=lambda s: f"{s['width']}x{s['height']}")
@pytest.mark.parametrize("path", ["/openers", "/openers?lang=de", "/solver?list=de", "/play?list=en&mode=practice"])
def test_no_page_scrolls_sideways(browser, live, size, path):
    context = browser.new_context(viewport=size)
    page = context.new_page()
    try:
        page.goto(live.url + path)
        page.wait_for_load_state("networkidle")
        assert_no_sideways_scroll(page, size)
    finally:
        context.close()
