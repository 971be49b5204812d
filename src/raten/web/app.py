"""The application factory: the store opened, word lists warmed, API and pages wired up,
behind the guard (limits, body cap) and the security headers.

Every error leaves as ``{"error": ..., "code": ...}``: library errors (``RatenError``) are
400, unknown games 404, moves that do not fit the game 409, a body too large 413, malformed
requests 422, too many requests 429, anything unexpected 500 (no traceback in the answer),
a full work queue, a table still loading (``warming_up``) or a database that fails at run time
(``store_unavailable``) 503 with Retry-After.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from raten._version import __version__
from raten.engine.words import WordSet
from raten.errors import RatenError
from raten.play.game import GameError
from raten.play.review import warm_up as warm_up_review
from raten.web import boards as boards_answers
from raten.web import i18n
from raten.web.assets import Assets, VersionedStatic, docs_assets_dir
from raten.web.device import device_router
from raten.web.games import GameConflictError, Games, NotFoundError
from raten.web.headers import PAGE_POLICY as _PAGE_POLICY
from raten.web.headers import SecurityHeaders, docs_policy, security_headers
from raten.web.limits import Guard, Limits, Policy, Refused
from raten.web.reviews import Reviews
from raten.web.routes import api_router
from raten.web.routes.common import PLAYER_COOKIE, language
from raten.web.routes.pages import Pages
from raten.web.routes.review import game_review
from raten.web.service import Lists
from raten.web.sharing import Shared
from raten.web.store import ConflictError, UnavailableError, open_store

HERE = Path(__file__).parent


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
    redis_url: str | None = None,
) -> FastAPI:
    """The web app.

    ``word_sets``: word sets by name, or preset names (default: every preset available).
    ``db_path``: the SQLite file or a ``postgresql://`` URL (default ``$RATEN_DB`` or a file in the
    user data directory).
    ``daily_secret``: seed of the daily words (default: made once and kept in the database).
    ``today``: the date of the daily game (UTC by default; tests fix it).
    ``lists``: an already warmed ``Lists`` to share between apps (tests).
    ``policy``: rates and the body cap (``raten.web.limits.Policy``); ``workers`` threads rank
    uncached states with at most ``queue`` more waiting (beyond: 503); with ``processes``
    (lists by name or spec only) they are worker processes of lower priority instead of threads.
    ``extra_lists``: ``NAME=SOLUTIONS_FILE:ALLOWED_FILE[:LANGUAGE]`` specs offered besides
    (`raten serve --list`).
    ``redis_url``: a Redis server that the nodes of a deployment share the rate limits and the
    hint cache through (``raten.web.sharing``; default: each process its own).
    """
    shared = Shared(redis_url) if redis_url else None
    store = open_store(db_path)  # first: a bad database fails before the lists load
    if shared is not None:
        shared.check()
    lists = lists or Lists.load(word_sets, extra=extra_lists)
    warm_up_review()  # once per process: the first review is then not a compile of the search

    app = FastAPI(
        title="raten",
        version=__version__,
        summary="Wordle solver and game for German and English",
        docs_url=None,  # served by _api_docs from this server's copies of the viewers
        redoc_url=None,
        lifespan=_lifespan,
    )
    app.state.lists = lists
    app.state.store = store
    app.state.shared = shared
    app.state.games = Games(lists, store, daily_secret if daily_secret is not None else store.secret(), today)
    executor = None
    if processes:
        from raten.web import workers as worker_processes

        executor = functools.partial(worker_processes.process_pool, list(lists.specs), workers)
        app.state.rank = worker_processes.rank
        app.state.rank_boards = worker_processes.rank_boards
    else:
        app.state.rank = lists.rank
        app.state.rank_boards = functools.partial(boards_answers.answer_for, lists)
    app.state.limits = limits = Limits(
        policy or Policy(), workers=workers, depth=queue, executor=executor, shared=shared
    )
    app.state.warm_processes = processes
    app.state.reviews = Reviews(store, limits, game_review)
    app.include_router(api_router())
    static = Assets(HERE / "static", "/static")
    viewers = Assets(docs_assets_dir(), "/static/docs")
    app.mount("/static/docs", VersionedStatic(viewers), name="docs-static")  # before /static, which would match too
    app.mount("/static", VersionedStatic(static), name="static")
    app.include_router(device_router(static))
    docs_pages = _api_docs(app, viewers)
    app.add_middleware(Guard, limits=limits, player_cookie=PLAYER_COOKIE, wording=_refusal_text)
    app.add_middleware(SecurityHeaders, docs=docs_policy(*docs_pages))
    _error_handlers(app)
    pages = Pages(lists, HERE / "templates", static)
    app.include_router(pages.router)
    app.state.not_found_page = pages.not_found
    _openapi_with_list_names(app, list(lists.entries))
    return app


@contextlib.asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    """At shutdown (SIGTERM from systemd or a container runtime, SIGINT, the end of a test) the
    rank worker processes end with the server: uvicorn re-raises the signal once the app has shut
    down, and Python's own clean-up of the pool never runs. At start-up the warm-up of the other
    priors' tables begins (after the rank workers have loaded, so it does not slow the start)."""
    app.state.limits.queue.start()
    app.state.lists.warmup.start(processes=app.state.warm_processes)
    yield
    app.state.lists.warmup.stop()
    app.state.limits.queue.stop()


# --- errors ------------------------------------------------------------------------------------


#: Seconds a client is told to wait when the database cannot be used.
STORE_RETRY_AFTER = 5

#: Game errors that say the request does not fit the game's state (409, not 400).
_CONFLICTS = frozenset({"game_over", "not_over"})


#: Library error keys that keep their own code (the rest are ``bad_request``).
_KEYED = frozenset({"lookahead_too_broad", "bad_transfer_file", "unknown_transfer_code", "transfer_what"})


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
        return _error(status, i18n.error_message(exc, language(request)), code)

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
                return _error(400, i18n.error_message(e, language(request)), "bad_request")
        return _error(422, i18n.validation_message(errors, language(request)), "validation")

    @app.exception_handler(ConflictError)
    async def store_conflict(request: Request, _exc: ConflictError) -> JSONResponse:
        # The store refused a write because the game changed under it (a race of two requests).
        return _error(409, i18n.t(language(request), "err_conflict"), "conflict")

    @app.exception_handler(UnavailableError)
    async def store_down(request: Request, _exc: UnavailableError) -> JSONResponse:
        # The database failed at run time (logged once by the store): refuse, keep running, retry later.
        response = _error(503, i18n.t(language(request), "err_store_unavailable"), "store_unavailable")
        response.headers["Retry-After"] = str(STORE_RETRY_AFTER)
        return response

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
        response = _error(500, i18n.t(language(request), "err_internal"), "internal")
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
