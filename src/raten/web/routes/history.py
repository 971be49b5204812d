"""``/api/history``, ``/api/export`` and ``/api/import``: every game a player has stored, and their
finished games taken to another browser as a signed file or a short code, merged by game id
(``raten.web.transfer``)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from fastapi import APIRouter, Request, Response
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse

from raten.errors import RatenError
from raten.play.game import game_variant
from raten.web.games import Games
from raten.web.models import ExportCodeOut, HistoryGameOut, HistoryOut, ImportIn, ImportOut, ReviewState
from raten.web.routes.common import GamesDep, address, current_player, errors, player_or_new
from raten.web.routes.game import rows_out
from raten.web.store import GameRecord
from raten.web.transfer import CODE_HOURS, export, games_of_code, games_of_file, new_code
from raten.wordlists.written import written

router = APIRouter()

#: The most games the history shows (the newest).
HISTORY_MAX = 1000


def _history_game(
    games: Games, record: GameRecord, reviewed: set[str], pending: Callable[[str, str], bool]
) -> HistoryGameOut:
    """A stored game as the history shows it (``pending``: whether its review is being made here)."""
    game = games.game_of(record)
    over = game.over or record.status == "abandoned"
    reviewable = game.over and record.status != "abandoned" and game.boards == 1
    review: ReviewState = (
        "unavailable" if not reviewable
        else "kept" if record.id in reviewed
        else "pending" if pending(record.player, record.id)
        else "none"
    )  # fmt: skip
    return HistoryGameOut(
        id=record.id,
        list=record.list,
        language=game.words.language,
        mode=game.mode,
        number=game.number,
        hard=game.hard,
        boards=game.boards,
        max_tries=game_variant(game.boards).limit,
        status="abandoned" if record.status == "abandoned" else game.status,
        created=record.created,
        rows=rows_out(game),
        answers=list(game.answers) if over else None,
        answers_written=[written(a, game.words.language) for a in game.answers] if over else None,
        review=review,
    )


@router.get("/history", response_model=HistoryOut, summary="Your games, newest first, with their reviews' state")
def get_history(request: Request, games: GamesDep) -> HistoryOut:
    """Every game of yours with a guess, and each daily game begun (games in play without their
    answers); a finished one-board game's exact review is made on request
    (``GET /api/games/{id}/review``) and kept."""
    player = current_player(request)
    if player is None:
        return HistoryOut(games=[], more=False)
    store = request.app.state.store
    records = [r for r in store.history(player, HISTORY_MAX + 1) if r.list in games.lists.entries]
    reviewed = store.reviewed(player)
    pending = request.app.state.reviews.pending
    shown = [_history_game(games, r, reviewed, pending) for r in records[:HISTORY_MAX]]
    return HistoryOut(games=shown, more=len(records) > HISTORY_MAX)


@router.get("/export", summary="Your finished games as a file to import on another browser")
def get_export(request: Request) -> JSONResponse:
    """A JSON file the server signed (``POST /api/import`` on this server takes it back)."""
    data = export(request.app.state.store, current_player(request) or "")
    day = datetime.now(UTC).date().isoformat()
    headers = {"Content-Disposition": f'attachment; filename="raten-games-{day}.json"'}
    return JSONResponse(data, headers=headers)


@router.post(
    "/export/code",
    response_model=ExportCodeOut,
    responses=errors(429),
    summary="A short code that brings your finished games to another browser",
)
async def post_export_code(request: Request, response: Response) -> ExportCodeOut:
    """The code names your games for a day: typed on another browser (``POST /api/import``), it
    copies the games you have finished by then."""
    await request.app.state.limits.rates.hit("transfer", address(request))
    player = await run_in_threadpool(player_or_new, request, response)
    code = await run_in_threadpool(new_code, request.app.state.store, player)
    return ExportCodeOut(code=code, expires_in=CODE_HOURS * 3600)


@router.post(
    "/import",
    response_model=ImportOut,
    responses=errors(400, 429),
    summary="Bring games from another browser here: by its code or its file, merged by game id",
)
async def post_import(body: ImportIn, request: Request, response: Response, games: GamesDep) -> ImportOut:
    """A code names the other browser's finished games; a file holds them, signed by this server
    (a file changed or made elsewhere is refused). A game you have already is not added again."""
    if (body.code is None) == (body.file is None):
        raise RatenError("give either a code or a file", "transfer_what")
    await request.app.state.limits.rates.hit("transfer", address(request))
    store = request.app.state.store

    def merge() -> ImportOut:
        found = games_of_code(store, body.code) if body.code is not None else games_of_file(store, body.file or {})
        player = player_or_new(request, response)
        added, present, conflicting = store.import_games(player, [g for g in found if g.list in games.lists.entries])
        return ImportOut(added=added, present=present, conflicting=conflicting)

    return await run_in_threadpool(merge)
