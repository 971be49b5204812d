"""Server plumbing against abuse: request rates per address or player (the ``limits`` package,
counted per process or across nodes in Redis), a bounded work queue for uncached work, and an
ASGI guard that caps request bodies and rates before routing.

Nothing here knows about Wordle; the app wires it up (see ``raten.web.app``).
"""

from __future__ import annotations

import asyncio
import math
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from dataclasses import dataclass, fields
from typing import Any, TypeVar

import anyio.from_thread
import limits
import limits.aio.storage
import limits.aio.strategies
from fastapi import HTTPException
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from raten.web.sharing import Shared

T = TypeVar("T")


class Refused(HTTPException):
    """A request the server will not serve now: a status, a code for programs, a message,
    and how many seconds to wait (``Retry-After``) when waiting helps."""

    def __init__(
        self, status: int, code: str, message: str, retry_after: float | None = None, **params: object
    ) -> None:
        headers = {"Retry-After": str(max(1, math.ceil(retry_after)))} if retry_after is not None else None
        super().__init__(status, message, headers=headers)
        self.code = code
        self.message = message
        self.params = params

    def response(self, message: str | None = None) -> JSONResponse:
        """The refusal as the API's JSON error (``message``: its text in the request's language)."""
        body = {"error": message or self.message, "code": self.code}
        return JSONResponse(body, self.status_code, headers=self.headers)


#: Words a refusal in the request's language: (refusal, Accept-Language header) -> text.
Wording = Callable[[Refused, str | None], str]


def too_many(retry_after: float) -> Refused:
    """429: this address or player sends faster than the server allows."""
    return Refused(429, "too_many_requests", "too many requests; slow down", retry_after)


def too_large(limit: int) -> Refused:
    """413: the request body is larger than any request the API takes."""
    return Refused(413, "too_large", f"the request body is larger than {limit} bytes", limit=limit)


class WorkQueue:
    """Runs CPU-bound calls on ``workers`` threads with at most ``depth`` more waiting, so
    expensive work cannot pile up; beyond that it refuses at once with 503 and Retry-After."""

    def __init__(
        self,
        workers: int = 1,
        depth: int = 8,
        retry_after: float = 1.0,
        executor: Callable[[], Executor] | None = None,
    ) -> None:
        """``executor``: makes the pool the calls run on (default: ``workers`` threads)."""
        if workers < 1 or depth < 0:
            raise ValueError("a work queue needs at least one worker and a depth of at least 0")
        self.workers, self.depth, self.retry_after = workers, depth, retry_after
        self._make = executor or (lambda: ThreadPoolExecutor(workers, thread_name_prefix="raten-work"))
        self._pool: Executor | None = None
        self._pending = 0
        self._lock = threading.Lock()
        self._stopped = False

    @property
    def pending(self) -> int:
        """Calls running or waiting now."""
        return self._pending

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` on a worker thread, or ``Refused`` (503) when the queue is full.

        A call counts until it has finished on its thread, even if its client went away.
        """
        with self._lock:
            if self._pending >= self.workers + self.depth:
                raise Refused(503, "busy", "the server is busy; try again shortly", self.retry_after)
            self._pending += 1

        try:
            with self._lock:
                future = self._started().submit(fn, *args)
        except BaseException:
            self._done(None)
            raise
        future.add_done_callback(self._done)
        return await asyncio.wrap_future(future)

    def prime(self, fn: Callable[[], object]) -> list[Future]:
        """Start the pool now and run ``fn`` once per worker (to load what the workers need)."""
        with self._lock:
            pool = self._started()
            return [pool.submit(fn) for _ in range(self.workers)]

    def _started(self) -> Executor:
        """The pool, made if there is none (under the lock); none after ``stop``: a call that
        arrives while the server shuts down must not start processes that outlive it."""
        if self._stopped:
            raise Refused(503, "stopping", "the server is stopping", self.retry_after)
        if self._pool is None:
            self._pool = self._make()
        return self._pool

    def _done(self, _future: object) -> None:
        with self._lock:
            self._pending -= 1

    def close(self) -> None:
        """Drop the waiting calls and let the running ones finish on their own (a later call starts anew)."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def start(self) -> None:
        """Take calls again after a ``stop`` (the app's start-up: a test enters one app more than once)."""
        with self._lock:
            self._stopped = False

    def stop(self, grace: float = 5.0) -> None:
        """End for good, as the server shuts down: waiting calls are dropped and worker processes
        are ended now (``end_pool``), so none outlives the server."""
        with self._lock:
            self._stopped = True
            pool, self._pool = self._pool, None
        if pool is not None:
            end_pool(pool, grace)


def end_pool(pool: Executor, grace: float = 5.0) -> None:
    """Shut ``pool`` down without waiting for its calls; a process pool's processes get SIGTERM,
    then SIGKILL after ``grace`` seconds."""
    # ProcessPoolExecutor keeps its processes here (3.8 to 3.13); a thread pool has none.
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    deadline = time.monotonic() + grace
    for process in processes:
        process.join(max(0.0, deadline - time.monotonic()))
        if process.is_alive():
            process.kill()
            process.join(1.0)


@dataclass(frozen=True)
class Policy:
    """How much one client may ask and how large a body may be. Each rate is the ``limits``
    package's notation (``"60 per 3 seconds"``: a burst of 60, then on average 20 a second),
    counted in a sliding window per key."""

    max_body: int = 128 * 1024
    #: The body of ``POST /api/import`` (a file of up to ``raten.web.transfer.MAX_GAMES`` games).
    max_import_body: int = 8 * 1024 * 1024
    #: Requests per client address (files under /static are not counted).
    address: str = "60 per 3 seconds"
    #: Requests per player cookie.
    player: str = "30 per 3 seconds"
    #: Uncached work (hints to rank, reviews) per address, before the work queue.
    work: str = "20 per 5 seconds"
    #: New players per address.
    new_player: str = "10 per 50 seconds"
    #: Codes made and games imported per address (a code is 40 random bits: this keeps guessing hopeless).
    transfer: str = "20 per hour"
    #: Seconds a refusal (429, 503) is held back at most: a client that ignores Retry-After and
    #: asks again at once then costs one cheap answer a second per connection, not thousands.
    tarpit: float = 1.0

    def rate(self, kind: str) -> limits.RateLimitItem:
        """The rate of ``kind`` (one of ``RATES``) as the ``limits`` package reads it."""
        return limits.parse(getattr(self, kind))


#: What the rates count, by the name of their ``Policy`` field.
RATES = tuple(f.name for f in fields(Policy) if f.type == "str")


class Rates:
    """Hits per kind and key in sliding windows (``limits``): in this process's memory, or in Redis
    when ``shared`` names it, so every node counts the same hits. While Redis cannot be used the
    hits are counted here (one log line; ``raten.web.sharing``), never refused for it."""

    def __init__(self, policy: Policy, shared: Shared | None = None) -> None:
        self.items = {kind: policy.rate(kind) for kind in RATES}
        self.shared = shared
        self._local: tuple[asyncio.AbstractEventLoop, limits.aio.strategies.RateLimiter] | None = None
        self._remote: tuple[asyncio.AbstractEventLoop, limits.aio.strategies.RateLimiter] | None = None

    def _limiter(self, remote: bool) -> limits.aio.strategies.RateLimiter:
        """The limiter of the running event loop (storages hold locks and connections of one loop)."""
        loop = asyncio.get_running_loop()
        held = self._remote if remote else self._local
        if held is None or held[0] is not loop:
            if remote:
                assert self.shared is not None
                storage: limits.aio.storage.Storage = limits.aio.storage.RedisStorage(
                    "async+redis://",
                    implementation="redispy",
                    wrap_exceptions=True,
                    key_prefix="raten:limits",
                    connection_pool=self.shared.client().connection_pool,  # type: ignore[arg-type]  # passed on as is
                )
            else:
                storage = limits.aio.storage.MemoryStorage()
            held = (loop, limits.aio.strategies.SlidingWindowCounterRateLimiter(storage))
            if remote:
                self._remote = held
            else:
                self._local = held
        return held[1]

    async def hit(self, kind: str, key: str) -> None:
        """Count one request of ``kind`` for ``key``, or raise ``too_many`` (429) with the seconds to wait."""
        item = self.items[kind]
        if self.shared is not None and self.shared.up:
            try:
                allowed, wait = await self._hit(self._limiter(remote=True), item, kind, key)
            except self.shared.faults() as e:
                self.shared.failed(e, "counting rate limits")
            else:
                self.shared.worked()
                if not allowed:
                    raise too_many(wait)
                return
        allowed, wait = await self._hit(self._limiter(remote=False), item, kind, key)
        if not allowed:
            raise too_many(wait)

    @staticmethod
    async def _hit(
        limiter: limits.aio.strategies.RateLimiter, item: limits.RateLimitItem, kind: str, key: str
    ) -> tuple[bool, float]:
        if await limiter.hit(item, kind, key):
            return True, 0.0
        stats = await limiter.get_window_stats(item, kind, key)
        return False, max(0.0, stats.reset_time - time.time())


def client_address(scope: Scope) -> str:
    """The client's address as the server sees it (after trusted proxy headers, if any)."""
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


class Guard:
    """ASGI middleware in front of the app: requests per address and per player cookie
    (429), and the body size, refused by its Content-Length before reading and counted
    while reading otherwise (413). Refusals are JSON and cost no routing."""

    def __init__(self, app: ASGIApp, limits: Limits, player_cookie: str, wording: Wording | None = None) -> None:
        self.app, self.limits, self.player_cookie, self.wording = app, limits, player_cookie, wording
        self.policy = limits.policy

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        try:
            await self._check(scope)
        except Refused as refused:
            await asyncio.sleep(self.limits.hold(refused))
            text = self.wording(refused, _header(scope, b"accept-language")) if self.wording else None
            await refused.response(text)(scope, receive, send)
            return
        await self.app(scope, self._capped(receive, self._cap(scope)), send)

    def _cap(self, scope: Scope) -> int:
        """The body cap of this request (an import's file may be larger than any other body)."""
        return self.policy.max_import_body if scope["path"] == "/api/import" else self.policy.max_body

    async def _check(self, scope: Scope) -> None:
        if not scope["path"].startswith("/static/"):
            await self.limits.rates.hit("address", client_address(scope))
        player = _cookie(scope, self.player_cookie)
        if player:
            await self.limits.rates.hit("player", player[:64])
        length = _header(scope, b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self._cap(scope)):
            raise too_large(self._cap(scope))

    def _capped(self, receive: Receive, cap: int) -> Receive:
        """``receive`` that raises ``too_large`` (handled as 413 JSON) once the body passes ``cap``."""
        seen = 0

        async def capped() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > cap:
                    raise too_large(cap)
            return message

        return capped


class Limits:
    """The rates and the work queue of one app, made from a ``Policy`` (rates shared through
    Redis when ``shared`` is given)."""

    def __init__(
        self,
        policy: Policy,
        workers: int = 1,
        depth: int = 8,
        executor: Callable[[], Executor] | None = None,
        shared: Shared | None = None,
    ) -> None:
        self.policy = policy
        self.rates = Rates(policy, shared)
        self.queue = WorkQueue(workers, depth, executor=executor)

    def hold(self, refused: Refused) -> float:
        """How long to hold back a refusal before answering it (the tarpit)."""
        if refused.status_code not in (429, 503):
            return 0.0
        return min(self.policy.tarpit, float(refused.headers.get("Retry-After", 1) if refused.headers else 1))

    def hit_from_thread(self, kind: str, key: str) -> None:
        """``Rates.hit`` from a request's worker thread (a sync endpoint's)."""
        anyio.from_thread.run(self.rates.hit, kind, key)

    async def work_for(self, address: str, fn: Callable[..., T], *args: Any) -> T:
        """Uncached work for one address: its own rate (429), then the shared queue (503)."""
        await self.rates.hit("work", address)
        return await self.queue.run(fn, *args)


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return value.decode("latin-1").strip()
    return None


def _cookie(scope: Scope, name: str) -> str | None:
    raw = _header(scope, b"cookie")
    if not raw:
        return None
    for part in raw.split(";"):
        key, _, value = part.strip().partition("=")
        if key == name and value:
            return value
    return None
