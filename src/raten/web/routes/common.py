"""What the API routers share: the app's services as dependencies, the player cookie, the
query parameters several routes take and the error answers they document."""

from __future__ import annotations

import re
from typing import Annotated

from fastapi import Depends, Query, Request, Response

from raten.web import i18n
from raten.web.games import Games
from raten.web.limits import Limits, client_address
from raten.web.models import ErrorOut, Palette
from raten.web.service import Lists

PLAYER_COOKIE = "raten_player"
_PLAYER_ID = re.compile(r"[A-Za-z0-9_-]{32}")
_TEN_YEARS = 10 * 365 * 24 * 3600


def errors(*codes: int) -> dict:
    """The OpenAPI ``responses`` of routes that may answer ``codes`` (as ``ErrorOut``)."""
    return {c: {"model": ErrorOut} for c in codes}


# Dependencies are coroutines so that FastAPI does not send them through the threadpool.
async def lists(request: Request) -> Lists:
    """The app's word lists and solver answers."""
    return request.app.state.lists


async def games(request: Request) -> Games:
    """The app's stored games."""
    return request.app.state.games


async def limits(request: Request) -> Limits:
    """The app's rates and work queue."""
    return request.app.state.limits


ListsDep = Annotated[Lists, Depends(lists)]
GamesDep = Annotated[Games, Depends(games)]
LimitsDep = Annotated[Limits, Depends(limits)]
ListQuery = Annotated[str, Query(alias="list", max_length=40, description="Word list name (see /api/lists).")]
PaletteQuery = Annotated[
    Palette, Query(description="Share squares: standard, or high (the high-contrast orange and blue).")
]


def address(request: Request) -> str:
    """The client's address, which the rates of uncached work count by."""
    return client_address(request.scope)


def language(request: Request) -> str:
    """The request's language: ``?lang=``, else Accept-Language."""
    return i18n.pick_language(request.query_params.get("lang"), request.headers.get("accept-language"))


def current_player(request: Request) -> str | None:
    """The player of the cookie, if it names one this server made."""
    player = request.cookies.get(PLAYER_COOKIE)
    if player and _PLAYER_ID.fullmatch(player) and request.app.state.store.player_exists(player):
        return player
    return None


def player_or_new(request: Request, response: Response) -> str:
    """The cookie's player, or a new one whose opaque id is set as an HttpOnly cookie (Secure
    when served over HTTPS); one address makes new players only so fast (429)."""
    player = current_player(request)
    if player is None:
        request.app.state.limits.hit_from_thread("new_player", address(request))
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
