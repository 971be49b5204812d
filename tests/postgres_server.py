"""A throwaway PostgreSQL server for the tests, from Debian's ``postgresql`` package: the one
``deploy/localcluster.py`` starts for a cluster (a unix socket in a temporary folder, run as an
unprivileged user under root, readiness polled)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "deploy"))

from localcluster import Postgres as Server
from localcluster import running_postgres as running

__all__ = ["Server", "running"]
