"""``/api/health``: whether this node can serve players now (its database answers), for load
balancers, process supervisors and the start of a cluster."""

from __future__ import annotations

from fastapi import APIRouter, Request

from raten.web.models import HealthOut
from raten.web.routes.common import errors

router = APIRouter()


@router.get("/health", response_model=HealthOut, responses=errors(503), summary="Whether this server can serve")
def get_health(request: Request) -> HealthOut:
    """200 once the lists are loaded and the database answers; ``503 store_unavailable`` while it
    does not (``shared`` says whether Redis is in use now, or None without ``--redis``)."""
    state = request.app.state
    state.store.ping()
    shared = state.shared
    return HealthOut(status="ok", database=state.store.engine.name, shared=None if shared is None else shared.up)
