"""Browser tests: one real server (uvicorn in a thread, loopback, free port) and one headless
Debian chromium per session, driven by Playwright. Skipped only when chromium is absent."""

from __future__ import annotations

import subprocess
import tarfile
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import pytest
from serving import Served
from waits import wait_until

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: The daily game's date in the browser tests, so screenshots do not change from day to day.
DAY = date(2025, 6, 1)
SCREENSHOTS = Path(__file__).resolve().parents[3] / "docs" / "screenshots"
#: axe-core from the npm registry, for the accessibility checks only (never committed):
#: `make axe` or the first browser test run fetches it into .cache/axe-core.
AXE_VERSION = "4.14.1"
AXE = Path(__file__).resolve().parents[3] / ".cache" / "axe-core" / AXE_VERSION / "axe.min.js"
DESKTOP = {"width": 1200, "height": 820}
PHONE = {"width": 390, "height": 780}


def pytest_collection_modifyitems(items):
    """Every test in tests/e2e is marked ``e2e`` (``make check`` deselects them)."""
    here = Path(__file__).parent
    for item in items:
        if item.path.is_relative_to(here):
            item.add_marker(pytest.mark.e2e)


@dataclass
class Live:
    """The running server: its address and the app (the tests read answers from its store)."""

    url: str
    app: object


@pytest.fixture(scope="session")
def chromium_path() -> Path:
    if not CHROMIUM.exists():
        pytest.skip(f"Debian's chromium is not installed at {CHROMIUM} (`make browser` installs it)")
    return CHROMIUM


@pytest.fixture(scope="session")
def live(en_words, tmp_path_factory, chromium_path) -> Live:  # noqa: ARG001 - chromium_path skips the server without a browser
    from raten.web import create_app
    from raten.web.limits import Policy
    from raten.web.service import Lists
    from raten.wordlists.presets import load_words

    lists = Lists.load({"en": en_words, "de": load_words("de")})
    db = tmp_path_factory.mktemp("e2e") / "raten.sqlite3"
    # Every browser context is a new player from 127.0.0.1, and the whole suite opens about a
    # hundred: the per-address limits would refuse them (their own tests use their own apps).
    roomy = Policy(address="10000/second", work="10000/second", new_player="10000/second", transfer="10000/second")
    app = create_app(lists=lists, db_path=db, daily_secret="e2e", today=lambda: DAY, policy=roomy)
    served = Served(app)
    yield Live(served.url, app)
    served.stop()


#: Run before a page's scripts in every context a test opens: a returning player, who has seen How
#: to play (it opens by itself on a first visit: ``new_context(first_visit=True)`` for that).
SEEN_HELP = "try { localStorage.setItem('raten.help-seen', '1'); } catch (e) { /* an opaque origin */ }"


class ReturningPlayers:
    """The browser, whose ``new_context`` opens a returning player's context unless
    ``first_visit=True``; anything else is the browser's own."""

    def __init__(self, browser) -> None:
        self._browser = browser

    def new_context(self, *args, first_visit: bool = False, **kwargs):
        context = self._browser.new_context(*args, **kwargs)
        if not first_visit:
            context.add_init_script(SEEN_HELP)
        return context

    def __getattr__(self, name: str):
        return getattr(self._browser, name)


@pytest.fixture(scope="session")
def browser(chromium_path):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(chromium_path), args=CHROMIUM_ARGS)
        yield ReturningPlayers(b)
        b.close()


@pytest.fixture(scope="session")
def close_stats():
    """``close_stats(page)``: the statistics dialog, opened by itself at the end of a game (or on a
    page that opens on a finished game), is there with its numbers; Escape closes it, so the test
    goes on with the page behind."""

    def close(page) -> None:
        page.wait_for_selector("#stats-dialog[open][data-state=ready]")
        page.keyboard.press("Escape")
        page.wait_for_selector("#stats-dialog:not([open])", state="attached")

    return close


@pytest.fixture
def page(browser, live):  # noqa: ARG001 - live: the server runs before any page opens
    """A fresh browser context (new player, empty storage) with a desktop-sized page."""
    context = browser.new_context(viewport=DESKTOP, locale="en-US")
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


@pytest.fixture(scope="session")
def solver_hints() -> str:
    """A function for ``page.evaluate(solver_hints, body)``: the solver page's own way to its hints,
    ``solverHints(body)`` exported by static/device/client.js (the server, or the device), called on
    the page's instance of that module (its URL, with its hash, is in the page's modulepreload links)."""
    return """(body) => import(document.querySelector('link[rel=modulepreload][href*="/device/client.js"]').href)
      .then((client) => client.solverHints(body))"""


@pytest.fixture(scope="session")
def day() -> date:
    return DAY


@pytest.fixture(scope="session")
def phone() -> dict:
    return PHONE


@pytest.fixture(scope="session")
def screenshot():
    """``screenshot(page, name, size=None)`` writes ``docs/screenshots/<name>.png`` at ``size``
    (the page's own size if None), with the toast hidden and animations stopped."""

    def take(page, name: str, size: dict | None = None) -> None:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        if size:
            page.set_viewport_size(size)
        page.evaluate("document.getElementById('toast').classList.remove('show')")
        page.mouse.move(0, 0)  # no hover state left over from the test's last click
        settled(page)
        png = page.screenshot(animations="disabled", caret="hide")
        path = SCREENSHOTS / f"{name}.png"
        if not (path.exists() and same_picture(path.read_bytes(), png)):
            path.write_bytes(png)

    return take


#: True once two frames have been drawn (the style changes above are then applied and their
#: transitions begun) and no CSS transition is running (the screenshot's animations="disabled"
#: stops animations; a transition begun after that call could be caught half way).
_SETTLED = """async () => {
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  return document.getAnimations().every((a) => !(a instanceof CSSTransition) || a.playState !== "running");
}"""


def settled(page) -> None:
    """Wait for the page's last style changes to be drawn and its transitions to end: a
    condition, never a fixed time (``wait_for_function`` would take the check's promise for a yes)."""
    assert wait_until(page, _SETTLED), "the page's transitions did not end"


def same_picture(old: bytes, new: bytes) -> bool:
    """True when two PNGs differ at most by anti-aliasing noise: a few levels on a few edge pixels.

    Chromium paints rounded corners a level or two differently from run to run (measured: 18
    pixels of a 1200x820 solver page, by at most 4 of 255, at button and key corners; the same
    page state shot twice in one run is identical). Keeping the committed file then stops the
    screenshots from changing in every commit without anything visible having changed."""
    from io import BytesIO

    try:
        from PIL import Image, ImageChops  # Pillow comes with matplotlib (the plot extra)
    except ImportError:
        return False

    a, b = (Image.open(BytesIO(x)).convert("RGB") for x in (old, new))
    if a.size != b.size:
        return False
    diff = ImageChops.difference(a, b).convert("L")
    histogram = diff.histogram()
    changed = sum(histogram[1:])
    return sum(histogram[9:]) == 0 and changed <= a.size[0] * a.size[1] // 1000


@pytest.fixture(scope="session")
def axe_source() -> str:
    """The text of axe.min.js, fetched with ``npm pack`` the first time. The pages' CSP refuses
    ``page.add_script_tag`` (an inline script), so the tests run it through ``page.evaluate``
    (devtools, which CSP does not govern)."""
    if not AXE.exists():
        AXE.parent.mkdir(parents=True, exist_ok=True)
        out = subprocess.run(
            ["npm", "pack", f"axe-core@{AXE_VERSION}", "--silent", "--pack-destination", str(AXE.parent)],
            check=True,
            capture_output=True,
            text=True,
            timeout=300,
        )
        tgz = AXE.parent / out.stdout.strip().splitlines()[-1]
        with tarfile.open(tgz) as tar:
            member = tar.extractfile("package/axe.min.js")
            assert member is not None
            AXE.write_bytes(member.read())
        tgz.unlink()
    return AXE.read_text()
