"""Exact reviews of stored games, made in the background on the work queue and kept in the
store, so that a review is computed once per game and any node answers it afterwards.

A page asks for a review and is told it is being made (``start``) until it is kept (``kept``);
one job per game runs at a time on a node, and a job lost with its node is started again by the
next request that finds no review kept."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

from raten.play.game import Game
from raten.web.limits import Limits
from raten.web.store import Store


class Reviews:
    """The reviews of one node: kept ones from the store, new ones made on its work queue."""

    def __init__(self, store: Store, limits: Limits, review: Callable[[Game], dict[str, Any]]) -> None:
        """``review``: makes the review of a finished game as plain JSON values (on a worker)."""
        self.store = store
        self.limits = limits
        self.review = review
        self._jobs: dict[tuple[str, str], asyncio.Future] = {}

    def kept(self, player: str, game_id: str) -> dict[str, Any] | None:
        """The review kept for a game of the player's, or None."""
        text = self.store.review(player, game_id)
        return json.loads(text) if text is not None else None

    def pending(self, player: str, game_id: str) -> bool:
        """Whether this node is making the game's review now."""
        job = self._jobs.get((player, game_id))
        return job is not None and not job.done()

    async def start(self, player: str, game_id: str, game: Game, address: str) -> asyncio.Future:
        """The job making the review of a finished game (a new one counts against the address's
        rate of uncached work, 429; a full queue fails the job with 503, and a later request starts
        it again)."""
        key = (player, game_id)
        job = self._jobs.get(key)
        if job is None:
            await self.limits.rates.hit("work", address)
            job = self._jobs[key] = asyncio.ensure_future(self._make(player, game_id, game))
            job.add_done_callback(lambda done: self._ended(key, done))
        return job

    def _ended(self, key: tuple[str, str], job: asyncio.Future) -> None:
        """A job ended: forget it (a failed one is started again by the next request; its error
        goes to those who waited for it, and is taken here so that nobody is warned of it)."""
        self._jobs.pop(key, None)
        if not job.cancelled():
            job.exception()

    async def _make(self, player: str, game_id: str, game: Game) -> dict[str, Any]:
        review = await self.limits.queue.run(self.review, game)
        await asyncio.to_thread(self.store.keep_review, player, game_id, json.dumps(review))
        return review
