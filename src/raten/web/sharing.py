"""What the nodes of one deployment share through Redis (``raten serve --redis URL``): a client
per event loop, and its faults turned into one log line and a fallback to the node's own state.

The rate limits (``raten.web.limits``) and the hint cache (``raten.web.service``) ask ``Shared``
for the client; when Redis cannot be used they count and cache per process until it works
again (tried again every ``RETRY_SECONDS``), so a Redis outage never refuses a player.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from typing import TYPE_CHECKING, Any

from raten.errors import RatenError, shorten

if TYPE_CHECKING:
    import redis.asyncio

#: The server's log (uvicorn prints it).
log = logging.getLogger("uvicorn.error")

ENV_REDIS = "RATEN_REDIS"
#: Seconds a call to Redis may take (connect or answer) before it counts as a fault.
TIMEOUT = 0.5
#: Seconds after a fault before Redis is tried again (meanwhile the node's own state is used).
RETRY_SECONDS = 5.0
_SCHEMES = ("redis://", "rediss://", "unix://")


def redacted(url: str) -> str:
    """The URL with any password replaced by ``***``, for messages and logs."""
    return re.sub(r"^([a-z]+://[^/@:]*):[^/@]*@", r"\1:***@", url)


def check_url(url: str) -> str:
    """``url`` if it names a Redis server, else a ``RatenError`` saying what it should look like."""
    if not url.startswith(_SCHEMES):
        raise RatenError(
            f"--redis {shorten(redacted(url))!r} is no Redis URL: redis://HOST:PORT/DB, rediss://... or unix:///PATH",
            "redis_url",
        )
    return url


class Shared:
    """One Redis server by URL, used by every node of a deployment."""

    def __init__(self, url: str) -> None:
        self.url = check_url(url)
        self.shown = redacted(url)
        self._client: tuple[asyncio.AbstractEventLoop, redis.asyncio.Redis] | None = None
        self._down_until = 0.0
        self._down: str | None = None

    def check(self) -> None:
        """Connect once now (at start, so a wrong URL or a server that is down is one clear line)."""
        import redis

        try:
            with redis.Redis.from_url(self.url, socket_timeout=2, socket_connect_timeout=2) as client:
                client.ping()
        except (redis.RedisError, OSError, ValueError) as e:
            reason = shorten(" ".join(str(e).split()), 300)
            raise RatenError(f"cannot use Redis at {self.shown}: {reason}", "redis", reason=reason) from None

    def client(self) -> redis.asyncio.Redis:
        """The client of the running event loop (a client's connections belong to one loop)."""
        import redis.asyncio

        loop = asyncio.get_running_loop()
        if self._client is None or self._client[0] is not loop:
            client = redis.asyncio.Redis.from_url(
                self.url, socket_timeout=TIMEOUT, socket_connect_timeout=TIMEOUT, health_check_interval=30
            )
            self._client = (loop, client)
        return self._client[1]

    @property
    def up(self) -> bool:
        """Whether to ask Redis now (False for ``RETRY_SECONDS`` after a fault)."""
        return time.monotonic() >= self._down_until

    def failed(self, error: BaseException, what: str) -> None:
        """Note a fault: one log line per outage; the node uses its own state for a while."""
        reason = shorten(" ".join(str(error).split()) or type(error).__name__, 300)
        if self._down is None:
            log.error("Redis at %s cannot be used: %s (%s per process until it works)", self.shown, reason, what)
        self._down = reason
        self._down_until = time.monotonic() + RETRY_SECONDS

    def worked(self) -> None:
        """Note a call that worked: one log line if it ends an outage."""
        if self._down is not None:
            log.warning("Redis at %s works again", self.shown)
            self._down = None

    @staticmethod
    def faults() -> tuple[type[BaseException], ...]:
        """The errors that mean Redis cannot be used now."""
        import limits.errors
        import redis

        return (redis.RedisError, OSError, asyncio.TimeoutError, limits.errors.StorageError)

    async def get(self, key: str) -> bytes | None:
        """The value at ``key``, or None (also when Redis cannot be used)."""
        if not self.up:
            return None
        try:
            value: Any = await self.client().get(key)
        except self.faults() as e:
            self.failed(e, "caching hints")
            return None
        self.worked()
        return value

    async def put(self, key: str, value: bytes, ttl: int) -> None:
        """Keep ``value`` at ``key`` for ``ttl`` seconds (nothing when Redis cannot be used)."""
        if not self.up:
            return
        try:
            await self.client().set(key, value, ex=ttl)
        except self.faults() as e:
            self.failed(e, "caching hints")
            return
        self.worked()
