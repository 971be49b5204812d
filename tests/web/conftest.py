"""The store's engines for the tests: a SQLite file, and a database in a throwaway PostgreSQL
server (tests/postgres_server.py) started once for the session; a throwaway Redis
(tests/redis_server.py) for what nodes share."""

from __future__ import annotations

import os

import pytest

import postgres_server
import redis_server

# `make test` installs Debian's postgresql and redis-server (`make postgres redis`) and sets this:
# there a missing server fails the tests that need it instead of skipping them.
NEED_DEBIAN = os.environ.get("RATEN_NEED_DEBIAN") == "1"


@pytest.fixture(scope="session")
def postgres():
    """The session's PostgreSQL server; skipped (failed under `make test`) when it cannot run."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        pytest.skip("psycopg is not installed (`make install` installs it)")
    try:
        with postgres_server.running() as server:
            yield server
    except (FileNotFoundError, RuntimeError) as e:
        if NEED_DEBIAN:
            pytest.fail(f"PostgreSQL for the store tests: {e}")
        pytest.skip(f"PostgreSQL for the store tests: {e}")


@pytest.fixture(params=["sqlite", "postgresql"])
def store_target(request, tmp_path):
    """Where a fresh store lives, on each engine: a SQLite file, or a new PostgreSQL database."""
    if request.param == "sqlite":
        return tmp_path / "raten.sqlite3"
    return request.getfixturevalue("postgres").create()


@pytest.fixture
def redis():
    """A Redis server of the test's own (stop and start it to make a fault); skipped (failed
    under `make test`) when Debian's redis-server is not installed."""
    try:
        with redis_server.running() as server:
            yield server
    except (FileNotFoundError, RuntimeError) as e:
        if NEED_DEBIAN:
            pytest.fail(f"Redis for the tests: {e}")
        pytest.skip(f"Redis for the tests: {e}")
