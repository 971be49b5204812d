"""Issue 27, item 8: the game's Share on one board is the statistics dialog's and the game of
several boards': the share sheet, else the clipboard, else the text shown selected to copy by
hand (static/share.js), said in the page's language."""

from __future__ import annotations

import pytest
from test_many_boards import serious_violations
from test_offline_pages import shoot

#: plain HTTP on a LAN: no share sheet, no clipboard
NO_CLIPBOARD = (
    "Object.defineProperty(navigator, 'clipboard', { value: undefined });"
    "Object.defineProperty(navigator, 'share', { value: undefined });"
)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_share_without_a_clipboard_shows_the_text_selected(
    browser, live, axe_source, monkeypatch, tmp_path, close_stats, lang
):
    from raten.play import game as game_module
    from raten.web import i18n

    monkeypatch.setattr(game_module, "practice_answers", lambda _words, _n=1: ("pleat",))
    context = browser.new_context(viewport={"width": 390, "height": 780})
    context.add_init_script(NO_CLIPBOARD)
    page = context.new_page()
    try:
        page.goto(f"{live.url}/play?list=en&mode=practice&lang={lang}")
        page.wait_for_selector("body[data-game=playing]")
        for k, word in enumerate(("crane", "pleat")):
            page.keyboard.type(word)
            page.keyboard.press("Enter")
            page.wait_for_selector(f".row.done >> nth={k}")
        page.wait_for_selector("body[data-game=won]")
        close_stats(page)  # opened by itself at the end of the game
        fallback = page.locator("#share-fallback")
        assert fallback.is_hidden()
        page.click("#share-button")
        assert fallback.is_visible()
        text = fallback.input_value()
        assert text == page.locator("#share").text_content()
        assert text.startswith("raten en ") and text.strip().endswith("\U0001f7e9" * 5)
        assert page.evaluate("document.activeElement.id") == "share-fallback"
        selected = "[document.activeElement.selectionStart, document.activeElement.selectionEnd]"
        assert page.evaluate(selected) == [0, len(text.encode("utf-16-le")) // 2]
        assert page.locator("#share-status").inner_text() == i18n.t(lang, "stats_fallback")
        assert serious_violations(page, axe_source) == []
        shoot(page, tmp_path / f"share-fallback-{lang}")
        # a new game says nothing of the one before
        page.click("#new-game")
        page.wait_for_selector("body[data-game=playing]")
        assert fallback.is_hidden() and page.locator("#share-status").inner_text() == ""
    finally:
        context.close()
