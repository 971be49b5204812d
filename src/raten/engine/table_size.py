"""How big a feedback table may be built, and who is told while a big one is built.

A table has one byte per allowed guess and solution: 200,000 words each would be 40 GB. Before
a table is built (``raten.engine.matrix.load_matrix``) its size is checked against a limit,
``DEFAULT_MAX_TABLE_GB`` unless ``$RATEN_MAX_TABLE_GB`` says otherwise (``--max-table-gb`` on
the command line sets it); above it the build is refused with a ``RatenError`` (key
``table_too_large``) before anything is allocated. A table of ``ANNOUNCE_BYTES`` or more is
reported while built to the ``build_progress`` callback, if a face set one. Plain Python: the
command line imports it at start-up.
"""

from __future__ import annotations

import contextlib
import math
import os
from collections.abc import Callable, Iterator
from contextvars import ContextVar

from raten.errors import RatenError

#: The largest table built unless told otherwise, in GB (10**9 bytes): about 44,700 × 44,700 words.
DEFAULT_MAX_TABLE_GB = 2.0
#: The environment variable that sets the limit in GB (``--max-table-gb`` writes it).
MAX_TABLE_ENV = "RATEN_MAX_TABLE_GB"
#: A table at least this large (bytes) is announced and reported while it is built: en-nyt's
#: (220 MB, 10 to 30 s the first time) and larger; the other built-in lists' (56 MB at most) build in a second or two.
ANNOUNCE_BYTES = 100_000_000
GB = 1_000_000_000
#: The largest table built in memory when the cache cannot take it (the default limit's): a larger
#: one, allowed by a raised limit, could exhaust the machine's memory, so it is refused instead.
MEMORY_FALLBACK_BYTES = int(DEFAULT_MAX_TABLE_GB * GB)

#: Called as a big table is built: (list name, guesses, solutions, guess rows done); first with 0.
BuildProgress = Callable[[str, int, int, int], None]
build_progress: ContextVar[BuildProgress | None] = ContextVar("build_progress", default=None)


def max_table_bytes() -> int:
    """The limit in bytes: ``$RATEN_MAX_TABLE_GB`` GB, else ``DEFAULT_MAX_TABLE_GB``."""
    raw = os.environ.get(MAX_TABLE_ENV, "").strip()
    if not raw:
        return int(DEFAULT_MAX_TABLE_GB * GB)
    try:
        gb = float(raw)
    except ValueError:
        gb = math.nan
    if not gb > 0 or math.isinf(gb):
        raise RatenError(f"{MAX_TABLE_ENV} must be a number of GB above 0, not {raw[:20]!r}", "table_limit", value=raw)
    return int(gb * GB)


def check_table_size(name: str, guesses: int, solutions: int, cell_bytes: int = 1) -> int:
    """The table's size in bytes (guesses × solutions × ``cell_bytes``: two above five letters); a
    RatenError when it is above the limit."""
    size = guesses * solutions * cell_bytes
    limit = max_table_bytes()
    if size > limit:
        need = math.ceil(size / GB)
        raise RatenError(
            f"the feedback table of {name} ({guesses:,} guesses × {solutions:,} solutions) would take "
            f"{size / GB:.1f} GB, more than the limit of {limit / GB:g} GB: use smaller lists, or raise "
            f"the limit with --max-table-gb {need} (or {MAX_TABLE_ENV}={need})",
            "table_too_large",
            list=name,
            guesses=guesses,
            solutions=solutions,
            gb=round(size / GB, 1),
            limit_gb=limit / GB,
        )
    return size


@contextlib.contextmanager
def reporting(progress: BuildProgress) -> Iterator[None]:
    """Within: big table builds are reported to ``progress``."""
    token = build_progress.set(progress)
    try:
        yield
    finally:
        build_progress.reset(token)
