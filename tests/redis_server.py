"""A throwaway Redis server for the tests, from Debian's ``redis-server`` package: the one
``deploy/localcluster.py`` starts for a cluster (a free loopback port, nothing saved to disk)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "deploy"))

from localcluster import Redis as Server
from localcluster import free_port
from localcluster import running_redis as running

__all__ = ["Server", "free_port", "running"]
