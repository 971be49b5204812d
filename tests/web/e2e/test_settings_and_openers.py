"""Issue 12, items 6, 9 and 10: the settings dialog (theme, high contrast, hard mode) kept across
reloads and applied before the first paint, forced colours and reduced motion, how to play, the
openers page's tabs by keyboard with the proven openers, and /docs with no other host reachable."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

ROWS = "crane00120-tousy10200"
TREES = Path(__file__).resolve().parents[3] / "src" / "raten" / "data" / "trees"
SIZES = {"desktop": {"width": 1200, "height": 820}, "phone": {"width": 360, "height": 740}}

# Records <html>'s look at the moment <body> is inserted, i.e. before anything of the page is painted.
_FIRST_PAINT = """
window.__lookAtBody = null;
new MutationObserver((changes, observer) => {
  if (document.body) {
    const root = document.documentElement;
    window.__lookAtBody = [root.dataset.theme || "", root.dataset.contrast || ""];
    observer.disconnect();
  }
}).observe(document, { childList: true, subtree: true });
"""


def rgb(text: str) -> tuple[int, int, int]:
    """'rgb(1, 2, 3)' as numbers."""
    r, g, b, *_ = (int(float(x)) for x in text[text.index("(") + 1 : -1].replace("/", ",").split(","))
    return r, g, b


def luminance(colour: tuple[int, int, int]) -> float:
    """WCAG relative luminance."""

    def channel(c: int) -> float:
        s = c / 255
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def tile_colours(page, row: int = 0) -> list[tuple[tuple[int, int, int], tuple[int, int, int], str]]:
    """(background, text colour, class) of each tile of a revealed row."""
    got = page.evaluate(
        f"""Array.from(document.querySelectorAll('.row.done')[{row}].children).map((t) =>
             [getComputedStyle(t).backgroundColor, getComputedStyle(t).color, t.className])"""
    )
    return [(rgb(bg), rgb(fg), cls) for bg, fg, cls in got]


def run_axe(page, axe_source: str, within: str = "document") -> list[str]:
    page.evaluate(axe_source + "\n;0")  # CSP refuses add_script_tag's inline script
    return page.evaluate(
        f"""async () => (await axe.run({within}, {{ resultTypes: ["violations"] }})).violations
             .filter((v) => v.impact === "serious" || v.impact === "critical")
             .map((v) => v.id + ": " + v.nodes.map((n) => n.target.join(" ")).join(", "))"""
    )


def practice(page, live, lang: str = "en") -> None:
    page.goto(f"{live.url}/play?list=en&mode=practice&lang={lang}")
    page.wait_for_selector("body[data-game=playing]")


def open_settings(page) -> None:
    page.click("#open-settings")
    page.wait_for_selector("#settings[open]")


# --- the settings dialog -----------------------------------------------------------------------------


def test_dark_and_high_contrast_persist_and_apply_before_the_first_paint(page, live, monkeypatch):
    from raten.play import game

    monkeypatch.setattr(game, "random_word", lambda _words: "pleat")
    practice(page, live)
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(255, 255, 255)"
    open_settings(page)
    page.check("#theme-dark")
    page.check("#set-contrast")
    page.keyboard.press("Escape")
    assert not page.evaluate("document.getElementById('settings').open")
    assert page.evaluate("[localStorage['raten.theme'], localStorage['raten.contrast']]") == ["dark", "high"]

    page.add_init_script(_FIRST_PAINT)
    page.reload()
    page.wait_for_selector("body[data-game=playing]")
    assert page.evaluate("window.__lookAtBody") == ["dark", "high"]  # set in <head>, before the body
    assert page.evaluate("document.documentElement.dataset.contrast") == "high"  # the share text reads this
    background = rgb(page.evaluate("getComputedStyle(document.body).backgroundColor"))
    assert luminance(background) < 0.02  # dark
    page.keyboard.type("plane")  # PLEAT: P, L green; A yellow; N grey; E yellow
    page.keyboard.press("Enter")
    page.wait_for_selector(".row.done")
    tiles = tile_colours(page)
    green = [bg for bg, _, cls in tiles if "c2" in cls]
    yellow = [bg for bg, _, cls in tiles if "c1" in cls]
    assert len(green) == 2 and len(yellow) == 2
    r, g, b = green[0]
    assert r > g > b and r - b > 120  # orange, not green
    r, g, b = yellow[0]
    assert b > g > r and b - r > 80  # blue, not yellow
    for bg, fg, cls in tiles:
        if "c1" in cls or "c2" in cls:
            assert contrast(bg, fg) >= 4.5, (cls, bg, fg)  # the letter stays readable on the bright tiles

    # back to the system's light theme and the usual colours, kept too
    open_settings(page)
    page.check("#theme-system")
    page.uncheck("#set-contrast")
    page.click("#settings [data-close]")
    page.reload()
    page.wait_for_selector(".row.done")
    assert page.evaluate(
        "[localStorage['raten.theme'] ?? null, document.documentElement.dataset.contrast ?? null]"
    ) == [
        None,
        None,
    ]
    r, g, b = next(bg for bg, _, cls in tile_colours(page) if "c2" in cls)
    assert g > r and g > b  # green again


def test_the_light_choice_beats_a_dark_system(browser, live):
    context = browser.new_context(viewport=SIZES["desktop"], color_scheme="dark")
    page = context.new_page()
    try:
        page.goto(f"{live.url}/openers")
        assert luminance(rgb(page.evaluate("getComputedStyle(document.body).backgroundColor"))) < 0.02
        open_settings(page)
        page.check("#theme-light")
        assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(255, 255, 255)"
        page.reload()
        assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(255, 255, 255)"
    finally:
        context.close()


def test_the_dialog_keeps_focus_and_the_keys_and_gives_them_back(page, live):
    practice(page, live)
    page.focus("#open-settings")
    page.keyboard.press("Enter")  # a focused button's own action: the dialog opens
    page.wait_for_selector("#settings[open]")
    assert page.evaluate("document.getElementById('settings').contains(document.activeElement)")
    for _ in range(10):  # Tab stays in the modal dialog (or passes the browser's own controls: body)
        page.keyboard.press("Tab")
        inside = "document.getElementById('settings').contains(document.activeElement)"
        assert page.evaluate(f"{inside} || document.activeElement === document.body")
    page.keyboard.type("ab")  # the game does not type behind the dialog
    assert page.locator("#input-row").inner_text().strip() == ""
    page.keyboard.press("Escape")
    assert page.evaluate("document.activeElement.id") == "open-settings"  # back where it was

    # opened with the mouse: after closing, Enter types the word instead of opening the dialog again
    page.click("#open-settings")
    page.wait_for_selector("#settings[open]")
    page.click("#settings [data-close]")
    page.keyboard.type("crane")
    page.keyboard.press("Enter")
    page.wait_for_selector(".row.done")
    assert not page.evaluate("document.getElementById('settings').open")


def test_hard_mode_from_the_settings_and_what_the_star_means(page, live):
    practice(page, live)
    open_settings(page)
    page.check("#set-hard")
    assert page.is_checked("#hard")
    page.wait_for_selector("#game-title abbr")
    page.keyboard.press("Escape")
    assert page.locator("#game-title abbr").inner_text() == "*"
    assert page.locator("#game-title abbr").get_attribute("title") == "Hard mode: every hint found must be used"
    page.keyboard.type("crane")
    page.keyboard.press("Enter")
    page.wait_for_selector(".row.done")
    open_settings(page)
    assert page.is_checked("#set-hard")
    page.click("#set-hard")  # a game's mode is fixed once it has a row: refused, and said so
    assert page.is_checked("#set-hard") and page.is_checked("#hard")
    assert "first guess" in page.locator("#set-hard-note").inner_text()


@pytest.mark.parametrize("lang", ["en", "de"])
def test_how_to_play_in_both_languages(page, live, lang):
    practice(page, live, lang)
    page.click("#open-help")
    page.wait_for_selector("#help[open]")
    text = page.locator("#help").inner_text()
    if lang == "de":
        assert "sechs Versuchen" in text and "Schwerer Modus, gezeigt als *" in text
    else:
        assert "six tries" in text and "Hard mode, shown as *" in text
    examples = page.locator("#help .example")
    assert examples.count() == 3
    classes = [examples.nth(i).locator(".tile").evaluate_all("ts => ts.map(t => t.className)") for i in range(3)]
    assert ["c2" in c for c in classes[0]].count(True) == 1 and "c1" in classes[1][1] and "c0" in classes[2][2]
    page.keyboard.press("Escape")
    assert not page.evaluate("document.getElementById('help').open")


# --- forced colours and reduced motion ---------------------------------------------------------------


def test_forced_colours_mark_each_state(browser, live):
    context = browser.new_context(viewport=SIZES["phone"], forced_colors="active")
    page = context.new_page()
    try:
        page.goto(f"{live.url}/solver?list=en&rows={ROWS}")
        page.wait_for_selector("#results[data-state=ready]")
        marks = page.evaluate(
            """Array.from(document.querySelectorAll('.row.done')[0].children)
                 .map((t) => getComputedStyle(t, '::after').content)"""
        )
        # CRANE 00120: grey, grey, yellow, green, grey; the keys N green, A yellow, C grey
        assert [("?" in m, "!" in m) for m in marks] == [(False, False)] * 2 + [(True, False), (False, True)] + [
            (False, False)
        ]
        keys = page.evaluate(
            """['n', 'a', 'c'].map((k) => getComputedStyle(
                 document.querySelector('#keyboard [data-key=' + k + ']'), '::after').content)"""
        )
        assert "!" in keys[0] and "?" in keys[1] and "?" not in keys[2] and "!" not in keys[2]
    finally:
        context.close()


def test_reduced_motion_stops_every_animation(browser, live, monkeypatch, close_stats):
    from raten.play import game

    monkeypatch.setattr(game, "random_word", lambda _words: "crane")
    for motion, moving in (("no-preference", True), ("reduce", False)):
        context = browser.new_context(viewport=SIZES["desktop"], reduced_motion=motion)
        page = context.new_page()
        try:
            practice(page, live)
            page.keyboard.type("slat")
            popped = page.evaluate("getComputedStyle(document.querySelector('#input-row .tile.pop')).animationName")
            page.keyboard.type("e")
            page.keyboard.press("Enter")
            page.wait_for_selector(".row.done.reveal")
            flipped = page.evaluate("getComputedStyle(document.querySelector('.row.done .tile')).animationName")
            page.keyboard.type("crane")
            page.keyboard.press("Enter")
            page.wait_for_selector(".row.done.reveal-win")
            won = page.evaluate("getComputedStyle(document.querySelector('.row.reveal-win .tile')).animationName")
            close_stats(page)  # opened by itself once the win's rows have turned
            open_settings(page)
            dialog = page.evaluate("getComputedStyle(document.getElementById('settings')).animationName")
            names = [popped, flipped, won, dialog]
            if moving:
                assert names == ["pop", "flip", "flip, bounce", "rise"]
            else:
                assert names == ["none"] * 4
        finally:
            context.close()


# --- the openers page --------------------------------------------------------------------------------


def first_proven(name: str, mode: str) -> tuple[str, float, int]:
    """The best exact row of a committed table, read here: (opener, total, worst)."""
    with open(TREES / f"{name}-{mode}-openers.tsv", newline="", encoding="utf-8") as f:
        rows = [r for r in csv.DictReader(f, delimiter="\t") if r["status"] == "exact"]
    best = min(rows, key=lambda r: (int(r["total"]), int(r["worst"]), r["opener"]))
    return best["opener"], int(best["total"]), int(best["worst"])


def test_the_openers_tabs_by_keyboard_with_the_proven_openers(page, live):
    page.goto(f"{live.url}/openers?lang=de")
    tabs = page.locator("#opener-tabs [role=tab]")
    names = [tabs.nth(i).inner_text() for i in range(tabs.count())]
    assert names == ["en", "de"]
    assert page.get_attribute("#tab-en", "aria-selected") == "true"
    assert page.is_visible("#openers-en") and not page.is_visible("#openers-de")
    page.focus("#tab-en")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.id") == "tab-de"
    assert (
        page.get_attribute("#tab-de", "aria-selected") == "true" and page.get_attribute("#tab-en", "tabindex") == "-1"
    )
    assert page.is_visible("#openers-de") and not page.is_visible("#openers-en")
    assert "list=de" in page.url and "list=de" in page.get_attribute("#lang-en", "href")
    assert "häufige Wörter" in page.locator("#openers-de .sizes").inner_text()  # the description in German

    n = {"de": 1050, "en": 2315}  # the lists' answers, as the page itself says (openers_sizes)
    assert f"{n['de']} mögliche Lösungen" in page.locator("#openers-de .sizes").inner_text()
    for mode in ("normal", "hard"):
        opener, total, worst = first_proven("de", mode)
        cells = page.locator(f"#proven-de-{mode} tbody tr").first.locator("td").all_inner_texts()
        # a German page writes a decimal comma (issue 27 item 9)
        assert cells == ["1", opener.upper(), f"{total / n['de']:.3f}".replace(".", ","), str(worst)]
    page.keyboard.press("End")
    assert page.evaluate("document.activeElement.id") == "tab-de"
    page.keyboard.press("Home")
    assert page.evaluate("document.activeElement.id") == "tab-en" and page.is_visible("#openers-en")
    opener, total, worst = first_proven("en", "normal")
    cells = page.locator("#proven-en-normal tbody tr").first.locator("td").all_inner_texts()
    assert cells == ["1", opener.upper(), f"{total / n['en']:.3f}".replace(".", ","), str(worst)]
    if not (TREES / "en-hard-openers.tsv").exists():
        assert page.locator("#proven-en-hard").inner_text() == "Für diese Liste noch nicht berechnet."
    # a proven hard-mode opener leads to the solver in hard mode with that word typed
    page.keyboard.press("ArrowLeft")
    href = page.locator("#proven-de-hard tbody a").first.get_attribute("href")
    assert "hard=1" in href and f"next={first_proven('de', 'hard')[0]}" in href


@pytest.mark.parametrize("width", [320, 360, 375, 390])
def test_no_openers_tab_scrolls_sideways(browser, live, width):
    context = browser.new_context(viewport={"width": width, "height": 700})
    page = context.new_page()
    try:
        for lang in ("en", "de"):
            page.goto(f"{live.url}/openers?lang={lang}")
            for tab in page.locator("#opener-tabs [role=tab]").all():
                tab.click()
                assert page.evaluate("document.documentElement.scrollWidth") <= width
    finally:
        context.close()


# --- /docs offline -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("path", "ready"), [("/docs", ".opblock"), ("/redoc", ".menu-content")])
def test_the_api_docs_render_with_every_other_host_blocked(browser, live, path, ready):
    context = browser.new_context(viewport=SIZES["desktop"])
    elsewhere: list[str] = []

    def only_here(route):
        if route.request.url.startswith(live.url):
            route.continue_()
        else:
            elsewhere.append(route.request.url)
            route.abort()

    context.route("**/*", only_here)
    page = context.new_page()
    try:
        page.goto(live.url + path)
        page.wait_for_selector(ready, timeout=30_000)
        if path == "/docs":
            assert page.locator(".opblock").count() >= 5 and page.get_by_text("/api/hints", exact=True).count() >= 1
        assert elsewhere == []
    finally:
        context.close()


# --- axe-core on the dialogs -------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES, ids=str)
@pytest.mark.parametrize("lang", ["en", "de"])
def test_axe_on_the_dialogs(browser, live, axe_source, lang, size):
    context = browser.new_context(viewport=SIZES[size], reduced_motion="reduce")
    page = context.new_page()
    try:
        practice(page, live, lang)
        for opener, dialog in (("#open-settings", "#settings"), ("#open-help", "#help")):
            page.click(opener)
            page.wait_for_selector(f"{dialog}[open]")
            assert run_axe(page, axe_source) == []
            page.keyboard.press("Escape")
    finally:
        context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_on_a_high_contrast_game(browser, live, axe_source, monkeypatch, scheme):
    from raten.play import game

    monkeypatch.setattr(game, "random_word", lambda _words: "pleat")
    context = browser.new_context(viewport=SIZES["phone"], color_scheme=scheme)
    page = context.new_page()
    try:
        practice(page, live)
        open_settings(page)
        page.check("#set-contrast")
        page.keyboard.press("Escape")
        page.keyboard.type("plane")
        page.keyboard.press("Enter")
        page.wait_for_selector(".row.done")
        assert run_axe(page, axe_source) == []
        page.goto(f"{live.url}/openers")
        assert run_axe(page, axe_source) == []
    finally:
        context.close()


# --- screenshots -------------------------------------------------------------------------------------


def test_screenshots_of_high_contrast_and_the_settings(browser, live, screenshot, monkeypatch):
    from raten.play import game

    monkeypatch.setattr(game, "random_word", lambda _words: "pleat")  # steady screenshots
    context = browser.new_context(viewport=SIZES["desktop"])
    page = context.new_page()
    try:
        practice(page, live)
        page.evaluate("localStorage.setItem('raten.contrast', 'high')")
        page.reload()
        page.wait_for_selector("body[data-game=playing]")
        for word in ("crane", "plate"):
            page.keyboard.type(word)
            page.keyboard.press("Enter")
            page.wait_for_selector(f".row.done >> nth={0 if word == 'crane' else 1}")
        screenshot(page, "high-contrast-play")
        page.set_viewport_size({"width": 390, "height": 780})
        page.evaluate("localStorage.setItem('raten.theme', 'dark')")
        page.reload()
        page.wait_for_selector(".row.done >> nth=1")
        open_settings(page)
        screenshot(page, "settings-phone-dark")
    finally:
        context.close()


# --- the focus ring after typing, and the static files' caching as the browser sees it -------------------


def test_typing_after_tapping_a_key_draws_no_focus_ring_on_it(page, live):
    practice(page, live)
    page.click("#keyboard .key[data-key=c]")  # a tap keeps focus on the key (to press it again)
    assert page.evaluate("document.activeElement.dataset.key") == "c"
    page.keyboard.type("rane")  # then the physical keyboard: the ring would appear on the tapped key
    assert page.evaluate("document.querySelectorAll('#keyboard .key:focus-visible').length") == 0
    assert page.locator("#input-row").inner_text().replace("\n", "").lower() == "crane"
    page.keyboard.press("Enter")
    page.wait_for_selector(".row.done")


def test_the_browser_gets_hashed_files_as_immutable(page, live):
    answers = {}
    page.on("response", lambda r: answers.setdefault(r.url.removeprefix(live.url), r.headers.get("cache-control")))
    practice(page, live)
    static = {url: cache for url, cache in answers.items() if url.startswith("/static/")}
    assert any("raten.css?v=" in u for u in static) and any("theme.js?v=" in u for u in static)
    for url, cache in static.items():
        assert cache == ("public, max-age=31536000, immutable" if "?v=" in url else "no-cache"), url


def test_hard_mode_from_the_settings_on_the_solver(page, live):
    page.goto(f"{live.url}/solver?list=en&rows={ROWS}")
    page.wait_for_selector("#results[data-state=ready]")
    open_settings(page)
    page.check("#set-hard")
    page.keyboard.press("Escape")
    page.wait_for_selector("#results[data-state=ready]")
    assert page.is_checked("#hard") and "hard=1" in page.url
