"""``/api/hints`` and ``/api/hints/boards``: the solver on one board and on many.

Cached answers are sent from the event loop; new ones are ranked behind the work queue
(``raten.web.limits``: a rate per address, 429; a bounded queue, 503), so a flood cannot hold
up the rest.
"""

from __future__ import annotations

from functools import partial

from fastapi import APIRouter, Request, Response

from raten.web import boards
from raten.web.models import BoardsHintsIn, BoardsHintsOut, HintsIn, HintsOut
from raten.web.routes.common import LimitsDep, ListsDep, address, errors
from raten.web.service import HintQuery

router = APIRouter()


@router.post(
    "/hints",
    response_model=HintsOut,
    responses=errors(400),
    summary="Candidates, best next guesses and constraints after some rows",
)
async def post_hints(body: HintsIn, request: Request, ls: ListsDep, limits: LimitsDep) -> Response:
    """Ranked by ``raten.web.service.Lists``."""
    query = HintQuery(
        name=body.list,
        rows=tuple((r.guess, r.pattern) for r in body.rows),
        hard=body.hard,
        top=body.top,
        strategy=body.strategy,
        limit=body.limit,
        prior=body.prior,
        answers_only=body.answers_only,
        guarantee=body.guarantee,
        guarantee_over=body.guarantee_over,
    )
    rank = partial(limits.work_for, address(request), request.app.state.rank)
    content = await ls.answer(query, rank, request.app.state.shared)
    return Response(content, media_type="application/json")


@router.post(
    "/hints/boards",
    response_model=BoardsHintsOut,
    responses=errors(400),
    summary="Many boards (Dordle, Quordle ...): each board's candidates and the best next guesses for all",
)
async def post_board_hints(body: BoardsHintsIn, request: Request, ls: ListsDep, limits: LimitsDep) -> Response:
    """Ranked by ``raten.engine.boards``; a new position waits behind the work queue like hints."""
    entry = ls.get(body.list)
    query = boards.BoardsQuery(
        name=entry.name,
        boards=body.boards,
        rows=tuple((r.guess, tuple(r.patterns)) for r in body.rows),
        top=body.top,
        strategy=body.strategy,
        limit=body.limit,
        prior=body.prior or entry.prior,
    )
    ls.prior_state(entry.name, query.prior)  # 503 while the warm-up loads that prior's table
    content = await boards.answer(
        entry, query, partial(limits.work_for, address(request), request.app.state.rank_boards)
    )
    return Response(content, media_type="application/json")
