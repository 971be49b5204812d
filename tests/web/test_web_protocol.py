"""The server protocol without a proxy in front (``raten.web.protocol``): heads and bodies that
do not arrive in time, heads too large, too many connections from one address or in all,
requests that are not HTTP: each ends with a JSON answer (or a plain close when nothing was
sent), and the server keeps answering everyone else."""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time

import pytest
import uvicorn

from raten.web.protocol import ConnectionPolicy, GuardedProtocol, guarded_protocol


async def echo(scope, receive, send) -> None:
    """Reads the whole body and answers its length."""
    if scope["type"] != "http":
        return
    size = 0
    while True:
        message = await receive()
        size += len(message.get("body", b""))
        if not message.get("more_body"):
            break
    body = json.dumps({"size": size}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": body})


@contextlib.contextmanager
def serving(policy: ConnectionPolicy):
    """uvicorn with the guarded protocol on a free loopback port, until the block ends."""
    old = GuardedProtocol.policy
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    config = uvicorn.Config(
        echo, port=port, http=guarded_protocol(policy), log_level="critical", lifespan="off", limit_concurrency=None
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while not server.started:
            assert time.monotonic() < deadline, "uvicorn did not start"
            time.sleep(0.02)
        yield port
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        GuardedProtocol.policy = old


def connect(port: int) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=30)


def read_all(c: socket.socket) -> bytes:
    """Everything until the server closes (the 30 s socket timeout would fail the test)."""
    chunks = []
    while chunk := c.recv(65536):
        chunks.append(chunk)
    return b"".join(chunks)


def answer(raw: bytes) -> tuple[int, dict]:
    head, _, body = raw.partition(b"\r\n\r\n")
    assert b"content-type: application/json" in head.lower(), raw[:300]
    return int(head.split()[1]), json.loads(body)


def fine(port: int) -> bool:
    """Whether a plain request with a body is answered (others are served meanwhile)."""
    with connect(port) as c:
        c.sendall(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc")
        return read_all(c).startswith(b"HTTP/1.1 200")


@pytest.mark.slow
def test_a_silent_connection_is_closed_after_the_head_timeout() -> None:
    with serving(ConnectionPolicy(header_timeout=0.3)) as port, connect(port) as c:
        assert c.recv(1) == b""  # closed by the server, not by the 30 s socket timeout


@pytest.mark.slow
def test_a_head_that_does_not_arrive_in_time_is_a_json_408() -> None:
    with serving(ConnectionPolicy(header_timeout=0.3)) as port, connect(port) as c:
        c.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
        status, body = answer(read_all(c))
        assert status == 408 and body == {"error": "the request head did not arrive within 0.3 s", "code": "timeout"}


@pytest.mark.slow
def test_a_body_that_does_not_arrive_in_time_is_a_json_408_and_others_are_served() -> None:
    with serving(ConnectionPolicy(body_timeout=0.5)) as port, connect(port) as c:
        c.sendall(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nab")  # 98 bytes never come
        assert fine(port)
        status, body = answer(read_all(c))
        assert status == 408 and body["code"] == "timeout"


@pytest.mark.slow
def test_a_body_that_arrives_and_keep_alive_work() -> None:
    with serving(ConnectionPolicy(body_timeout=0.5, header_timeout=5)) as port, connect(port) as c:
        for _ in range(2):
            c.sendall(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello")
            reply = c.recv(65536)
            assert reply.startswith(b"HTTP/1.1 200") and reply.endswith(b'{"size": 5}')
            time.sleep(0.7)  # longer than the body timeout: it must not run between requests


def test_a_head_over_the_cap_is_a_json_431_without_reading_it_all() -> None:
    with serving(ConnectionPolicy(max_head=4096)) as port, connect(port) as c:
        c.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: ")
        sent = 0
        with contextlib.suppress(OSError):  # the server closes while we still send
            for _ in range(1000):  # 64 MB if it never stopped reading
                c.sendall(b"a" * 65536)
                sent += 65536
        status, body = answer(read_all(c))
        assert status == 431 and body["code"] == "headers_too_large"
        assert sent < 64 * 2**20
        assert fine(port)


def test_connections_per_address_are_capped_with_a_json_429() -> None:
    with serving(ConnectionPolicy(per_address=3)) as port:
        held = [connect(port) for _ in range(3)]
        with connect(port) as extra:
            status, body = answer(read_all(extra))
            assert status == 429 and body["code"] == "too_many_connections"
        held.pop().close()
        deadline = time.monotonic() + 30
        while not fine(port):  # the closed one's place is free once the server has seen it go
            assert time.monotonic() < deadline
            time.sleep(0.05)
        for c in held:
            c.close()


def test_connections_in_all_are_capped_with_a_json_503() -> None:
    with serving(ConnectionPolicy(per_address=0, total=2)) as port:
        held = [connect(port) for _ in range(2)]
        with connect(port) as extra:
            status, body = answer(read_all(extra))
            assert status == 503 and body["code"] == "busy"
        for c in held:
            c.close()


@pytest.mark.parametrize(
    "request_bytes",
    [
        b"BREW / HTTP/1.1\r\nHost: x\r\n\r\n",  # an unknown method
        b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n",  # a negative length
        b"GET / HTTP/1.1\r\nHost: x\r\nX-A: a\x00b\r\n\r\n",  # a NUL in a header
        b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03",  # TLS spoken to plain HTTP
    ],
)
@pytest.mark.slow
def test_a_request_that_is_not_http_is_a_json_400(request_bytes: bytes) -> None:
    with serving(ConnectionPolicy()) as port, connect(port) as c:
        c.sendall(request_bytes)
        status, body = answer(read_all(c))
        assert status == 400 and body["code"] == "bad_http"
