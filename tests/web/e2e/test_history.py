"""Issue 24 item 6 in the browser: the game page's "Your games" shows every stored game and, once
the server has made it in the background, its exact review; the finished games go to another
browser by a code and by a file, merged by game id. At desktop and phone size, in both languages,
with no serious or critical axe violation."""

from __future__ import annotations

import re

import pytest
from test_many_boards import serious_violations

from conftest import DESKTOP, PHONE
from raten.web import i18n

#: Long enough for an exact review on a loaded machine (it is made on the server's work queue).
REVIEW_WAIT_MS = 180_000


def open_history(page) -> None:
    page.click("#open-history")
    page.wait_for_selector("#history[open][data-state=ready]")


def play_pleat(page, live, lang: str) -> None:
    page.goto(f"{live.url}/play?list=en&mode=practice&lang={lang}")
    page.wait_for_selector("body[data-game=playing]")
    for k, word in enumerate(("crane", "pleat")):
        page.keyboard.type(word)
        with page.expect_request(lambda r: r.url.endswith("/guesses")) as sent:
            page.keyboard.press("Enter")
        assert sent.value.post_data_json == {"guess": word, "row": k}  # a retry is then never played twice
        page.wait_for_selector(f".row.done >> nth={k}")
    page.wait_for_selector("body[data-game=won]")


def import_status(page, lang: str, added: int, present: int) -> None:
    done = i18n.t(lang, "import_done", added=added, present=present, conflicting=0)
    page.wait_for_selector("#import-status[data-state=done]")
    assert page.locator("#import-status").inner_text() == done


@pytest.mark.parametrize("size", ["desktop", "phone"])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_your_games_with_their_review_travel_by_code_and_file(
    browser, live, axe_source, monkeypatch, close_stats, screenshot, tmp_path, lang, size
):
    from raten.play import game as game_module

    monkeypatch.setattr(game_module, "practice_answers", lambda _words, _n=1: ("pleat",))
    viewport = DESKTOP if size == "desktop" else PHONE
    contexts = [browser.new_context(viewport=viewport, accept_downloads=True) for _ in range(3)]
    first, second, third = (c.new_page() for c in contexts)
    errors: list[str] = []
    for p in (first, second, third):
        p.on("pageerror", lambda e: errors.append(str(e)))
    try:
        play_pleat(first, live, lang)
        close_stats(first)
        open_history(first)
        games = first.locator(".history-game")
        assert games.count() == 1 and first.locator(".history-result").inner_text() == "2/6"
        assert serious_violations(first, axe_source) == []
        games.first.click()
        first.wait_for_selector("#history-detail:not([hidden]) #history-board .row >> nth=1")
        first.wait_for_selector("#history-review-panel[data-review=ready]", timeout=REVIEW_WAIT_MS)
        assert first.locator("#history-review tbody tr").count() == 2
        assert "PLEAT" in first.locator("#history-answer").inner_text()
        assert serious_violations(first, axe_source) == []
        if (size, lang) in (("desktop", "en"), ("phone", "de")):
            screenshot(first, f"history-{size}-{lang}")
        first.click("#history-back")
        first.wait_for_selector("#history-games:not([hidden])")

        first.click("#export-code")
        first.wait_for_selector("#export-code-value")
        code = first.locator("#export-code-value").inner_text()
        assert re.fullmatch(r"[0-9A-Z]{4}-[0-9A-Z]{4}", code)
        with first.expect_download() as download:
            first.click("#export-file")
        saved = tmp_path / "games.json"
        download.value.save_as(saved)

        second.goto(f"{live.url}/play?list=en&mode=practice&lang={lang}")  # another browser: a game in play
        second.wait_for_selector("body[data-game=playing]")
        open_history(second)
        assert second.locator(".history-game").count() == 0 and second.locator("#history-empty").is_visible()
        second.fill("#import-code", code.lower())
        second.click("#import-code-button")
        import_status(second, lang, 1, 0)
        second.wait_for_selector(".history-game")
        assert second.locator(".history-result").inner_text() == "2/6"
        second.click("#import-code-button")  # the same code again: merged by game id, nothing twice
        import_status(second, lang, 0, 1)
        assert serious_violations(second, axe_source) == []
        if (size, lang) in (("desktop", "en"), ("phone", "de")):
            second.locator("#import-status").scroll_into_view_if_needed()
            screenshot(second, f"history-import-{size}-{lang}")

        third.goto(f"{live.url}/play?list=en&mode=practice&lang={lang}")  # a third browser, from the file
        third.wait_for_selector("body[data-game=playing]")
        open_history(third)
        third.set_input_files("#import-file", str(saved))
        import_status(third, lang, 1, 0)
        third.wait_for_selector(".history-game")
        third.keyboard.press("Escape")
        third.wait_for_selector("#history:not([open])", state="attached")
        third.click("#stats-open")
        third.click("#stats-mode button[data-value=practice]")
        third.wait_for_selector("#stats-dialog[data-state=ready]")
        assert third.locator("#stats-played").inner_text() == "1"  # the statistics came with the game
    finally:
        for c in contexts:
            c.close()
    assert not errors, f"JavaScript errors: {errors}"
