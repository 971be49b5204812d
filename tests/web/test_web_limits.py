"""The abuse plumbing on its own: the rates (the ``limits`` package, in memory), the bounded
work queue, the body cap (the server protocol's limits: test_web_protocol.py)."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from raten.web.limits import RATES, Guard, Limits, Policy, Rates, Refused, WorkQueue


def run_async(coro) -> object:
    """Run ``coro`` on a fresh event loop in its own thread: the browser tests' Playwright
    keeps a loop running in the main thread for the whole session, where asyncio.run fails."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


def hits(rates: Rates, kind: str, key: str, n: int) -> list[int]:
    """``n`` hits: 0 for each one let through, else the Retry-After it was refused with."""

    async def run() -> list[int]:
        seen = []
        for _ in range(n):
            try:
                await rates.hit(kind, key)
                seen.append(0)
            except Refused as refused:
                assert refused.status_code == 429 and refused.code == "too_many_requests"
                seen.append(int(refused.headers["Retry-After"]))
        return seen

    return run_async(run())


def test_a_rate_allows_its_burst_then_refuses_with_the_time_to_wait():
    rates = Rates(Policy(address="3 per hour", player="1 per hour"))
    got = hits(rates, "address", "a", 4)
    assert got[:3] == [0, 0, 0]
    assert 1 <= got[3] <= 2 * 3600  # the sliding window's end: within two windows
    assert hits(rates, "address", "b", 1) == [0]  # every key counts apart
    assert hits(rates, "player", "a", 2)[0] == 0  # and every kind


def test_the_policy_names_every_rate_in_the_limits_notation():
    assert set(RATES) == {"address", "player", "work", "new_player", "transfer"}
    for kind in RATES:
        item = Policy().rate(kind)
        assert item.amount >= 1 and item.get_expiry() >= 1


def test_the_work_queue_refuses_beyond_its_depth_and_frees_its_places():
    queue = WorkQueue(workers=1, depth=1)
    release = threading.Event()

    async def scenario():
        first = asyncio.ensure_future(queue.run(release.wait))
        second = asyncio.ensure_future(queue.run(lambda: 2))
        await asyncio.sleep(0)
        assert queue.pending == 2
        with pytest.raises(Refused) as refused:
            await queue.run(lambda: 3)
        assert refused.value.status_code == 503
        assert refused.value.headers["Retry-After"] == "1"
        release.set()
        assert await first is True
        assert await second == 2
        assert queue.pending == 0
        assert await queue.run(lambda: 4) == 4

    run_async(scenario())
    queue.close()


def _call_guard(policy: Policy, messages: list[dict], headers=()) -> tuple[list[dict], int]:
    """Send ``messages`` through a Guard in front of an app that reads the whole body; what was
    sent back and how many body messages were read."""
    reads = 0
    sent: list[dict] = []

    async def app(_scope, receive, send):
        while True:
            message = await receive()
            if not message.get("more_body"):
                break
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    async def receive():
        nonlocal reads
        reads += 1
        return messages[min(reads - 1, len(messages) - 1)]

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "path": "/api/hints", "headers": list(headers), "client": ("127.0.0.1", 1)}

    async def run():
        try:
            await Guard(app, Limits(policy), "raten_player")(scope, receive, send)
        except Refused as refused:  # what the app's handler turns into JSON
            sent.append({"type": "refused", "status": refused.status_code})

    run_async(run())
    return sent, reads


def test_a_body_without_length_is_cut_off_while_it_is_read():
    chunk = {"type": "http.request", "body": b"x" * 1024, "more_body": True}  # an endless body
    sent, reads = _call_guard(Policy(max_body=10 * 1024), [chunk])
    assert sent == [{"type": "refused", "status": 413}]
    assert reads == 11


def test_a_declared_length_over_the_cap_is_refused_before_reading():
    sent, reads = _call_guard(
        Policy(max_body=100), [{"type": "http.request", "body": b""}], [(b"content-length", b"101")]
    )
    assert sent[0]["status"] == 413
    assert reads == 0


def test_a_body_under_the_cap_goes_through():
    sent, _ = _call_guard(Policy(max_body=100), [{"type": "http.request", "body": b"x" * 100}])
    assert sent[0]["status"] == 200


def test_refusals_are_held_back_at_most_the_tarpit():
    from raten.web.limits import too_large, too_many

    limits = Limits(Policy(tarpit=1.0))
    assert limits.hold(too_many(30)) == 1.0
    assert limits.hold(Refused(503, "busy", "busy", 1)) == 1.0
    assert limits.hold(too_large(10)) == 0.0  # a body too large is answered at once
    assert Limits(Policy(tarpit=0.0)).hold(too_many(5)) == 0.0


def test_a_stopped_work_queue_starts_no_pool_again():
    """A call that arrives while the server shuts down is refused, not served by a new pool whose
    processes would outlive the server."""
    made: list[ThreadPoolExecutor] = []

    def make() -> ThreadPoolExecutor:
        made.append(ThreadPoolExecutor(1))
        return made[-1]

    queue = WorkQueue(workers=1, depth=1, executor=make)
    assert run_async(queue.run(lambda: 1)) == 1
    queue.stop()
    with pytest.raises(Refused) as refused:
        run_async(queue.run(lambda: 2))
    assert refused.value.status_code == 503 and refused.value.code == "stopping"
    with pytest.raises(Refused):
        queue.prime(lambda: 3)
    assert len(made) == 1 and queue.pending == 0


def test_a_work_queue_started_again_takes_calls():
    queue = WorkQueue(workers=1, depth=1)
    queue.stop()
    queue.start()
    assert run_async(queue.run(lambda: 5)) == 5
    queue.stop()
