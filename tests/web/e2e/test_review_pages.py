"""Issue 13 item 4: the exact review on the pages. The panel after a game on /play and the solver's
"Review this game" show the figures of ``POST /api/review`` (the library's review) for the same
game, in English and German, normal and hard mode, won and lost; on phones and the desktop,
keyboard-reachable, and axe-clean in light and dark."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from raten.engine.feedback import format_pattern, pattern
from raten.play.game import daily_number
from raten.web import i18n

SMALL_PHONE = {"width": 320, "height": 640}
PHONE = {"width": 375, "height": 740}
DESKTOP = {"width": 1200, "height": 820}

#: The text a cell shows to the eye: its content without the words for screen readers only, and
#: without the guarantee's verdict that stands under the guess on a phone (checked on its own).
_VISIBLE = """(cell) => {
  const copy = cell.cloneNode(true);
  copy.querySelectorAll(".sr-only, .safety-under").forEach((n) => n.remove());
  return copy.textContent.replace(/\\s+/g, " ").trim();
}"""


@pytest.fixture(autouse=True)
def steady_reviews(monkeypatch):
    """A search budget no game here reaches, so the page's review and the reference are the same
    exact figures whatever the machine's load (bounds are tested through the openers tables)."""
    from raten.web.routes import review as api

    monkeypatch.setattr(api, "REVIEW_SECONDS", 120.0)


def digits(code: int) -> str:
    """A pattern code as the solver's URL writes it: five digits 0/1/2, first letter first."""
    return "".join(str(code // 3**k % 3) for k in range(4, -1, -1))


def solver_rows(words: list[str], answer: str) -> str:
    return "-".join(w + digits(pattern(w, answer)) for w in words)


@contextmanager
def opened(browser, size: dict, scheme: str = "light") -> Iterator:
    """A page in a fresh browser context (a new player) of ``size``; no JavaScript errors allowed."""
    context = browser.new_context(viewport=size, color_scheme=scheme)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        yield page
    finally:
        context.close()
    assert not errors, errors


def player_of(page) -> str:
    return next(c["value"] for c in page.context.cookies() if c["name"] == "raten_player")


def type_word(page, word: str) -> None:
    page.keyboard.type(word)
    page.keyboard.press("Enter")


def type_rows(page, guesses: list[str]) -> None:
    """Type each guess and wait for its row to show its colours."""
    for i, word in enumerate(guesses):
        type_word(page, word)
        page.wait_for_selector(f".row.done >> nth={i}")


def play_practice(page, live, monkeypatch, list_name: str, answer: str, guesses: list[str], **opts) -> None:
    """A practice game against ``answer`` (``lang``, ``hard`` in opts) typed to its end and reviewed."""
    from raten.play import game

    monkeypatch.setattr(game, "random_word", lambda _words: answer)
    page.goto(f"{live.url}/play?list={list_name}&mode=practice&lang={opts.get('lang', 'en')}")
    page.wait_for_selector("body[data-game=playing]")
    if opts.get("hard"):
        page.check("#hard")
        page.wait_for_selector("#game-title:has-text('*')")
    type_rows(page, guesses)
    page.wait_for_selector("#after[data-review=ready]")


def number(x: float, lang: str, places: int = 2) -> str:
    """``places`` decimals as the page's language writes them."""
    text = f"{x:.{places}f}"
    return text.replace(".", ",") if lang == "de" else text


def lost(x: float, lang: str) -> str:
    """Guesses lost: two decimals, three when two would round a loss to 0."""
    return "0" if x == 0 else number(x, lang, 3 if abs(x) < 0.005 else 2)


def expected_row(move: dict, lang: str) -> list[str]:
    """What a row of the panel must show for one move of the library's review."""
    t = lambda key, **p: i18n.t(lang, key, **p)  # noqa: E731
    dash = "\u2013"
    regret, kind = move["regret"], move["regret_kind"]
    if regret is None or kind == "unknown":
        shown = "?"
    else:
        sign = {"at least": "\u2265", "at most": "\u2264"}.get(kind, "")
        shown = sign + lost(regret, lang)
    left = str(move["after"])
    if move["best_after"] is not None:
        left += " " + t("review_best_left", n=move["best_after"])
    if move["best"] is None:
        best = dash
    else:
        best = move["best"].upper()
        if regret == 0 and kind == "exact":
            best += " " + t("review_yours_best" if move["best"] == move["guess"] else "review_as_good")
    return [
        move["guess"].upper(),
        dash if move["skill"] is None else str(move["skill"]),
        dash if move["luck"] is None else str(move["luck"]),
        shown,
        left,
        best,
    ]


def panel_rows(page) -> list[list[str]]:
    rows = page.locator("#review tbody tr")
    return [[rows.nth(i).locator("th, td").nth(k).evaluate(_VISIBLE) for k in range(6)] for i in range(rows.count())]


def fact(page, key: str) -> str:
    return page.locator(f"#review-panel [data-fact={key}] dd").evaluate(_VISIBLE)


def library_review(page, live, lang: str, **body) -> dict:
    """The reference: ``POST /api/review`` for the same game, in the page's language."""
    r = page.request.post(f"{live.url}/api/review", data=body, headers={"Accept-Language": lang})
    assert r.ok, r.text()
    return r.json()


#: The sign the panel puts before a bounded figure of the whole game, by the API's kind.
SIGNS = {"exact": "", "at least": "\u2265", "at most": "\u2264"}


def bounded(value, kind: str, shown) -> str:
    """A figure of the whole game as the panel shows it: signed when a bound, a dash when unknown."""
    return "\u2013" if value is None or kind == "unknown" else SIGNS[kind] + shown(value)


def assert_panel_shows(page, review: dict, lang: str) -> None:
    """Every row and figure of the panel is the library's."""
    assert panel_rows(page) == [expected_row(m, lang) for m in review["moves"]]
    dash = "\u2013"
    assert fact(page, "skill") == bounded(review["skill"], review["skill_kind"], str)
    assert fact(page, "luck") == (dash if review["luck"] is None else str(review["luck"]))
    guesses = str(review["guesses"])
    if not review["solved"]:
        guesses = i18n.t(lang, "review_not_solved", n=review["guesses"])
    assert fact(page, "guesses") == guesses
    expected = ("" if review["expected_exact"] else "\u2265") + number(review["expected"], lang)
    assert fact(page, "expected") == expected
    assert fact(page, "lost") == bounded(review["total_regret"], review["total_kind"], lambda x: lost(x, lang))
    solver = page.locator("#solver-game .mini-row")
    assert [solver.nth(i).inner_text().strip() for i in range(solver.count())] == [
        r["guess"].upper() for r in review["solver"]
    ]
    notes = page.locator("#review-panel [data-part=notes] li").all_inner_texts()
    for note in review["notes"]:
        assert note[0].upper() + note[1:] in notes
    assert (i18n.t(lang, "review_hard") in notes) == review["hard"]


def no_sideways_scroll(page) -> None:
    width = page.evaluate("document.documentElement.clientWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    box = page.locator("#review").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5


def axe_violations(page, axe_source: str) -> list[str]:
    page.evaluate(axe_source + "\n;0")
    return page.evaluate(
        """async () => (await axe.run(document.getElementById("review-panel"), { resultTypes: ["violations"] }))
             .violations.map((v) => v.id + ": " + v.nodes.map((n) => n.target.join(" ")).join(", "))"""
    )


# --- /play: the panel after the game ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "size", "first"),
    [("en", DESKTOP, ("crane", "pious", "dumpy")), ("de", SMALL_PHONE, ("tarne", "kilos", "lampe"))],
)
def test_the_daily_game_panel_shows_the_librarys_review(browser, live, day, screenshot, lang, size, first, close_stats):
    with opened(browser, size) as page:
        page.goto(f"{live.url}/play?list={lang}&lang={lang}")
        page.wait_for_selector("body[data-game=playing]")
        answer = live.app.state.store.daily_game(player_of(page), lang, daily_number(day)).answer
        assert answer not in page.content().lower()
        guesses = [*[w for w in first if w != answer][:2], answer]
        type_rows(page, guesses)
        page.wait_for_selector("body[data-game=won]")
        page.wait_for_selector("#after[data-review=ready]")
        review = library_review(page, live, lang, list=lang, guesses=guesses, answer=answer)
        assert review["solved"] and [m["pattern"] for m in review["moves"]] == [
            format_pattern(pattern(g, answer)) for g in guesses
        ]
        assert_panel_shows(page, review, lang)
        assert page.locator("#review-heading").inner_text() == i18n.t(lang, "review_heading")
        # the squares say their colours in words
        first_squares = page.locator("#review tbody tr").first.locator(".squares")
        assert first_squares.get_attribute("role") == "img"
        names = [
            i18n.t(lang, ("state_absent", "state_present", "state_correct")[int(c)])
            for c in digits(pattern(guesses[0], answer))
        ]
        assert first_squares.get_attribute("aria-label") == ", ".join(names)
        no_sideways_scroll(page)
        if lang == "de":
            close_stats(page)  # opened by itself at the game's end: the shot shows the review behind it
            page.locator("#review-heading").scroll_into_view_if_needed()
            page.evaluate("document.getElementById('review-heading').scrollIntoView()")
            screenshot(page, "review-phone-de")
        # reloading the finished game shows the same review again
        page.reload()
        page.wait_for_selector("#after[data-review=ready]")
        assert panel_rows(page) == [expected_row(m, lang) for m in review["moves"]]


def test_a_hard_mode_practice_game_is_reviewed_in_hard_mode(page, live, monkeypatch):
    guesses = ["tarne", "kappe", "lampe"]  # hard mode: A and E in place after TARNE
    play_practice(page, live, monkeypatch, "de", "lampe", guesses, lang="de", hard=True)
    review = library_review(page, live, "de", list="de", guesses=guesses, answer="lampe", hard=True)
    assert review["hard"]
    assert_panel_shows(page, review, "de")


def test_a_lost_game_is_reviewed_with_its_answer(page, live, monkeypatch):
    guesses = ["crane", "pious", "dumpy", "light", "wreck", "stomp"]
    play_practice(page, live, monkeypatch, "en", "knoll", guesses)
    assert page.locator("body").get_attribute("data-game") == "lost"
    review = library_review(page, live, "en", list="en", guesses=guesses, answer="knoll")
    assert not review["solved"]
    assert_panel_shows(page, review, "en")
    assert fact(page, "guesses") == "6, not solved"
    assert "Not solved in 6 guesses: the answer was KNOLL" in page.locator("#review-panel").inner_text()


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_german_answer_is_shown_as_german_writes_it(page, live, monkeypatch, close_stats, tmp_path, lang):
    """BÖSE, not BOESE, in the result and the review's note; the tiles and the review's table keep
    the words as they are typed."""
    guesses = ["tarne", "kilos", "zweck", "bluff", "regen", "masse"]
    play_practice(page, live, monkeypatch, "de", "boese", guesses, lang=lang)
    close_stats(page)
    result = page.locator("#result").inner_text()
    assert "BÖSE" in result and "BOESE" not in result
    note = {"en": "the answer was BÖSE", "de": "die Lösung war BÖSE"}[lang]
    assert note in page.locator("#review-panel").inner_text()
    for scheme in ("light", "dark"):  # for a person to look at (pytest --basetemp says where)
        page.emulate_media(color_scheme=scheme)
        for width in (320, 1280):
            page.set_viewport_size({"width": width, "height": 800})
            page.screenshot(path=tmp_path / f"boese-{lang}-{scheme}-{width}.png", full_page=True)


def test_a_game_on_several_boards_has_no_panel(page, live):
    page.goto(f"{live.url}/play?list=en&boards=2")
    page.wait_for_selector("body[data-game=playing]")
    assert page.locator("#review-panel").count() == 0


# --- /solver: "Review this game" -----------------------------------------------------------------------


def click_to(page, row: int, colours: str) -> None:
    """Click the tiles of a solver row (0-based) until they show ``colours`` (digits 0/1/2)."""
    for i, want in enumerate(colours):
        tile = page.locator(".row.done").nth(row).locator(".tile").nth(i)
        now = int(re.search(r"\bc(\d)\b", tile.get_attribute("class")).group(1))
        for _ in range((int(want) - now) % 3):
            page.locator(".row.done").nth(row).locator(".tile").nth(i).click()
    page.wait_for_selector("#results[data-state=ready], #results[data-state=error]")


@pytest.mark.parametrize(
    ("lang", "hard", "size", "words", "answer"),
    [
        ("en", False, PHONE, ["crane", "pious", "music"], "music"),
        ("de", True, DESKTOP, ["kilos", "tafel", "lampe"], "lampe"),
    ],
)
def test_the_solver_reviews_a_typed_all_green_game(browser, live, screenshot, lang, hard, size, words, answer):
    with opened(browser, size) as page:
        # the review's figures below are of the solutions, equally likely (de's own prior is the mixture)
        page.goto(f"{live.url}/solver?list={lang}&lang={lang}&prior=uniform" + ("&hard=1" if hard else ""))
        page.wait_for_selector("#results[data-state=ready]")
        assert page.is_checked("#hard") == hard
        for r, word in enumerate(words):
            type_word(page, word)
            page.wait_for_selector(f".row.done >> nth={r}")
            assert page.locator("#review-game").is_hidden()  # a new row starts grey: not solved yet
            click_to(page, r, digits(pattern(word, answer)))
        page.wait_for_selector("#results[data-state=ready]")
        button = page.locator("#review-game")
        assert button.is_visible() and button.inner_text() == i18n.t(lang, "review_action")
        # reachable by keyboard: focus it as Tab does, press Enter
        button.focus()
        page.keyboard.press("Enter")
        page.wait_for_selector("#review-panel[data-review=ready]")
        assert page.evaluate("document.activeElement.id") == "review-heading"
        patterns = [format_pattern(pattern(w, answer)) for w in words]
        review = library_review(
            page, live, lang, list=lang, guesses=words, patterns=patterns, hard=hard, prior="uniform"
        )
        assert review["answer"] == answer and review["hard"] == hard
        assert_panel_shows(page, review, lang)
        if words[0] == "kilos":  # not a top opener: its table holds a lower bound, said as such
            first = review["moves"][0]
            assert first["regret_kind"] == "at least" and first["skill"] is None
            assert review["skill"] is not None and len(review["notes"]) == 1
            # the game's total is then at least its sum, and its skill at most its figure: both signed
            assert (review["total_kind"], review["skill_kind"]) == ("at least", "at most")
            assert fact(page, "lost").startswith("\u2265") and fact(page, "skill") == "\u2264" + str(review["skill"])
            cells = page.locator("#review tbody tr").first.locator("td")
            assert cells.nth(0).text_content() == "\u2013" + i18n.t(lang, "review_not_exact") + " "
            assert cells.nth(2).text_content().startswith("\u2265" + i18n.t(lang, "review_at_least") + " ")
        no_sideways_scroll(page)
        if not hard:
            page.evaluate("document.activeElement.blur(); document.getElementById('review-heading').scrollIntoView()")
            screenshot(page, "review-solver-phone")
        # a changed game hides its review and the action until the last row is all green again
        page.locator(".row.done").last.locator(".tile").first.click()
        page.wait_for_selector("#results[data-state=ready], #results[data-state=error]")
        assert page.locator("#review-panel").is_hidden() and button.is_hidden()


@pytest.mark.parametrize(
    ("lang", "words", "answer", "total_kind", "skill_kind"),
    [
        # QAJAQ's regret unknown on a budget of one cell: the total is at least SALET's 0, skill at most 99
        ("en", ["salet", "qajaq", "pinch"], "pinch", "at least", "at most"),
        # KILOS's regret an upper bound: the total at most its sum, skill at least its figure
        ("de", ["tarne", "kilos", "lampe"], "lampe", "at most", "at least"),
    ],
)
def test_a_bounded_total_and_skill_are_signed(browser, live, monkeypatch, lang, words, answer, total_kind, skill_kind):
    """Issue 27 item 1: a game whose regrets are bounds shows its total and skill as bounds, the
    opposite ways ("≥ 0" lost, skill "≤ 99"), on the page and in the screen readers' announcement."""
    from raten.web.routes import review as api

    monkeypatch.setattr(api, "REVIEW_CELLS", 1)
    with opened(browser, PHONE) as page:
        page.goto(f"{live.url}/solver?list={lang}&lang={lang}&prior=uniform&rows={solver_rows(words, answer)}")
        page.wait_for_selector("#results[data-state=ready]")
        page.click("#review-game")
        page.wait_for_selector("#review-panel[data-review=ready]")
        patterns = [format_pattern(pattern(w, answer)) for w in words]
        review = library_review(page, live, lang, list=lang, guesses=words, patterns=patterns, prior="uniform")
        assert (review["total_kind"], review["skill_kind"]) == (total_kind, skill_kind)
        assert not review["total_exact"] and not review["skill_exact"]
        assert_panel_shows(page, review, lang)
        t = lambda key: i18n.t(lang, key)  # noqa: E731
        total, skill = lost(review["total_regret"], lang), str(review["skill"])
        assert fact(page, "lost") == SIGNS[total_kind] + total
        assert fact(page, "skill") == SIGNS[skill_kind] + skill
        # the signs are said in words to screen readers
        words_of = {"at least": t("review_at_least"), "at most": t("review_at_most")}
        said = page.locator("#review-panel [data-fact=skill] dd").text_content()
        assert said == SIGNS[skill_kind] + words_of[skill_kind] + " " + skill
        said = page.locator("#review-panel [data-fact=lost] dd").text_content()
        assert said == SIGNS[total_kind] + words_of[total_kind] + " " + total
        ready = i18n.t(lang, "review_ready", skill=words_of[skill_kind] + " " + skill, luck=review["luck"])
        page.wait_for_function("(text) => document.getElementById('announcer').textContent === text", arg=ready)


def test_a_review_the_server_refuses_is_said_in_the_panel(page, live):
    # CRANE then a word without its green R: hard mode refuses the game, with the rule it breaks
    # (colours that can have happened: a game that cannot is refused for its contradiction first)
    rows = "crane02000-pious01001-brisk22222"
    page.goto(f"{live.url}/solver?list=en&hard=1&rows={rows}")
    page.wait_for_selector("#results[data-state=ready], #results[data-state=error]")
    page.click("#review-game")
    page.wait_for_selector("#review-panel[data-review=error]")
    text = page.locator("#review-panel [data-part=error]").inner_text()
    assert "breaks hard mode" in text
    assert page.locator("#review-retry").count() == 0  # trying again would not help
    assert page.locator("#review tbody tr").count() == 0


# --- accessibility: axe on the panel, light and dark, phone and desktop ------------------------------------


@pytest.mark.parametrize("where", ["solver", "play"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", [SMALL_PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_review_panel_passes_axe(browser, live, axe_source, monkeypatch, scheme, size, where):
    with opened(browser, size, scheme) as page:
        if where == "solver":
            page.goto(f"{live.url}/solver?list=en&rows={solver_rows(['crane', 'pious', 'music'], 'music')}")
            page.wait_for_selector("#results[data-state=ready]")
            page.click("#review-game")
            page.wait_for_selector("#review-panel[data-review=ready]")
        else:
            play_practice(page, live, monkeypatch, "en", "music", ["crane", "pious", "music"], lang="de")
        assert axe_violations(page, axe_source) == []


# --- the guarantee: each guess safe or not, the best safe guess (issue 23 item 2) -----------------------

#: Whether an element's visible text stands on one line (the line boxes of its text, the words
#: for screen readers left out, share one top).
_ONE_LINE = """(el) => {
  const tops = new Set();
  const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    if (n.parentElement.closest(".sr-only")) continue;
    const r = document.createRange();
    r.selectNodeContents(n);
    for (const b of r.getClientRects()) tops.add(Math.round(b.top));
  }
  return tops.size <= 1;
}"""

#: An en game whose fourth guess, VIPER, could send 8 likely words past six (the best safe guess: NAVAL).
UNSAFE_GAME = (["soare", "beret", "wider", "viper", "riper"], "riper")


@pytest.mark.parametrize(("lang", "size"), [("en", SMALL_PHONE), ("de", DESKTOP)], ids=["en-phone", "de-desktop"])
def test_the_panel_marks_each_guess_safe_or_names_the_best_safe_one(browser, live, axe_source, screenshot, lang, size):
    words, answer = UNSAFE_GAME
    with opened(browser, size) as page:
        page.goto(f"{live.url}/solver?list=en&lang={lang}&rows={solver_rows(words, answer)}")
        page.wait_for_selector("#results[data-state=ready]")
        page.click("#review-game")
        page.wait_for_selector("#review-panel[data-review=ready]")
        patterns = [format_pattern(pattern(w, answer)) for w in words]
        review = library_review(page, live, lang, list="en", guesses=words, patterns=patterns)
        fourth = review["moves"][3]["safety"]
        assert fourth["status"] == "unsafe" and fourth["best_safe"] and fourth["at_risk"] > 0
        rows = page.locator("#review tbody tr")
        statuses = [rows.nth(i).get_attribute("data-safety") for i in range(len(words))]
        assert statuses == [m["safety"]["status"] for m in review["moves"]]
        t = lambda key, **kw: i18n.t(lang, key, **kw)  # noqa: E731
        # a column on the desktop; on a phone the verdict stands under the guess, the column hidden
        where = "th .safety-under" if size == SMALL_PHONE else "td.safe"
        cell = rows.nth(3).locator(where)
        assert cell.is_visible()
        at_risk = t("review_at_risk", n=fourth["at_risk"], k=7)
        assert cell.evaluate(_VISIBLE) == at_risk + " " + t("review_safe_instead", word=fourth["best"].upper())
        assert rows.nth(0).locator(where).evaluate(_VISIBLE) == t("review_safe")
        assert page.locator("#review-panel [data-part=safe-col]").is_visible() == (size != SMALL_PHONE)
        figures = page.locator("#review-panel [data-part=game] dd")
        split = [figures.nth(i).inner_text() for i in range(figures.count()) if not figures.nth(i).evaluate(_ONE_LINE)]
        assert split == [], f"figures over two lines: {split}"  # "≥0.8" above "3" at 320 px
        no_sideways_scroll(page)
        assert axe_violations(page, axe_source) == []
        page.locator("#review-panel").scroll_into_view_if_needed()
        screenshot(page, f"review-safe-{lang}-{'phone' if size == SMALL_PHONE else 'desktop'}")
