"""The application factory: word lists warmed, the store opened, API and pages wired up.

Every error leaves as ``{"error": ..., "code": ...}`` with a 4xx status: library errors
(``RatenError``) are 400, unknown games 404, moves that do not fit the game 409,
malformed requests 422.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from datetime import UTC, date, datetime
from pathlib import Path
from urllib.parse import urlencode

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.exceptions import HTTPException as StarletteHTTPException

from raten._version import __version__
from raten.engine.words import WordSet
from raten.errors import RatenError
from raten.play.game import GameError
from raten.web import i18n
from raten.web.api import GameConflictError, NotFoundError, router
from raten.web.service import Lists
from raten.web.store import Store, default_db_path

HERE = Path(__file__).parent
KEYBOARDS = {
    "en": ["qwertyuiop", "asdfghjkl", "+zxcvbnm-"],
    "de": ["qwertzuiop", "asdfghjkl", "+yxcvbnm-"],
}


def _utc_today() -> date:
    return datetime.now(UTC).date()


def create_app(
    word_sets: Mapping[str, WordSet] | Iterable[str] | None = None,
    db_path: str | Path | None = None,
    *,
    daily_secret: str | None = None,
    today: Callable[[], date] = _utc_today,
    lists: Lists | None = None,
) -> FastAPI:
    """The web app.

    ``word_sets``: word sets by name, or preset names (default: every preset available).
    ``db_path``: the SQLite file (default ``$RATEN_DB`` or the user data directory).
    ``daily_secret``: seed of the daily words (default: made once and kept in the database).
    ``today``: the date of the daily game (UTC by default; tests fix it).
    ``lists``: an already warmed ``Lists`` to share between apps (tests).
    """
    lists = lists or Lists.load(word_sets)
    store = Store(db_path or default_db_path())

    app = FastAPI(
        title="raten",
        version=__version__,
        summary="Wordle solver and game for German and English",
    )
    app.state.lists = lists
    app.state.store = store
    app.state.daily_secret = daily_secret if daily_secret is not None else store.secret()
    app.state.today = today
    app.include_router(router)
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    _error_handlers(app)
    _pages(app, Jinja2Templates(directory=HERE / "templates"))
    _openapi_with_list_names(app, list(lists.entries))
    return app


# --- errors ------------------------------------------------------------------------------------


def _lang(request: Request) -> str:
    return i18n.pick_language(request.query_params.get("lang"), request.headers.get("accept-language"))


#: Game errors that say the request does not fit the game's state (409, not 400).
_CONFLICTS = frozenset({"game_over"})


def _error(status: int, message: str, code: str) -> JSONResponse:
    return JSONResponse({"error": message, "code": code}, status_code=status)


def _error_handlers(app: FastAPI) -> None:
    @app.exception_handler(RatenError)
    async def raten_error(request: Request, exc: RatenError) -> JSONResponse:
        # A game's refusal reports its key; other library errors are one kind for programs.
        code = exc.key if isinstance(exc, GameError) else "bad_request"
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
        return _error(422, i18n.validation_message(exc.errors(), _lang(request)), "validation")

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        message = exc.detail if isinstance(exc.detail, str) else "request refused"
        return _error(exc.status_code, message, f"http_{exc.status_code}")


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


# --- pages --------------------------------------------------------------------------------------


def _pages(app: FastAPI, templates: Jinja2Templates) -> None:
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

        config = {
            "page": page,
            "lang": lang,
            "list": entry.name,
            "language": entry.language,
            "keyboard": KEYBOARDS.get(entry.language, KEYBOARDS["en"]),
            "lists": [{"name": e.name, "language": e.language} for e in lists.entries.values()],
            "text": i18n.TEXT[lang],
            "openers": [h.to_dict() for h in entry.openers[:10]],
        }
        return {
            "request": request,
            "page": page,
            "lang": lang,
            "t": lambda key, **kw: i18n.t(lang, key, **kw),
            "entry": entry,
            "lists": lists,
            "link": link,
            "lang_links": {code: link(request.url.path, lang=code) for code in i18n.LANGUAGES},
            "config_json": json.dumps(config, ensure_ascii=False).replace("</", "<\\/"),
            "version": __version__,
        }

    @app.get("/", include_in_schema=False)
    @app.get("/solver", include_in_schema=False)
    def solver_page(request: Request) -> HTMLResponse:
        return templates.TemplateResponse(request, "solver.html", context(request, "solver"))

    @app.get("/play", include_in_schema=False)
    def play_page(request: Request) -> HTMLResponse:
        return templates.TemplateResponse(request, "play.html", context(request, "play"))

    @app.get("/openers", include_in_schema=False)
    def openers_page(request: Request) -> HTMLResponse:
        return templates.TemplateResponse(request, "openers.html", context(request, "openers"))

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> RedirectResponse:
        return RedirectResponse("/static/favicon.svg")
