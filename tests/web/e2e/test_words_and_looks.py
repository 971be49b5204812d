"""Issue 27, items 9 and 10 on the pages: German names the letter and the rule where English does,
numbers are written one way per language, and the small things players notice (today's number in
How to play, the statistics dialog's padding, an unknown list said, tiles and squares that can be
seen and read in light and dark)."""

from __future__ import annotations

import re
from contextlib import contextmanager

import pytest

from raten.engine.feedback import pattern
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


# --- item 10: the small things --------------------------------------------------------------------

#: WCAG's contrast of two computed colours ("rgb(r, g, b)").
_CONTRAST = """([a, b]) => {
  const lum = (css) => {
    const [r, g, b] = css.match(/[\\d.]+/g).slice(0, 3).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [x, y] = [lum(a), lum(b)].sort((p, q) => p - q);
  return (y + 0.05) / (x + 0.05);
}"""


def contrast(page, a: str, b: str) -> float:
    return page.evaluate(_CONTRAST, [a, b])


def styled(page, selector: str, prop: str) -> str:
    return page.locator(selector).first.evaluate(f"(e) => getComputedStyle(e).{prop}")


@contextmanager
def looked(browser, size: dict, scheme: str, contrast_high: bool = False):
    """A new player's page with a colour scheme (and the high-contrast palette when asked)."""
    context = browser.new_context(viewport=size, color_scheme=scheme)
    if contrast_high:
        context.add_init_script("localStorage.setItem('raten.contrast', 'high')")
    page = context.new_page()
    try:
        yield page
    finally:
        context.close()


PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}


@pytest.mark.parametrize("high", [False, True], ids=["palette", "high-contrast"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_letters_on_the_tiles_pass_4_5_to_1(browser, live, scheme, high):
    with looked(browser, DESKTOP, scheme, high) as page:
        page.goto(f"{live.url}/play?list=en")
        page.wait_for_selector("body[data-game=playing]")
        backgrounds = {}
        for c in ("c0", "c1", "c2"):
            tile = f"#help .tile.{c}"
            backgrounds[c] = styled(page, tile, "backgroundColor")
            ratio = contrast(page, styled(page, tile, "color"), backgrounds[c])
            assert ratio >= 4.5, (c, ratio)
        assert len(set(backgrounds.values())) == 3
        page.click("#open-help")
        page.wait_for_selector("#help[open]")
        page.screenshot(path=f"{SHOTS}/tiles-{scheme}{'-high' if high else ''}.png")
    # the high-contrast palette stays its own (orange and blue)
    with looked(browser, DESKTOP, scheme, not high) as other:
        other.goto(f"{live.url}/play?list=en")
        other.wait_for_selector("body[data-game=playing]")
        assert styled(other, "#help .tile.c2", "backgroundColor") != backgrounds["c2"]


#: A game with grey squares in every row but the last.
WORDS = ("crane", "pious", "music")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_grey_squares_can_be_seen_in_the_review(browser, live, scheme):
    with looked(browser, PHONE, scheme) as page:
        rows = "-".join(w + "".join(str(pattern(w, "music") // 3**k % 3) for k in range(4, -1, -1)) for w in WORDS)
        page.goto(f"{live.url}/solver?list=en&rows={rows}")
        page.wait_for_selector("#results[data-state=ready]")
        page.click("#review-game")
        page.wait_for_selector("#review-panel[data-review=ready]")
        grey = styled(page, "#review .sq.c0", "backgroundColor")
        edge = styled(page, "#review .sq.c0", "boxShadow")
        page_bg = page.evaluate("getComputedStyle(document.body).backgroundColor")
        seen = contrast(page, grey, page_bg)
        edged = edge != "none" and contrast(page, re.match(r"rgba?\([^)]*\)", edge).group(0), page_bg) >= 3
        assert seen >= 3 or edged, (grey, edge, seen)
        page.evaluate("document.getElementById('review-heading').scrollIntoView()")
        page.screenshot(path=f"{SHOTS}/review-squares-{scheme}.png")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_how_to_play_names_no_fixed_number_and_the_stats_have_padding(browser, live, lang):
    with looked(browser, PHONE, "light") as page:
        page.goto(f"{live.url}/play?list={lang}&lang={lang}")
        page.wait_for_selector("body[data-game=playing]")
        page.click("#open-help")
        page.wait_for_selector("#help[open]")
        assert "700" not in page.locator("#help").inner_text()
        page.keyboard.press("Escape")
        page.wait_for_function("() => !document.getElementById('help').open")
        page.click("#stats-open")
        page.wait_for_selector("#stats-dialog[open]")
        pad = page.locator("#stats-dialog").evaluate(
            "(e) => ['paddingLeft', 'paddingRight', 'paddingBottom'].map((p) => parseFloat(getComputedStyle(e)[p]))"
        )
        assert all(p >= 8 for p in pad), pad
        page.screenshot(path=f"{SHOTS}/stats-{lang}.png")


@pytest.mark.parametrize(("lang", "scheme", "size"), [("en", "light", DESKTOP), ("de", "dark", PHONE)])
def test_an_unknown_list_is_said_on_the_page(browser, live, axe_source, lang, scheme, size):
    with looked(browser, size, scheme) as page:
        for path in ("/solver", "/play"):
            page.goto(f"{live.url}{path}?list=xx&lang={lang}")
            notice = page.locator("#unknown-list")
            assert notice.inner_text() == i18n.t(lang, "unknown_list_notice", name="xx", list="en")
        page.goto(f"{live.url}/solver?list=en&lang={lang}")
        assert page.locator("#unknown-list").count() == 0
        page.goto(f"{live.url}/solver?list=xx&lang={lang}")
        page.wait_for_selector("#results[data-state=ready]")
        page.screenshot(path=f"{SHOTS}/unknown-list-{lang}-{scheme}.png")
        page.evaluate(axe_source + "\n;0")
        violations = page.evaluate(
            "async () => (await axe.run(document, { resultTypes: ['violations'] })).violations.map((v) => v.id)"
        )
        assert violations == []
