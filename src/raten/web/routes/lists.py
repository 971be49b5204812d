"""``/api/lists``, ``/api/letters`` and ``/api/openers``: the word lists a server offers, their
letter statistics and their best first guesses (ranked at start-up)."""

from __future__ import annotations

from functools import partial
from typing import Annotated, Literal

from fastapi import APIRouter, Query, Request

from raten.web.models import LettersOut, ListOut, ListsOut, OpenersOut, Prior, prior_of
from raten.web.routes.common import LimitsDep, ListQuery, ListsDep, address, errors
from raten.wordlists.stats import letter_stats

router = APIRouter()


@router.get("/lists", response_model=ListsOut, summary="The word lists this server offers")
def get_lists(ls: ListsDep) -> ListsOut:
    return ListsOut(
        lists=[
            ListOut(
                name=e.name,
                language=e.language,
                description=e.description,
                solutions=len(e.words.list_solutions),
                allowed=len(e.words.allowed),
                prior=prior_of(e.prior),
                length=e.words.length,
                letters=e.words.alphabet.letters,
            )
            for e in ls.entries.values()
        ]
    )


@router.get(
    "/letters",
    response_model=LettersOut,
    responses=errors(400),
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
    words = entry.words.list_solutions if of == "solutions" else entry.words.allowed
    return {"list": entry.name, "of": of, **letter_stats(words, entry.words.alphabet).to_dict()}


@router.get(
    "/openers",
    response_model=OpenersOut,
    responses=errors(400, 503),
    summary="The best first guesses of a list (ranked at start-up)",
)
async def get_openers(
    request: Request,
    ls: ListsDep,
    limits: LimitsDep,
    list_name: ListQuery = "en",
    top: Annotated[int, Query(ge=1, le=50, description="How many openers.")] = 20,
    prior: Annotated[Prior | None, Query(description="uniform or frequency; default the list's own.")] = None,
) -> dict:
    """Another prior's openers are ranked by the warm-up (503 ``warming_up`` until then)."""
    entry = ls.get(list_name)
    chosen = prior or entry.prior
    rank = partial(limits.work_for, address(request), request.app.state.rank)
    openers = await ls.openers_answer(entry.name, chosen, top, rank)
    return {"list": entry.name, "prior": chosen, "openers": [h.to_dict() for h in openers]}
