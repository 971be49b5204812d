"""uvicorn's HTTP protocol (httptools) made to hold without a proxy in front: time limits on the
request head and body, a cap on the head's size, on connections per address and in all, and
every refusal JSON (uvicorn answers its own in plain text).

uvicorn alone waits forever for the first request of a connection and for a body once the
head is complete, reads a head of any size, and takes connections until ``limit_concurrency``
and then answers everyone its plain-text 503: a few clients that send slowly lock everyone out.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections import Counter
from dataclasses import asdict, dataclass
from typing import ClassVar

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

#: Where ``guarded_protocol`` leaves the limits for worker processes (``raten serve --workers``).
ENV_GUARD = "RATEN_CONNECTION_GUARD"


@dataclass(frozen=True)
class ConnectionPolicy:
    """What one connection may take before the server closes it, and how many there may be."""

    #: Seconds to send a whole request head, after the connection opened or its last answer.
    header_timeout: float = 10.0
    #: Seconds to send a whole request body once its head is complete.
    body_timeout: float = 10.0
    #: Bytes of a request head (request line and headers); beyond: 431.
    max_head: int = 32 * 1024
    #: Open connections from one address (0: no cap; a proxy in front counts as one address).
    per_address: int = 64
    #: Open connections in all; beyond, a new one is answered 503 and closed.
    total: int = 1000


def _json(status: int, reason: str, code: str, message: str, retry_after: int | None = None) -> bytes:
    """A whole HTTP/1.1 response with the API's JSON error, closing the connection."""
    body = json.dumps({"error": message, "code": code}).encode()
    head = [f"HTTP/1.1 {status} {reason}", "content-type: application/json", f"content-length: {len(body)}"]
    if retry_after is not None:
        head.append(f"retry-after: {retry_after}")
    head += ["connection: close", "", ""]
    return "\r\n".join(head).encode() + body


class GuardedProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with the limits of ``policy`` (one per process)."""

    policy = ConnectionPolicy(**json.loads(os.environ.get(ENV_GUARD, "{}")))
    #: Open connections by address, in this process.
    open_by_address: ClassVar[Counter[str]] = Counter()

    _timer: asyncio.TimerHandle | None = None
    _in_head = True
    _head_bytes = 0
    _address = ""
    _counted = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]  # as uvicorn's
        super().connection_made(transport)
        policy = self.policy
        self._address = self.client[0] if self.client else ""
        if len(self.connections) > policy.total:
            self._refuse(_json(503, "Service Unavailable", "busy", "the server is busy; try again shortly", 1))
            return
        if policy.per_address and self.open_by_address[self._address] >= policy.per_address:
            message = f"at most {policy.per_address} connections from one address"
            self._refuse(_json(429, "Too Many Requests", "too_many_connections", message, 1))
            return
        self.open_by_address[self._address] += 1
        self._counted = True
        self._await_head()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        if self._counted:
            self._counted = False
            self.open_by_address[self._address] -= 1
            if self.open_by_address[self._address] <= 0:
                del self.open_by_address[self._address]
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.transport.is_closing():
            return
        if self._in_head:
            self._head_bytes += len(data)
        super().data_received(data)
        if self._in_head and self._head_bytes > self.policy.max_head:
            message = f"the request head is larger than {self.policy.max_head} bytes"
            self._refuse(_json(431, "Request Header Fields Too Large", "headers_too_large", message))

    def on_headers_complete(self) -> None:
        self._in_head = False
        self._disarm()
        super().on_headers_complete()
        self._arm(self.policy.body_timeout, self._body_expired)  # until on_message_complete

    def on_message_complete(self) -> None:
        self._disarm()
        super().on_message_complete()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._await_head()

    def send_400_response(self, msg: str) -> None:  # noqa: ARG002 - uvicorn's plain text, replaced
        """A request that is not HTTP (an unknown method, a bad Content-Length, a NUL in a header): JSON 400."""
        self._refuse(_json(400, "Bad Request", "bad_http", "the request is not valid HTTP/1.1"))

    # --- timers -------------------------------------------------------------------------

    def _await_head(self) -> None:
        self._in_head = True
        self._head_bytes = 0
        self._arm(self.policy.header_timeout, self._head_expired)

    def _arm(self, seconds: float, expired: object) -> None:
        self._disarm()
        self._timer = self.loop.call_later(seconds, expired)  # type: ignore[arg-type]

    def _disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _head_expired(self) -> None:
        """No whole head in time: close (a client that sent nothing is owed no answer)."""
        self._timer = None
        if self._in_head:
            if self._head_bytes:
                message = f"the request head did not arrive within {self.policy.header_timeout:g} s"
                self._refuse(_json(408, "Request Timeout", "timeout", message))
            else:
                self.transport.close()

    def _body_expired(self) -> None:
        """The body did not arrive in time: 408 if no answer has begun, and close either way."""
        self._timer = None
        cycle = self.cycle
        if cycle is not None and not cycle.response_started:
            message = f"the request body did not arrive within {self.policy.body_timeout:g} s"
            self._refuse(_json(408, "Request Timeout", "timeout", message))
        else:
            self.transport.close()

    def _refuse(self, response: bytes) -> None:
        """Answer ``response`` and close the connection (the app's task, if any, sees a disconnect)."""
        self._disarm()
        if not self.transport.is_closing():
            self.transport.write(response)
            self.transport.close()


def guarded_protocol(policy: ConnectionPolicy) -> type[GuardedProtocol]:
    """The protocol class for ``uvicorn.run(http=...)`` with these limits.

    One module-level class (uvicorn pickles it for ``--workers``); the limits go to this
    process through the class and to spawned workers through the environment."""
    os.environ[ENV_GUARD] = json.dumps(asdict(policy))
    GuardedProtocol.policy = policy
    return GuardedProtocol
