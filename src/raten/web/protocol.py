"""uvicorn's HTTP protocol with a time limit on the request head: uvicorn itself waits
forever for the first request of a connection, so half-open connections pile up."""

from __future__ import annotations

import asyncio

from uvicorn.protocols.http.h11_impl import H11Protocol

try:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol as _Base
except ImportError:  # httptools is optional (uvicorn[standard])
    _Base = H11Protocol  # type: ignore[assignment,misc]


class HeaderTimeout(_Base):
    """Closes a connection that has not sent a whole request head ``header_timeout`` seconds
    after it opened or after its last response."""

    header_timeout: float = 10.0
    _head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]  # as uvicorn's
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.cycle is not None and not self.cycle.response_complete:
            self._disarm()  # a request head arrived

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._head_timer = self.loop.call_later(self.header_timeout, self._expire)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _expire(self) -> None:
        self._head_timer = None
        if self.cycle is None or self.cycle.response_complete:
            self.transport.close()


def with_header_timeout(seconds: float) -> type[HeaderTimeout]:
    """The protocol class for ``uvicorn.run(http=...)`` with this head time limit."""
    return type("HeaderTimeout", (HeaderTimeout,), {"header_timeout": seconds})
