"""``/api/games`` and ``/api/stats``: games on one board or many, their guesses and the player's statistics.

The handlers translate: the request into one call of ``raten.web.games.Games``, its ``Played``
or ``Standing`` into ``GameOut`` or ``StatsOut``, in the request's language and palette. Game
endpoints are small and run in the threadpool (sync endpoints).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request, Response

from raten.engine.feedback import format_pattern
from raten.play.game import Game
from raten.web import i18n
from raten.web.games import Played, Standing
from raten.web.models import BoardsRowOut, GameIn, GameOut, GuessIn, Mode, RowOut, StatsOut
from raten.web.routes.common import (
    GamesDep,
    ListQuery,
    PaletteQuery,
    current_player,
    errors,
    language,
    player_or_new,
)
from raten.wordlists.written import written

router = APIRouter()


def share_text(played: Played, request: Request) -> str:
    """A game's share text in the request's language ("practice" worded) and palette."""
    practice = i18n.t(language(request), "share_practice")
    palette = request.query_params.get("palette") or "standard"
    return played.game.share_text(list_name=played.record.list, practice=practice, palette=palette)


def stats_out(standing: Standing, request: Request) -> StatsOut:
    """A mode and variant of the player's record, with the share text of the game it marks."""
    return StatsOut(
        list=standing.list,
        boards=standing.boards,
        mode=standing.mode,
        max_tries=standing.max_tries,
        **standing.record.to_dict(),
        number=standing.number,
        next_daily_seconds=standing.next_daily_seconds,
        share=share_text(standing.shown, request) if standing.shown is not None else None,
    )


def rows_out(game: Game) -> list[RowOut | BoardsRowOut]:
    """A game's rows: on one board the colours (``.?!``), on many each board's (``-`` once solved)."""
    rows: list[RowOut | BoardsRowOut] = []
    for word, codes in game.rows():
        patterns = [None if c is None else format_pattern(c, length=len(word)) for c in codes]
        joined = ",".join(p or "-" for p in patterns)
        rows.append(
            RowOut(guess=word, pattern=joined)
            if game.boards == 1
            else BoardsRowOut(guess=word, pattern=joined, patterns=patterns)
        )
    return rows


def game_out(played: Played, request: Request) -> GameOut:
    """What the player may see: no answer, share text or statistics before the end. One board's
    rows and keyboard keep the shape they had before many boards (``RowOut``, ``keyboard``)."""
    game, record = played.game, played.record
    over = game.over or played.abandoned
    rows = rows_out(game)
    keyboards = game.keyboards()
    return GameOut(
        id=record.id,
        list=record.list,
        language=game.words.language,
        mode=game.mode,
        number=game.number,
        hard=game.hard,
        boards=game.boards,
        max_tries=game.max_tries,
        rows=rows,
        status="abandoned" if played.abandoned else game.status,
        keyboard=keyboards[0] if game.boards == 1 else {},
        keyboards=keyboards,
        solved_at=[game.solved_at(b) for b in range(game.boards)],
        answer=game.answer if over else None,
        answers=list(game.answers) if over else None,
        answers_written=[written(a, game.words.language) for a in game.answers] if over else None,
        share=share_text(played, request) if played.standing is not None else None,
        stats=stats_out(played.standing, request) if played.standing is not None else None,
    )


@router.post("/games", response_model=GameOut, responses=errors(400, 409), summary="Start or resume a game")
def post_game(
    body: GameIn,
    request: Request,
    response: Response,
    games: GamesDep,
    palette: PaletteQuery = "standard",  # noqa: ARG001 - read from the request where the share text is made
) -> GameOut:
    """A practice game is new each time (the one still in play is given up: it counts as played
    once it has a guess). The daily game is made once per player, day and board count and then
    resumed; the rules are ``raten.play``'s (see ``raten.web.games.Games.start``)."""
    played = games.start(lambda: player_or_new(request, response), body.list, body.mode, body.boards, body.hard)
    return game_out(played, request)


@router.get("/games/{game_id}", response_model=GameOut, responses=errors(404), summary="A game of yours")
def get_game(
    game_id: str,
    request: Request,
    games: GamesDep,
    palette: PaletteQuery = "standard",  # noqa: ARG001 - read from the request where the share text is made
) -> GameOut:
    return game_out(games.get(current_player(request), game_id), request)


@router.post(
    "/games/{game_id}/guesses",
    response_model=GameOut,
    responses=errors(400, 404, 409),
    summary="Make a guess; refused words cost no try",
)
def post_guess(
    game_id: str,
    body: GuessIn,
    request: Request,
    games: GamesDep,
    palette: PaletteQuery = "standard",  # noqa: ARG001 - read from the request where the share text is made
) -> GameOut:
    return game_out(games.guess(current_player(request), game_id, body.guess, body.row), request)


@router.get("/stats", response_model=StatsOut, responses=errors(400), summary="Your statistics on a list")
def get_stats(
    request: Request,
    games: GamesDep,
    list_name: ListQuery = "en",
    boards: Annotated[int, Query(ge=1, le=4, description="1 Wordle, 2 Dordle, 4 Quordle.")] = 1,
    mode: Annotated[Mode, Query(description="Daily and practice games are counted apart.")] = "daily",
    palette: PaletteQuery = "standard",  # noqa: ARG001 - read from the request where the share text is made
) -> StatsOut:
    """Daily statistics are those of the daily list of the list's language (``de-ext`` counts on ``de``)."""
    return stats_out(games.standing(current_player(request), list_name, boards, mode), request)
