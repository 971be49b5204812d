"""The application factory: the store opened, word lists warmed, API and pages wired up,
behind the guard (limits, body cap) and the security headers.

Every error leaves as ``{"error": ..., "code": ...}``: library errors (``RatenError``) are
400, unknown games 404, moves that do not fit the game 409, a body too large 413, malformed
requests 422, too many requests 429, anything unexpected 500 (no traceback in the answer),
a full work queue 503.
"""

from __future__ import annotations

import asyncio
import functools
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from starlette.exceptions import HTTPException as StarletteHTTPException

from raten._version import __version__
from raten.engine.boards import variant
from raten.engine.words import WordSet
from raten.errors import RatenError
from raten.play.boards_game import GAME_BOARDS as PLAY_BOARDS
from raten.play.game import GameError
from raten.play.review import warm_up as warm_up_review
from raten.web import boards as boards_answers
from raten.web import i18n
from raten.web.api import PLAYER_COOKIE, GameConflictError, NotFoundError, router
from raten.web.assets import Assets, VersionedStatic, docs_assets_dir
from raten.web.device import add_device_routes, device_config
from raten.web.headers import PAGE_POLICY as _PAGE_POLICY
from raten.web.headers import SecurityHeaders, docs_policy, security_headers
from raten.web.limits import Guard, Limits, Policy, Refused
from raten.web.service import Lists
from raten.web.store import ConflictError, Store, default_db_path
from raten.wordlists.stats import letter_stats

HERE = Path(__file__).parent
KEYBOARDS = {
    "en": ["qwertyuiop", "asdfghjkl", "+zxcvbnm-"],
    "de": ["qwertzuiop", "asdfghjkl", "+yxcvbnm-"],
}


#: Board counts the solver page offers (the game page offers 1, 2 and 4: ``GAME_BOARDS``).
SOLVER_BOARDS = (1, 2, 4, 8)
GAME_BOARDS = (1, *PLAY_BOARDS)


def _board_count(request: Request, page: str) -> int:
    """The page's ``?boards=``: one of the counts the page offers, else 1."""
    offered = SOLVER_BOARDS if page == "solver" else GAME_BOARDS if page == "play" else (1,)
    raw = request.query_params.get("boards", "1")
    return int(raw) if raw.isdigit() and int(raw) in offered else 1


def _utc_today() -> date:
    return datetime.now(UTC).date()


def create_app(
    word_sets: Mapping[str, WordSet] | Iterable[str] | None = None,
    db_path: str | Path | None = None,
    *,
    daily_secret: str | None = None,
    today: Callable[[], date] = _utc_today,
    lists: Lists | None = None,
    policy: Policy | None = None,
    workers: int = 1,
    queue: int = 8,
    processes: bool = False,
    extra_lists: Iterable[str] = (),
) -> FastAPI:
    """The web app.

    ``word_sets``: word sets by name, or preset names (default: every preset available).
    ``db_path``: the SQLite file (default ``$RATEN_DB`` or the user data directory).
    ``daily_secret``: seed of the daily words (default: made once and kept in the database).
    ``today``: the date of the daily game (UTC by default; tests fix it).
    ``lists``: an already warmed ``Lists`` to share between apps (tests).
    ``policy``: rates and the body cap (``raten.web.limits.Policy``); ``workers`` threads rank
    uncached states with at most ``queue`` more waiting (beyond: 503); with ``processes``
    (lists by name or spec only) they are worker processes of lower priority instead of threads.
    ``extra_lists``: ``NAME=SOLUTIONS_FILE:ALLOWED_FILE[:LANGUAGE]`` specs offered besides
    (`raten serve --list`).
    """
    store = Store(db_path or default_db_path())  # first: a bad database fails before the lists load
    lists = lists or Lists.load(word_sets, extra=extra_lists)
    warm_up_review()  # once per process: the first review is then not a compile of the search

    app = FastAPI(
        title="raten",
        version=__version__,
        summary="Wordle solver and game for German and English",
        docs_url=None,  # served by _api_docs from this server's copies of the viewers
        redoc_url=None,
    )
    app.state.lists = lists
    app.state.store = store
    app.state.daily_secret = daily_secret if daily_secret is not None else store.secret()
    app.state.today = today
    executor = None
    if processes:
        from raten.web import workers as worker_processes

        executor = functools.partial(worker_processes.process_pool, list(lists.specs), workers)
        app.state.rank = worker_processes.rank
        app.state.rank_boards = worker_processes.rank_boards
    else:
        app.state.rank = lists.rank
        app.state.rank_boards = functools.partial(boards_answers.answer_for, lists)
    app.state.limits = limits = Limits(policy or Policy(), workers=workers, depth=queue, executor=executor)
    app.include_router(router)
    static = Assets(HERE / "static", "/static")
    viewers = Assets(docs_assets_dir(), "/static/docs")
    app.mount("/static/docs", VersionedStatic(viewers), name="docs-static")  # before /static, which would match too
    app.mount("/static", VersionedStatic(static), name="static")
    add_device_routes(app, static)
    docs_pages = _api_docs(app, viewers)
    app.add_middleware(Guard, limits=limits, player_cookie=PLAYER_COOKIE, wording=_refusal_text)
    app.add_middleware(SecurityHeaders, docs=docs_policy(*docs_pages))
    _error_handlers(app)
    _pages(app, Jinja2Templates(directory=HERE / "templates"), static)
    _openapi_with_list_names(app, list(lists.entries))
    return app


# --- errors ------------------------------------------------------------------------------------


def _lang(request: Request) -> str:
    return i18n.pick_language(request.query_params.get("lang"), request.headers.get("accept-language"))


#: Game errors that say the request does not fit the game's state (409, not 400).
_CONFLICTS = frozenset({"game_over"})


#: Library error keys that keep their own code (the rest are ``bad_request``).
_KEYED = frozenset({"lookahead_too_broad"})


def _error(status: int, message: str, code: str) -> JSONResponse:
    return JSONResponse({"error": message, "code": code}, status_code=status)


def _refusal_text(refused: Refused, accept_language: str | None) -> str:
    """A refusal (413, 429, 503) in the request's language."""
    lang = i18n.pick_language(None, accept_language)
    return (
        i18n.t(lang, f"err_{refused.code}", **refused.params)
        if f"err_{refused.code}" in i18n.TEXT[lang]
        else (refused.message)
    )


def _error_handlers(app: FastAPI) -> None:
    @app.exception_handler(RatenError)
    async def raten_error(request: Request, exc: RatenError) -> JSONResponse:
        # A game's refusal reports its key; other library errors are one kind for programs.
        code = exc.key if isinstance(exc, GameError) or exc.key in _KEYED else "bad_request"
        status = 409 if code in _CONFLICTS else 400
        return _error(status, i18n.error_message(exc, _lang(request)), code)

    @app.exception_handler(NotFoundError)
    async def not_found(_request: Request, exc: NotFoundError) -> JSONResponse:
        return _error(404, str(exc), "not_found")

    @app.exception_handler(GameConflictError)
    async def conflict(_request: Request, exc: GameConflictError) -> JSONResponse:
        return _error(409, str(exc), exc.code)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        name = _too_long_list_name(errors)
        if name is not None:  # longer than any list's name: the library's "unknown list"
            try:
                app.state.lists.get(name)
            except RatenError as e:
                return _error(400, i18n.error_message(e, _lang(request)), "bad_request")
        return _error(422, i18n.validation_message(errors, _lang(request)), "validation")

    @app.exception_handler(ConflictError)
    async def store_conflict(request: Request, _exc: ConflictError) -> JSONResponse:
        # The store refused a write because the game changed under it (a race of two requests).
        return _error(409, i18n.t(_lang(request), "err_conflict"), "conflict")

    @app.exception_handler(Refused)
    async def refused(request: Request, exc: Refused) -> JSONResponse:
        await asyncio.sleep(request.app.state.limits.hold(exc))
        return exc.response(_refusal_text(exc, request.headers.get("accept-language")))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        if exc.status_code == 404 and _wants_page(request):
            return request.app.state.not_found_page(request)
        message = exc.detail if isinstance(exc.detail, str) else "request refused"
        return _error(exc.status_code, message, f"http_{exc.status_code}")

    @app.exception_handler(Exception)
    async def unexpected(request: Request, _exc: Exception) -> JSONResponse:
        # Anything else: JSON 500 without the traceback (uvicorn logs it for the operator).
        response = _error(500, i18n.t(_lang(request), "err_internal"), "internal")
        response.headers.update({k.decode(): v.decode() for k, v in security_headers(_PAGE_POLICY)})
        return response


def _wants_page(request: Request) -> bool:
    """A browser asking for a page (not the API, not a static file): it gets an HTML 404."""
    path = request.url.path
    return (
        request.method in ("GET", "HEAD")
        and not path.startswith(("/api/", "/static/"))
        and "text/html" in request.headers.get("accept", "")
    )


def _too_long_list_name(errors: Sequence[Any]) -> str | None:
    """The body's list name when it is the only problem and is too long, else None."""
    if (
        len(errors) == 1
        and errors[0].get("type") == "string_too_long"
        and tuple(errors[0].get("loc", ()))
        == (
            "body",
            "list",
        )
    ):
        return str(errors[0].get("input", ""))
    return None


def _openapi_with_list_names(app: FastAPI, names: list[str]) -> None:
    """Name the lists this server offers in the schema (an enum on every ``list`` field)."""
    plain = app.openapi

    def openapi() -> dict:
        if app.openapi_schema:
            return app.openapi_schema
        schema = plain()
        for model in schema.get("components", {}).get("schemas", {}).values():
            prop = model.get("properties", {}).get("list")
            if prop and model.get("title", "").endswith("In"):
                prop["enum"] = names
        for path in schema.get("paths", {}).values():
            for op in path.values():
                for param in op.get("parameters", []):
                    if param.get("name") == "list":
                        param["schema"]["enum"] = names
        app.openapi_schema = schema
        return schema

    app.openapi = openapi  # type: ignore[method-assign]


# --- API docs --------------------------------------------------------------------------------------


def _api_docs(app: FastAPI, viewers: Assets) -> tuple[str, str]:
    """/docs (Swagger UI) and /redoc (ReDoc) with the viewers' files from this server, so they work
    without internet; returns both pages' HTML (the docs' CSP allows their inline scripts by hash)."""
    openapi_url = app.openapi_url or "/openapi.json"
    swagger = get_swagger_ui_html(
        openapi_url=openapi_url,
        title=f"{app.title} - Swagger UI",
        swagger_js_url=viewers.url("swagger-ui-bundle.js"),
        swagger_css_url=viewers.url("swagger-ui.css"),
        swagger_favicon_url="/static/favicon.svg",
        swagger_ui_parameters=app.swagger_ui_parameters,
    )
    redoc = get_redoc_html(
        openapi_url=openapi_url,
        title=f"{app.title} - ReDoc",
        redoc_js_url=viewers.url("redoc.standalone.js"),
        redoc_favicon_url="/static/favicon.svg",
        with_google_fonts=False,
    )
    pages = (bytes(swagger.body).decode(), bytes(redoc.body).decode())
    for path, html in zip(("/docs", "/redoc"), pages):
        app.add_api_route(path, _fixed_page(html), methods=["GET"], include_in_schema=False)
    return pages


def _fixed_page(html: str) -> Callable[[], HTMLResponse]:
    """A route answering always the same HTML."""

    def page() -> HTMLResponse:
        return HTMLResponse(html)

    return page


# --- pages --------------------------------------------------------------------------------------


def _pages(app: FastAPI, templates: Jinja2Templates, static: Assets) -> None:
    lists: Lists = app.state.lists

    def context(request: Request, page: str) -> dict:
        """What every page needs: the list, the language (the list's unless ``?lang=``),
        the text table and the links that keep both."""
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
            "keyboard": KEYBOARDS.get(entry.language, KEYBOARDS["en"]),
            "lists": [{"name": e.name, "language": e.language} for e in lists.entries.values()],
            "text": i18n.TEXT[lang],
            "openers": [h.to_dict() for h in entry.openers[:10]],
        }
        if page == "solver":  # the solver may compute on the device (raten.web.device)
            config["device"] = device_config(lists, entry.name, static)
        return {
            "request": request,
            "page": page,
            "boards": boards,
            "board_choices": SOLVER_BOARDS if page == "solver" else GAME_BOARDS,
            "variant": variant,
            "lang": lang,
            "t": lambda key, **kw: i18n.t(lang, key, **kw),
            "entry": entry,
            "lists": lists,
            "link": link,
            "lang_links": {code: link(request.url.path, lang=code) for code in i18n.LANGUAGES},
            "config_json": json.dumps(config, ensure_ascii=False).replace("</", "<\\/"),
            "version": __version__,
            "asset": static.url,
        }

    @app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
    @app.api_route("/solver", methods=["GET", "HEAD"], include_in_schema=False)
    def solver_page(request: Request) -> HTMLResponse:
        return templates.TemplateResponse(request, "solver.html", context(request, "solver"))

    @app.api_route("/play", methods=["GET", "HEAD"], include_in_schema=False)
    def play_page(request: Request) -> HTMLResponse:
        return templates.TemplateResponse(request, "play.html", context(request, "play"))

    proven: dict[str, dict[str, list]] = {}

    def proven_openers() -> dict[str, dict[str, list]]:
        """Per list and mode, the best proven openers of the committed tables (read once)."""
        if not proven:
            from raten.trees.values import best_openers  # the search's modules, only when asked

            for name, e in lists.entries.items():
                proven[name] = {mode: best_openers(e.words, mode == "hard") for mode in ("normal", "hard")}
        return proven

    letters = {name: letter_stats(e.words.solutions) for name, e in lists.entries.items()}

    @app.api_route("/openers", methods=["GET", "HEAD"], include_in_schema=False)
    def openers_page(request: Request) -> HTMLResponse:
        page = context(request, "openers")
        page["proven"] = proven_openers()
        page["letters"] = letters
        page["describe"] = lambda e: i18n.list_description(page["lang"], e.name, e.description)
        return templates.TemplateResponse(request, "openers.html", page)

    def not_found_page(request: Request) -> HTMLResponse:
        return templates.TemplateResponse(request, "404.html", context(request, "404"), status_code=404)

    app.state.not_found_page = not_found_page

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> RedirectResponse:
        return RedirectResponse("/static/favicon.svg")
