"""The HTML pages (solver, game, openers, 404, the offline page) and the favicon: each page is a
template and one configuration the page's scripts read (the list, the language, the texts, the
boards offered)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse
from fastapi.templating import Jinja2Templates

from raten._version import __version__
from raten.engine.boards import variant
from raten.engine.words import UNIFORM, WordSet
from raten.play.game import GAME_BOARDS
from raten.web import i18n
from raten.web.assets import Assets
from raten.web.device import device_config
from raten.web.service import ListEntry, Lists
from raten.web.transfer import CODE_HOURS
from raten.wordlists.presets import BUILT_PRESETS
from raten.wordlists.prior import FREQUENCY, MIXTURE, apply_prior, frequency_fits
from raten.wordlists.stats import letter_stats

KEYBOARDS = {
    "en": ["qwertyuiop", "asdfghjkl", "+zxcvbnm-"],
    "de": ["qwertzuiop", "asdfghjkl", "+yxcvbnm-"],
    "fr": ["azertyuiop", "qsdfghjklm", "+wxcvbn-"],
}
#: The row a letter kept beyond a-z goes to, at its end, as on the language's keyboard (German
#: Ü after P, Ö and Ä after L; Spanish Ñ after L); any other at the end of the last row.
EXTRA_KEY_ROWS = {"ü": 0, "ö": 1, "ä": 1, "ñ": 1}  # in the order they follow each other
#: Letters a player may type that a list writes otherwise (ä as ae, é as e ...): what the page
#: folds by the list's alphabet, as the server does.
TYPED = "äöüßàâáãåçéèêëíìîïñóòôõúùûýÿæœ"


def describe_list(lang: str, entry: ListEntry) -> str:
    """A served list's description in ``lang``: its own text, or for a list `raten words build
    --lang` made, its language, length and letters; else the library's English."""
    if entry.name in BUILT_PRESETS:
        words = entry.words
        kept = "".join(f", {c.upper()}" for c in words.alphabet.extra)
        name = i18n.language_name(lang, words.language)
        return i18n.t(lang, "list_desc_built", language=name, length=words.length, kept=kept)
    return i18n.list_description(lang, entry.name, entry.description)


def keyboard(words: WordSet) -> list[str]:
    """The on-screen keyboard of a list: its language's layout (English's by default; + is Enter,
    - Backspace) with the letters it keeps beyond a-z."""
    rows = list(KEYBOARDS.get(words.language, KEYBOARDS["en"]))
    order = list(EXTRA_KEY_ROWS)  # as the keys stand: Ö before Ä on a German keyboard
    for letter in sorted(words.alphabet.extra, key=lambda c: order.index(c) if c in order else len(order)):
        i = EXTRA_KEY_ROWS.get(letter, len(rows) - 1)
        rows[i] = rows[i][:-1] + letter + "-" if rows[i].endswith("-") else rows[i] + letter
    return rows


def typed_letters(words: WordSet) -> dict[str, str]:
    """What each letter a player may type becomes in the list (ä: ae, or ä where the list keeps it)."""
    kept = words.alphabet.letters
    return {c: n for c in TYPED if (n := words.alphabet.normalise(c)) != c or c in kept}


#: Board counts the solver page offers (the game page offers ``raten.play.game.GAME_BOARDS``).
SOLVER_BOARDS = (1, 2, 4, 8)
#: The texts of the offline page besides its own (``offline_*``).
OFFLINE_TEXTS = ("lang_label", "retry")


def _board_count(request: Request, page: str) -> int:
    """The page's ``?boards=``: one of the counts the page offers, else 1."""
    offered = SOLVER_BOARDS if page == "solver" else GAME_BOARDS if page == "play" else (1,)
    raw = request.query_params.get("boards", "1")
    return int(raw) if raw.isdigit() and int(raw) in offered else 1


class Pages:
    """The pages of one app: ``router`` serves them, ``not_found`` is the HTML 404 the app's
    error handler answers a browser with."""

    def __init__(self, lists: Lists, templates: Path, static: Assets) -> None:
        self.lists = lists
        self.templates = Jinja2Templates(directory=templates)
        self.static = static
        self._proven: dict[str, dict[str, list]] = {}
        self._letters = {
            name: letter_stats(e.words.list_solutions, e.words.alphabet) for name, e in lists.entries.items()
        }
        self.router = APIRouter(include_in_schema=False)
        self.router.add_api_route("/", self.solver, methods=["GET", "HEAD"])
        self.router.add_api_route("/solver", self.solver, methods=["GET", "HEAD"])
        self.router.add_api_route("/play", self.play, methods=["GET", "HEAD"])
        self.router.add_api_route("/openers", self.openers, methods=["GET", "HEAD"])
        self.router.add_api_route("/offline", self.offline, methods=["GET", "HEAD"])
        self.router.add_api_route("/favicon.ico", self.favicon, methods=["GET"])

    @staticmethod
    def list_groups(lists: Lists, lang: str) -> list[tuple[str, list]]:
        """The lists by language and length (each group named in ``lang``), in the order the server
        offers them: what the list selector shows."""
        groups: dict[tuple[str, int], list] = {}
        for e in lists.entries.values():
            groups.setdefault((e.language, e.words.length), []).append(e)
        return [
            (i18n.t(lang, "list_group", language=i18n.language_name(lang, code), length=length), entries)
            for (code, length), entries in groups.items()
        ]

    def context(self, request: Request, page: str) -> dict:
        """What every page needs: the list, the language (the list's unless ``?lang=``),
        the text table and the links that keep both."""
        lists = self.lists
        name = request.query_params.get("list", "")
        entry = lists.entries.get(name) or lists.entries[lists.default]
        chosen = request.query_params.get("lang")
        lang = chosen if chosen in i18n.LANGUAGES else (entry.language if entry.language in i18n.LANGUAGES else "en")

        def link(path: str, **changes: str | None) -> str:
            params = {"list": entry.name, "lang": chosen if chosen in i18n.LANGUAGES else None}
            params.update(changes)
            query = urlencode({k: v for k, v in params.items() if v})
            return f"{path}?{query}" if query else path

        boards = _board_count(request, page)
        config: dict[str, Any] = {
            "page": page,
            "boards": boards,
            "variants": {str(n): variant(n).name for n in SOLVER_BOARDS},
            "lang": lang,
            "list": entry.name,
            "prior": entry.prior,
            "language": entry.language,
            "keyboard": keyboard(entry.words),
            "length": entry.words.length,
            "letters": entry.words.alphabet.letters,
            "typed": typed_letters(entry.words),
            "lists": [{"name": e.name, "language": e.language} for e in lists.entries.values()],
            "text": i18n.TEXT[lang],
            "openers": [h.to_dict() for h in entry.openers[:10]],
        }
        if page == "solver":  # the solver may compute on the device (raten.web.device)
            config["device"] = device_config(lists, entry.name, self.static)
        return {
            "request": request,
            "page": page,
            "boards": boards,
            "board_choices": SOLVER_BOARDS if page == "solver" else GAME_BOARDS,
            "variant": variant,
            "lang": lang,
            "t": lambda key, **kw: i18n.t(lang, key, **kw),
            "num": lambda x, digits=0: i18n.number(lang, x, digits),
            "entry": entry,
            # an unknown ?list= falls back to the default list, and the page says so (issue 27 item 10)
            "unknown_list": name if name and name not in lists.entries else None,
            "lists": lists,
            "list_groups": self.list_groups(lists, lang),
            # the frequency prior where it is fitted (five letters a-z, en and de) or the list's own
            "weighted_offered": entry.prior in (FREQUENCY, MIXTURE) or frequency_fits(entry.words),
            "link": link,
            "lang_links": {code: link(request.url.path, lang=code) for code in i18n.LANGUAGES},
            "config_json": json.dumps(config, ensure_ascii=False).replace("</", "<\\/"),
            "version": __version__,
            "asset": self.static.url,
            "transfer_hours": CODE_HOURS,
        }

    def solver(self, request: Request) -> HTMLResponse:
        """The solver page (also the start page): one board or ``?boards=`` many."""
        return self.templates.TemplateResponse(request, "solver.html", self.context(request, "solver"))

    def play(self, request: Request) -> HTMLResponse:
        """The game page: Wordle, or ``?boards=2`` Dordle and ``?boards=4`` Quordle."""
        return self.templates.TemplateResponse(request, "play.html", self.context(request, "play"))

    def proven_openers(self) -> dict[str, dict[str, list]]:
        """Per list and mode, the best proven openers of the committed tables (read once). The
        tables are for the list's own solutions, equally likely, whatever the list's prior."""
        if not self._proven:
            from raten.trees.values import best_openers  # the search's modules, only when asked

            for name, e in self.lists.entries.items():
                words = apply_prior(e.words, UNIFORM)
                self._proven[name] = {mode: best_openers(words, mode == "hard") for mode in ("normal", "hard")}
        return self._proven

    def openers(self, request: Request) -> HTMLResponse:
        """The openers page: the proven best first guesses and the lists' letter statistics."""
        page = self.context(request, "openers")
        page["proven"] = self.proven_openers()
        page["letters"] = self._letters
        page["describe"] = lambda e: describe_list(page["lang"], e)
        return self.templates.TemplateResponse(request, "openers.html", page)

    def offline(self, request: Request) -> HTMLResponse:
        """The page the service worker shows for a page it cannot serve without the server
        (static/device/sw.js): its texts in every language, the one shown chosen on the device
        from the URL asked for (its ``lang``, else its list's language)."""
        texts = {
            code: {k: v for k, v in table.items() if k.startswith("offline_") or k in OFFLINE_TEXTS}
            for code, table in i18n.TEXT.items()
        }
        lists = [{"name": e.name, "language": e.language} for e in self.lists.entries.values()]
        config = {"texts": texts, "lists": lists, "default": self.lists.default}
        page = {"lang": "en", "texts": texts, "asset": self.static.url}
        page["config_json"] = json.dumps(config, ensure_ascii=False).replace("</", "<\\/")
        return self.templates.TemplateResponse(request, "offline.html", page)

    def not_found(self, request: Request) -> HTMLResponse:
        """The HTML 404, in the request's list and language."""
        return self.templates.TemplateResponse(request, "404.html", self.context(request, "404"), status_code=404)

    def favicon(self) -> RedirectResponse:
        """Browsers ask for /favicon.ico; the icon is the static SVG."""
        return RedirectResponse("/static/favicon.svg")
