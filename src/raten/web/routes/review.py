"""``/api/games/{id}/review`` and ``/api/review``: a finished game judged exactly
(``raten.play.review``), behind the work queue like uncached hints (a rate per address, 429; a
bounded queue, 503), with the notes worded in the request's language."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse

from raten.engine.words import WordSet
from raten.play.game import Game
from raten.trees import budget
from raten.trees.values import Budget
from raten.web import i18n
from raten.web.models import GameReviewIn, GameReviewOut, ReviewPendingOut
from raten.web.routes.common import GamesDep, LimitsDep, ListsDep, address, current_player, errors, language

router = APIRouter()

#: One review's budget, the library's default (``trees.budget``): ``REVIEW_CELLS`` of search work
#: (None: no limit) before its values become lower bounds ("at least"), ``REVIEW_SECONDS`` at most.
REVIEW_CELLS: int | None = budget.REVIEW_CELLS
REVIEW_SECONDS = budget.REVIEW_SECONDS


def _budget() -> Budget:
    """A fresh budget for one review (its clock starts now)."""
    return Budget.work(REVIEW_CELLS, REVIEW_SECONDS)


def _worded(review: dict, lang: str) -> dict:
    """A review's notes in the request's language (the library words them in English, with keys)."""
    review["notes"] = [i18n.notice_message(n, lang) for n in review["notes"]]
    for move in review["moves"]:
        move["notes"] = [i18n.notice_message(n, lang) for n in move["notes"]]
    return review


def game_review(game: Game) -> dict:
    """The library's review of a played game, as plain JSON values (runs on a worker thread)."""
    return game.exact_review(_budget()).to_dict()


def _review(words: WordSet, body: GameReviewIn) -> dict:
    """The library's review of one posted game, as plain JSON values (runs on a worker thread)."""
    from raten.play.review import review

    return review(
        words,
        body.guesses,
        body.answer,
        patterns=list(body.patterns) if body.patterns is not None else None,
        share=body.share,
        hard=body.hard,
        budget=_budget(),
        guarantee=body.guarantee,
        guarantee_over=body.guarantee_over,
    ).to_dict()


@router.get(
    "/games/{game_id}/review",
    response_model=GameReviewOut,
    responses={**errors(400, 404, 409), 202: {"model": ReviewPendingOut}},
    summary="After the game: each guess judged exactly (skill, luck, regret), and the solver's own game",
)
async def get_review(
    game_id: str,
    request: Request,
    games: GamesDep,
    wait: Annotated[bool, Query(description="Wait for a review still being made; false: 202 at once.")] = True,
) -> Any:
    """The library's review of a finished one-board game: the server knows the answer once it is
    over (409 before). It is made once, in the background on the work queue, and kept: then any
    server answers it at once. With ``wait=false`` a review not kept yet is answered
    ``202 {"status": "pending"}`` (ask again after ``Retry-After``)."""
    player = current_player(request)
    game = games.game(player, game_id)
    game.check_reviewable()
    reviews = request.app.state.reviews
    assert player is not None  # games.game found the game, so the player is known
    kept = await run_in_threadpool(reviews.kept, player, game_id)
    if kept is None:
        job = await reviews.start(player, game_id, game, address(request))
        if not wait:
            return JSONResponse({"status": "pending"}, status_code=202, headers={"Retry-After": "1"})
        kept = await asyncio.shield(job)
    return _worded(kept, language(request))


@router.post(
    "/review",
    response_model=GameReviewOut,
    responses=errors(400, 503),
    summary="Judge a finished game: exact values, regret, skill and luck per guess",
)
async def post_review(body: GameReviewIn, request: Request, ls: ListsDep, limits: LimitsDep) -> dict:
    entry = ls.get(body.list)
    words = ls.prior_state(entry.name, body.prior or entry.prior).words  # loaded by the warm-up (503 until)
    return _worded(await limits.work_for(address(request), _review, words, body), language(request))
