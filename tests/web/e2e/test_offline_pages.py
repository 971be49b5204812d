"""Issue 27, items 5 and 6: offline, a link is answered with the page it names or with a page that
says why not. The solver of the list a link names, kept on this device, in the link's language;
for a list not kept, or several boards, or the game and the openers (which need the server), the
offline page the service worker keeps: in the page's language, the URL as asked (its list and
rows), with links to the solver of each list kept here."""

from __future__ import annotations

import pytest
from test_device import Server
from test_many_boards import serious_violations
from waits import wait_until

from raten.web import i18n

#: Every URL the service worker keeps (any version).
KEPT = """async () => {
  const urls = [];
  for (const name of await caches.keys()) for (const r of await (await caches.open(name)).keys()) urls.push(r.url);
  return urls;
}"""
#: Whether the service worker has kept every URL given, the offline page's script among them.
ALL_KEPT = f"""async (wanted) => {{
  const kept = new Set(await ({KEPT})());
  return wanted.every((u) => kept.has(u)) && [...kept].some((u) => u.includes("/static/device/offline.js?v="));
}}"""


def offline_context(browser, scheme: str = "light", size: dict | None = None):
    context = browser.new_context(viewport=size or {"width": 1280, "height": 800}, locale="en-US", color_scheme=scheme)
    context.set_default_timeout(20_000)
    return context


def keep_then_stop(page, server: Server, path: str) -> None:
    """Open ``path`` while the server is up, wait until the service worker has kept the solver page
    in every language, its word list and the offline page with its script, then stop the server."""
    page.goto(server.url + path)
    page.wait_for_selector("#results[data-state=ready]")
    config = page.evaluate("JSON.parse(document.getElementById('raten-config').textContent)")
    wanted = {server.url + config["device"]["words"], server.url + "/offline"}
    wanted |= {f"{server.url}/solver?list={config['list']}" + (f"&lang={c}" if c else "") for c in ("", "en", "de")}
    # the service worker keeps them in the background
    assert wait_until(page, ALL_KEPT, sorted(wanted)), f"not kept: {wanted - set(page.evaluate(KEPT))}"
    server.stop()


def shown_offline(page, url: str, why: str, lang: str) -> None:
    """``url`` answered with the offline page, in ``lang``, saying ``why`` (a text key and its fields)."""
    page.goto(url)
    page.wait_for_selector("body.page-offline[data-state=ready]")
    assert page.url == url  # the link's list and rows stay in the URL
    assert page.evaluate("document.documentElement.lang") == lang
    assert page.locator("#offline-title").inner_text() == i18n.t(lang, "offline_title")
    assert page.locator("#offline-why").inner_text() == why


def shoot(page, stem, schemes=("light", "dark")) -> None:
    """Screenshots at a phone's width and a desktop's, in each colour scheme, for a person to look at
    (``pytest --basetemp`` says where)."""
    for scheme in schemes:
        page.emulate_media(color_scheme=scheme)
        for width, height in ((360, 740), (1280, 800)):
            page.set_viewport_size({"width": width, "height": height})
            page.screenshot(path=f"{stem}-{scheme}-{width}.png")


@pytest.fixture
def server(live, tmp_path):
    s = Server(live.app.state.lists, tmp_path)
    yield s
    if s.thread.is_alive():
        s.stop()


def test_offline_a_link_gets_its_own_list_or_says_it_is_not_kept(browser, server, axe_source, tmp_path):
    context = offline_context(browser)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        keep_then_stop(page, server, "/solver?list=de&lang=de")

        # a list not kept here: said in the link's language (en's), the link's URL kept
        url = f"{server.url}/solver?list=en&rows=crane00120"
        shown_offline(page, url, i18n.t("en", "offline_list", list="en"), "en")
        assert page.locator("#offline-links a").all_inner_texts() == [i18n.t("en", "offline_solver_list", list="de")]
        assert serious_violations(page, axe_source) == []
        shoot(page, tmp_path / "offline-list")
        shown_offline(page, url + "&lang=de", i18n.t("de", "offline_list", list="en"), "de")

        # four boards need the server: said so, the rows kept
        rows = "crane" + "00120" * 4
        url = f"{server.url}/solver?list=de&boards=4&rows={rows}"
        shown_offline(page, url, i18n.t("de", "offline_boards"), "de")
        assert serious_violations(page, axe_source) == []

        # the list kept is served as the link names it, in the link's language, and ranks its rows
        for lang, query in [("de", ""), ("en", "&lang=en")]:
            page.goto(f"{server.url}/solver?list=de{query}&rows=tarne00100")
            page.wait_for_selector("#results[data-state=ready]")
            assert page.evaluate("document.documentElement.lang") == lang
            assert "list=de" in page.url and "rows=tarne00100" in page.url
            assert page.locator("#device-badge").is_visible()
            assert page.locator("#count").get_attribute("data-count") == str(len(de_candidates("tarne", "..?..")))
        # the offline page's link opens the solver kept
        shown_offline(page, f"{server.url}/solver?list=en", i18n.t("en", "offline_list", list="en"), "en")
        page.click("#offline-links a")
        page.wait_for_selector("#results[data-state=ready]")
        assert page.evaluate("JSON.parse(document.getElementById('raten-config').textContent).list") == "de"
        assert not errors, errors
    finally:
        context.close()


def de_candidates(guess: str, pattern: str) -> list[str]:
    from raten.engine.state import State
    from raten.wordlists.presets import load_words

    return list(State(load_words("de")).after(guess, pattern).candidates)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_offline_the_game_and_the_openers_say_they_need_the_server(browser, server, axe_source, tmp_path, scheme):
    context = offline_context(browser, scheme)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        keep_then_stop(page, server, "/solver?list=en")
        shown_offline(page, f"{server.url}/play?list=en&mode=practice", i18n.t("en", "offline_play"), "en")
        assert page.locator("#offline-solver").inner_text() == i18n.t("en", "offline_solver")
        assert serious_violations(page, axe_source) == []
        shoot(page, tmp_path / "offline-play", schemes=(scheme,))
        # the language switch: the same page in German, still offline
        page.click("#lang-de")
        page.wait_for_selector("html[lang=de] body[data-state=ready]")
        assert page.url == f"{server.url}/play?list=en&mode=practice&lang=de"
        assert page.locator("#offline-why").inner_text() == i18n.t("de", "offline_play")
        assert serious_violations(page, axe_source) == []
        page.screenshot(path=tmp_path / f"offline-play-de-{scheme}.png")
        shown_offline(page, f"{server.url}/play?list=de&boards=4", i18n.t("de", "offline_play"), "de")
        shown_offline(page, f"{server.url}/openers", i18n.t("en", "offline_page"), "en")
        # and the solver, which works offline, one click away
        page.click("#offline-links a")
        page.wait_for_selector("#results[data-state=ready]")
        assert page.locator("#device-badge").is_visible()
        assert page.url == f"{server.url}/solver?list=en"
        assert not errors, errors
    finally:
        context.close()
