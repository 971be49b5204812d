"""Issue 27, items 9 and 10 on the pages: German names the letter and the rule where English does,
numbers are written one way per language, and the small things players notice (today's number in
How to play, the statistics dialog's padding, an unknown list said, tiles and squares that can be
seen and read in light and dark)."""

from __future__ import annotations

import re

import pytest

from raten.web import i18n

#: Where the shots of these tests go to be looked at (not docs/screenshots: they are not the docs').
SHOTS = "/tmp/panel27"


def solver(page, live, lang: str, rows: str, *, hard: bool = False, device: bool = False) -> None:
    """The solver with ``rows``, on the server or the device (chosen before the page loads, as a
    player's kept choice), waited for its answer."""
    page.goto(f"{live.url}/raten-no-such-page")
    page.evaluate("(on) => on ? localStorage.setItem('raten.onDevice', '1') : localStorage.clear()", device)
    page.goto(f"{live.url}/solver?list={lang}&lang={lang}" + ("&hard=1" if hard else "") + f"&rows={rows}")
    page.wait_for_selector("#results[data-state=ready], #results[data-state=error]")
    assert page.is_checked("#on-device") == device


# --- item 9: German says what English says -----------------------------------------------------------


@pytest.mark.parametrize("device", [False, True], ids=["server", "device"])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_contradiction_names_its_letters_and_position(page, live, lang, device):
    # C green in the first place, then S green in the same place
    solver(page, live, lang, "crane20000-slate20000", device=device)
    page.wait_for_selector("#results[data-state=error]")
    text = page.locator("#error").inner_text()
    if lang == "de":
        assert "Position 1 kann nicht zugleich C und S sein" in text, text
        assert "1 (CRANE) / 2 (SLATE)" in text
    else:
        assert "position 1 cannot be both C and S" in text, text
    # the device words it as the server does (in English its own sentence, without the rows at the end)
    assert text.endswith("check the colours you entered") == (device and lang == "en")


@pytest.mark.parametrize("device", [False, True], ids=["server", "device"])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_hard_mode_warning_gives_its_reason(page, live, lang, device):
    # R (A) green in second place, then a word without it
    rows = "crane02000-pious00000" if lang == "en" else "tarne02000-kilos00000"
    solver(page, live, lang, rows, hard=True, device=device)
    page.wait_for_selector("#results[data-state=ready]")
    warnings = page.locator("#warnings li").all_inner_texts()
    word, letter = ("PIOUS", "R") if lang == "en" else ("KILOS", "A")
    want = i18n.t(lang, "w_breaks_hard_green", word=word, position=2, letter=letter)
    assert want in warnings, warnings


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_page_writes_its_numbers_one_way(page, live, lang):
    """A decimal comma in German, a point in English: the solver's hints (one board and four), the
    openers' tables and the review alike (the review: test_review_pages)."""
    point, other = (",", ".") if lang == "de" else (".", ",")
    decimal = re.compile(r"^\d+" + re.escape(point) + r"\d+$")

    def numbers(selector: str) -> list[str]:
        texts = [x.strip() for x in page.locator(selector).all_inner_texts()]
        return [x for x in texts if any(c.isdigit() for c in x)]

    solver(page, live, lang, "crane00120" if lang == "en" else "tarne00120")
    page.wait_for_selector("#results[data-state=ready]")
    cells = numbers("#hints tbody td.num")
    assert cells and all(decimal.match(x) or x.isdigit() for x in cells), cells
    assert any(point in x for x in cells) and not any(other in x for x in cells), cells
    page.goto(f"{live.url}/solver?list={lang}&lang={lang}&boards=4")
    page.wait_for_selector("#hints tbody tr")
    cells = numbers("#hints tbody td.num")
    assert any(point in x for x in cells) and not any(other in x for x in cells), cells
    page.goto(f"{live.url}/openers?lang={lang}")
    cells = numbers("#openers-en td.num")
    assert cells and not any(other in x for x in cells), cells
    assert any(point in x for x in cells)
    intro = page.locator("#letters-en .note").first.inner_text()
    assert re.search(r"\d" + re.escape(point) + r"\d", intro), intro
