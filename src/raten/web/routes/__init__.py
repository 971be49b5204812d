"""The web face's routers, one per thing it serves: the word lists (``lists``), the solver
(``solver``), the game (``game``), the review (``review``), the player's
games and their transfer (``history``), the node's health (``health``) under
``/api``, and the pages (``pages``); the device files are ``raten.web.device``'s. Each handler
translates the request into one call of the library (or of ``raten.web.games``,
``raten.web.service``) and back."""

from __future__ import annotations

from fastapi import APIRouter

from raten.web.routes import game, health, history, lists, review, solver
from raten.web.routes.common import errors


def api_router() -> APIRouter:
    """Every ``/api`` route. Any of them may answer these: invalid input, a body over the cap, a
    rate limit, a full work queue (with Retry-After), and an unexpected fault (JSON, no traceback)."""
    api = APIRouter(prefix="/api", responses=errors(413, 422, 429, 500, 503))
    for part in (lists, solver, game, review, history, health):
        api.include_router(part.router)
    return api
