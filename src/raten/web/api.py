"""The JSON API under ``/api``: lists and their letters, hints, openers, games, reviews, statistics.

Thin: it translates requests into library calls (``raten.play.game``, ``raten.engine.state``) and
stored games, and the answers back. Uncached hints run behind the work queue
(``raten.web.limits``); game endpoints are small and run in the threadpool (sync endpoints).
"""

from __future__ import annotations

import re
import sqlite3
from datetime import UTC, date, datetime, timedelta
from typing import Annotated, Literal, get_args

from fastapi import APIRouter, Depends, Query, Request, Response

from raten.engine.boards import variant
from raten.engine.feedback import format_pattern
from raten.errors import RatenError
from raten.play.boards_game import BoardsGame
from raten.play.game import Game, GameError, daily_number
from raten.play.records import Record, daily_record, practice_record
from raten.web import boards as boards_answers
from raten.web import i18n
from raten.web.limits import Limits, client_address
from raten.web.models import (
    BoardsHintsIn,
    BoardsHintsOut,
    BoardsRowOut,
    ErrorOut,
    GameBoards,
    GameIn,
    GameOut,
    GameReviewIn,
    GameReviewOut,
    GuessIn,
    HintsIn,
    HintsOut,
    LettersOut,
    ListOut,
    ListsOut,
    Mode,
    OpenersOut,
    Palette,
    Prior,
    RowOut,
    StatsOut,
)
from raten.web.service import HintQuery, Lists
from raten.web.store import ConflictError, GameRecord, Store, StoredRow
from raten.wordlists.stats import letter_stats

PLAYER_COOKIE = "raten_player"
_PLAYER_ID = re.compile(r"[A-Za-z0-9_-]{32}")
_TEN_YEARS = 10 * 365 * 24 * 3600


class NotFoundError(Exception):
    """An unknown game, or one of another player (the two look the same on purpose)."""


class GameConflictError(Exception):
    """The request does not fit the stored game (not over yet, changed meanwhile); a move
    the game itself refuses is a ``GameError`` from ``raten.play.game``."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


def _errors(*codes: int) -> dict:
    return {c: {"model": ErrorOut} for c in codes}


# Any route may answer these: invalid input, a body over the cap, a rate limit, a full work
# queue (with Retry-After), and an unexpected fault (JSON, no traceback).
router = APIRouter(prefix="/api", responses=_errors(413, 422, 429, 500, 503))


# Dependencies are coroutines so that FastAPI does not send them through the threadpool.
async def lists(request: Request) -> Lists:
    return request.app.state.lists


async def store(request: Request) -> Store:
    return request.app.state.store


def current_player(request: Request) -> str | None:
    """The player of the cookie, if it names one this server made."""
    player = request.cookies.get(PLAYER_COOKIE)
    if player and _PLAYER_ID.fullmatch(player) and request.app.state.store.player_exists(player):
        return player
    return None


ListsDep = Annotated[Lists, Depends(lists)]
StoreDep = Annotated[Store, Depends(store)]
ListQuery = Annotated[str, Query(alias="list", max_length=40, description="Word list name (see /api/lists).")]
PaletteQuery = Annotated[
    Palette, Query(description="Share squares: standard, or high (the high-contrast orange and blue).")
]


def player_or_new(request: Request, response: Response) -> str:
    """The cookie's player, or a new one whose opaque id is set as an HttpOnly cookie (Secure
    when served over HTTPS); one address makes new players only so fast (429)."""
    player = current_player(request)
    if player is None:
        request.app.state.limits.new_players.check(client_address(request.scope))
        player = request.app.state.store.new_player()
        response.set_cookie(
            PLAYER_COOKIE,
            player,
            max_age=_TEN_YEARS,
            httponly=True,
            samesite="lax",
            secure=request.url.scheme == "https",
        )
    return player


# --- word lists and the solver ------------------------------------------------------------


@router.get("/lists", response_model=ListsOut, summary="The word lists this server offers")
def get_lists(ls: ListsDep) -> ListsOut:
    return ListsOut(
        lists=[
            ListOut(
                name=e.name,
                language=e.language,
                description=e.description,
                solutions=len(e.words.solutions),
                allowed=len(e.words.allowed),
                prior=e.prior,  # type: ignore[arg-type]
            )
            for e in ls.entries.values()
        ]
    )


@router.get(
    "/letters",
    response_model=LettersOut,
    responses=_errors(400),
    summary="Letter statistics of a list: repeated letters, letter frequency overall and by position",
)
def get_letters(
    ls: ListsDep,
    list_name: ListQuery = "en",
    of: Annotated[
        Literal["solutions", "allowed"], Query(description="The possible answers, or every allowed guess.")
    ] = "solutions",
) -> dict:
    entry = ls.get(list_name)
    words = entry.words.solutions if of == "solutions" else entry.words.allowed
    return {"list": entry.name, "of": of, **letter_stats(words).to_dict()}


@router.post(
    "/hints",
    response_model=HintsOut,
    responses=_errors(400),
    summary="Candidates, best next guesses and constraints after some rows",
)
async def post_hints(body: HintsIn, request: Request, ls: ListsDep) -> Response:
    """Cached answers are sent from the event loop; new ones are ranked behind the work queue
    (a rate per address, 429; a bounded queue, 503), so a flood cannot hold up the rest."""
    query = HintQuery(
        body.list,
        tuple((r.guess, r.pattern) for r in body.rows),
        body.hard,
        body.top,
        body.strategy,
        body.limit,
        body.prior,
        body.answers_only,
    )
    content = ls.cached_hints(query)
    if content is None:
        ls.get(query.name)  # an unknown list is refused at once, not queued
        limits: Limits = request.app.state.limits
        ranked = await limits.work_for(client_address(request.scope), request.app.state.rank, query)
        content = ls.keep(query, ranked)
    return Response(content, media_type="application/json")


@router.get(
    "/openers",
    response_model=OpenersOut,
    responses=_errors(400),
    summary="The best first guesses of a list (ranked at start-up)",
)
def get_openers(
    ls: ListsDep,
    list_name: ListQuery = "en",
    top: Annotated[int, Query(ge=1, le=50, description="How many openers.")] = 20,
    prior: Annotated[Prior | None, Query(description="uniform or frequency; default the list's own.")] = None,
) -> dict:
    entry = ls.get(list_name)
    chosen = prior or entry.prior
    return {"list": entry.name, "prior": chosen, "openers": [h.to_dict() for h in ls.openers(entry.name, chosen, top)]}


@router.post(
    "/hints/boards",
    response_model=BoardsHintsOut,
    responses=_errors(400),
    summary="Many boards (Dordle, Quordle ...): each board's candidates and the best next guesses for all",
)
async def post_board_hints(body: BoardsHintsIn, request: Request, ls: ListsDep) -> Response:
    """Ranked by ``raten.engine.boards``; a new position waits behind the work queue like hints."""
    entry = ls.get(body.list)
    query = boards_answers.BoardsQuery(
        entry.name,
        body.boards,
        tuple((r.guess, tuple(r.patterns)) for r in body.rows),
        body.top,
        body.strategy,
        body.limit,
        body.prior or entry.prior,
    )
    if boards_answers.cached(entry, query):
        content = boards_answers.answer_json(entry, query)
    else:
        limits: Limits = request.app.state.limits
        content = await limits.work_for(client_address(request.scope), request.app.state.rank_boards, query)
    return Response(content, media_type="application/json")


# --- games ---------------------------------------------------------------------------------


def _game(record: GameRecord, ls: Lists) -> Game:
    """A one-board record as the library's game."""
    return Game(
        ls.get(record.list).words,
        record.answer,
        hard=record.hard,
        mode=record.mode,
        number=record.number,
        history=tuple((w, int(c)) for w, c in record.history),  # type: ignore[arg-type]  # one board: int codes
    )


def _boards_game(record: GameRecord, ls: Lists) -> BoardsGame:
    """A many-board record as the library's game."""
    return BoardsGame(ls.get(record.list).words, record.answers, record.mode, record.number, record.guesses)


def _palette(request: Request) -> str:
    return request.query_params.get("palette") or "standard"


def _game_out(record: GameRecord, ls: Lists, st: Store, request: Request) -> GameOut:
    """What the player may see: no answer, share text or statistics before the end."""
    abandoned = record.status == "abandoned"
    if record.boards == 1:
        game = _game(record, ls)
        rows: list[RowOut | BoardsRowOut] = [RowOut(guess=w, pattern=format_pattern(c)) for w, c in game.history]
        keyboards = [game.keyboard()]
        solved_at = [game.tries if game.won else None]
        answers = [game.answer]
    else:
        multi = _boards_game(record, ls)
        game = multi  # type: ignore[assignment]  # the shared part: over, status, max_tries, words
        rows = [
            BoardsRowOut(guess=w, pattern=",".join(p or "-" for p in pats), patterns=pats)
            for w, pats in multi.patterns_text()
        ]
        keyboards = multi.keyboards()
        solved_at = [multi.solved_at(b) for b in range(multi.boards)]
        answers = list(multi.answers)
    over = game.over or abandoned
    finished = game.over and not abandoned
    mode: Mode = "daily" if record.mode == "daily" else "practice"
    stats = _stats_out(st, record.player, record.list, record.boards, mode, request) if finished else None
    return GameOut(
        id=record.id,
        list=record.list,
        language=game.words.language,
        mode=record.mode,  # type: ignore[arg-type]
        number=record.number,
        hard=record.hard,
        boards=record.boards,
        max_tries=game.max_tries,
        rows=rows,
        status="abandoned" if abandoned else game.status,  # type: ignore[arg-type]
        keyboard=keyboards[0] if record.boards == 1 else {},  # type: ignore[arg-type]
        keyboards=keyboards,  # type: ignore[arg-type]
        solved_at=solved_at,
        answer=",".join(answers) if over else None,
        answers=answers if over else None,
        share=_share_text(game, record, request) if finished else None,
        stats=stats,
    )


def _lang(request: Request) -> str:
    return i18n.pick_language(request.query_params.get("lang"), request.headers.get("accept-language"))


def _record_of(st: Store, player: str | None, list_name: str, boards: int, mode: str, today: int) -> Record:
    limit = variant(boards).limit
    games = st.finished(player, list_name, boards, mode) if player else []
    return daily_record(games, limit, today) if mode == "daily" else practice_record(games, limit)


def _seconds_to_midnight() -> int:
    """Seconds until the next daily game (the day changes at midnight UTC)."""
    now = datetime.now(UTC)
    midnight = datetime(now.year, now.month, now.day, tzinfo=UTC) + timedelta(days=1)
    return max(0, int((midnight - now).total_seconds()))


def _stats_out(st: Store, player: str | None, list_name: str, boards: int, mode: Mode, request: Request) -> StatsOut:
    """A mode and variant of the player's record, with today's number, the countdown and the
    share text of the game the record marks (today's daily game, or the last practice game)."""
    today = daily_number(request.app.state.today())
    record = _record_of(st, player, list_name, boards, mode, today)
    shown = None
    if player:
        if mode == "daily":
            shown = st.daily_game(player, list_name, today, boards)
        else:
            shown = st.last_finished(player, list_name, boards, mode)
    share = None
    if shown is not None and shown.status in ("won", "lost"):
        share = _share_of(shown, request)
    return StatsOut(
        list=list_name,
        boards=boards,
        mode=mode,
        max_tries=variant(boards).limit,
        **record.to_dict(),
        number=today,
        next_daily_seconds=_seconds_to_midnight(),
        share=share,
    )


def _share_of(record: GameRecord, request: Request) -> str:
    """The share text of a finished stored game, in the request's language and palette."""
    ls: Lists = request.app.state.lists
    return _share_text(_game(record, ls) if record.boards == 1 else _boards_game(record, ls), record, request)


def _share_text(game: Game | BoardsGame, record: GameRecord, request: Request) -> str:
    """A game's share text in the request's language ("practice" worded) and palette."""
    practice = i18n.t(_lang(request), "share_practice")
    return game.share_text(list_name=record.list, practice=practice, palette=_palette(request))


def _owned(st: Store, player: str | None, game_id: str) -> GameRecord:
    record = st.game(player, game_id) if player else None
    if record is None:
        raise NotFoundError(f"unknown game {game_id[:40]!r}")
    return record


@router.post("/games", response_model=GameOut, responses=_errors(400, 409), summary="Start or resume a game")
def post_game(
    body: GameIn,
    request: Request,
    response: Response,
    ls: ListsDep,
    st: StoreDep,
    palette: PaletteQuery = "standard",  # noqa: ARG001 - read from the request where the share text is made
) -> GameOut:
    """A practice game is new each time (the one still in play is given up: it counts as played
    once it has a guess). The daily game is made once per player, day and board count and then
    resumed; the rules (one daily game per language, hard mode changes only before the first
    guess, no hard mode on many boards) are ``raten.play``'s: this stores what they decide."""
    entry = ls.get(body.list)
    if body.boards > 1 and body.hard:
        name = variant(body.boards).name
        raise RatenError(f"{name} has no hard mode", "boards_hard", name=name)
    player = player_or_new(request, response)
    if body.mode == "practice":
        if body.boards == 1:
            answer = Game.practice(entry.words, hard=body.hard).answer
        else:
            answer = ",".join(BoardsGame.practice(entry.words, body.boards).answers)
        practice = st.create_game(player, entry.name, "practice", None, body.hard, answer, body.boards)
        return _game_out(practice, ls, st, request)
    entry = ls.daily_entry(entry.language)
    today: date = request.app.state.today()
    number = daily_number(today)
    record = st.daily_game(player, entry.name, number, body.boards)
    if record is None:
        secret = request.app.state.daily_secret
        if body.boards == 1:
            game = Game.daily(entry.words, today, hard=body.hard, secret=secret)
            hard, answer = game.hard, game.answer
        else:
            hard, answer = False, ",".join(BoardsGame.daily(entry.words, today, body.boards, secret).answers)
        try:
            record = st.create_game(player, entry.name, "daily", number, hard, answer, body.boards)
        except sqlite3.IntegrityError:  # the same player started it at the same moment
            record = st.daily_game(player, entry.name, number, body.boards)
            assert record is not None
    if record.boards == 1:
        wanted = _game(record, ls).with_hard(body.hard)
        if wanted.hard != record.hard:
            record = st.set_hard(record, wanted.hard)
    return _game_out(record, ls, st, request)


@router.get("/games/{game_id}", response_model=GameOut, responses=_errors(404), summary="A game of yours")
def get_game(
    game_id: str,
    request: Request,
    ls: ListsDep,
    st: StoreDep,
    palette: PaletteQuery = "standard",  # noqa: ARG001 - read from the request where the share text is made
) -> GameOut:
    return _game_out(_owned(st, current_player(request), game_id), ls, st, request)


@router.post(
    "/games/{game_id}/guesses",
    response_model=GameOut,
    responses=_errors(400, 404, 409),
    summary="Make a guess; refused words cost no try",
)
def post_guess(
    game_id: str,
    body: GuessIn,
    request: Request,
    ls: ListsDep,
    st: StoreDep,
    palette: PaletteQuery = "standard",  # noqa: ARG001 - read from the request where the share text is made
) -> GameOut:
    record = _owned(st, current_player(request), game_id)
    if record.status == "abandoned":
        raise GameError("this game is over", "game_over")
    rows: tuple[StoredRow, ...]
    if record.boards == 1:
        after = _game(record, ls).guess(body.guess)
        rows, status = after.history, after.status
    else:
        multi = _boards_game(record, ls).guess(body.guess)
        rows, status = tuple(multi.rows()), multi.status
    try:
        record = st.save_rows(record, rows, status)
    except ConflictError as e:
        raise GameConflictError(str(e), "conflict") from None
    return _game_out(record, ls, st, request)


@router.get(
    "/games/{game_id}/review",
    response_model=GameReviewOut,
    responses=_errors(400, 404, 409),
    summary="After the game: each guess judged exactly (skill, luck, regret), and the solver's own game",
)
async def get_review(game_id: str, request: Request, ls: ListsDep, st: StoreDep) -> dict:
    """The library's review of a finished one-board game: the server knows the answer once it is
    over (409 before). Behind the work queue like ``POST /api/review``."""
    record = _owned(st, current_player(request), game_id)
    if record.boards > 1:
        raise RatenError("the review is offered for games on one board", "review_boards")
    game = _game(record, ls)
    if not game.over:
        raise GameConflictError("the review is shown when the game is over", "not_over")
    limits: Limits = request.app.state.limits
    out = await limits.work_for(client_address(request.scope), _game_review, game)
    return _worded(out, _lang(request))


def _game_review(game: Game) -> dict:
    """The library's review of a played game, as plain JSON values (runs on a worker thread)."""
    from raten.play.review import review
    from raten.trees.values import Budget

    guesses = [w for w, _ in game.history]
    return review(game.words, guesses, game.answer, hard=game.hard, budget=Budget(seconds=REVIEW_SECONDS)).to_dict()


def _worded(review: dict, lang: str) -> dict:
    """A review's notes in the request's language (the library words them in English, with keys)."""
    review["notes"] = [i18n.notice_message(n, lang) for n in review["notes"]]
    for move in review["moves"]:
        move["notes"] = [i18n.notice_message(n, lang) for n in move["notes"]]
    return review


#: Search seconds one review may spend before its values become lower bounds ("at least").
REVIEW_SECONDS = 1.0


def _review(words, body: GameReviewIn) -> dict:
    """The library's review of one posted game, as plain JSON values (runs on a worker thread)."""
    from raten.play.review import review
    from raten.trees.values import Budget

    return review(
        words,
        body.guesses,
        body.answer,
        patterns=list(body.patterns) if body.patterns is not None else None,
        share=body.share,
        hard=body.hard,
        budget=Budget(seconds=REVIEW_SECONDS),
    ).to_dict()


@router.post(
    "/review",
    response_model=GameReviewOut,
    responses=_errors(400),
    summary="Judge a finished game: exact values, regret, skill and luck per guess",
)
async def post_review(body: GameReviewIn, request: Request, ls: ListsDep) -> dict:
    """Behind the work queue like uncached hints (a rate per address, 429; a bounded queue, 503)."""
    entry = ls.get(body.list)
    words = entry.with_prior(body.prior).words if body.prior else entry.words  # a prior's lists load once
    limits: Limits = request.app.state.limits
    return _worded(await limits.work_for(client_address(request.scope), _review, words, body), _lang(request))


@router.get("/stats", response_model=StatsOut, responses=_errors(400), summary="Your statistics on a list")
def get_stats(
    request: Request,
    ls: ListsDep,
    st: StoreDep,
    list_name: ListQuery = "en",
    boards: Annotated[int, Query(ge=1, le=4, description="1 Wordle, 2 Dordle, 4 Quordle.")] = 1,
    mode: Annotated[Mode, Query(description="Daily and practice games are counted apart.")] = "daily",
    palette: PaletteQuery = "standard",  # noqa: ARG001 - read from the request where the share text is made
) -> StatsOut:
    """Daily statistics are those of the daily list of the list's language (``de-ext`` counts on ``de``)."""
    entry = ls.get(list_name)
    if boards not in get_args(GameBoards):
        raise RatenError(f"games are played on 1, 2 or 4 boards, not {boards}", "game_boards", boards=boards)
    if mode == "daily":
        entry = ls.daily_entry(entry.language)
    return _stats_out(st, current_player(request), entry.name, boards, mode, request)
