"""The limits docs/web.md promises are the code's: each row of its table is compared with the
constant the server enforces, so changing either alone fails here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from raten.web import service, transfer
from raten.web.app import STORE_RETRY_AFTER
from raten.web.limits import Policy
from raten.web.models import LIST_NAME_MAX, HintsIn
from raten.web.protocol import ConnectionPolicy
from raten.web.routes.history import HISTORY_MAX
from raten.web.warmup import RETRY_AFTER
from raten.wordlists.files import MAX_FILE_BYTES
from raten.wordlists.presets import MAX_LIST_WORDS

WEB_MD = Path(__file__).parents[2] / "docs" / "web.md"


def documented() -> dict[str, str]:
    """The rows of the table under ``## Limits``: what -> limit."""
    text = WEB_MD.read_text(encoding="utf-8").split("\n## Limits\n", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) == 2 and cells[0] not in ("what", "---"):
            rows[cells[0]] = cells[1]
    return rows


def _n(x: float) -> str:
    """A number as the table writes it: 20, 0.5, 20 000."""
    return f"{x:,.10g}".replace(",", " ")


def _rate(kind: str) -> str:
    """A rate as the table writes it: "60 per 3 s"."""
    item = POLICY.rate(kind)
    return f"{_n(item.amount)} per {_n(item.get_expiry())} s"


POLICY = Policy()
CONNECTIONS = ConnectionPolicy()
LIMIT_MAX = HintsIn.model_json_schema()["properties"]["limit"]["maximum"]

EXPECTED = {
    "request body": f"{POLICY.max_body // 1024} KiB",
    "strings": f"at most {LIST_NAME_MAX} characters",
    "hints": f"`top` at most {service.MAX_TOP} and `limit` at most {_n(LIMIT_MAX)}",
    "hints cache": f"about {service.CACHE_BYTES // 2**20} MB",
    "look-ahead": f"up to {service.LOOKAHEAD_MAX_CANDIDATES} candidates",
    "fallback": f"up to {_n(service.FALLBACK_MAX_RANKED)} of them",
    "requests per address": _rate("address"),
    "requests per player cookie": _rate("player"),
    "uncached hints per address": _rate("work"),
    "new players per address": _rate("new_player"),
    "codes and imports per address": _rate("transfer"),
    "a file of games": f"{POLICY.max_import_body // 2**20} MiB and {_n(transfer.MAX_GAMES)} games",
    "a code": f"{transfer.CODE_LENGTH} characters, valid {transfer.CODE_HOURS} hours",
    "history": f"the newest {_n(HISTORY_MAX)} games",
    "`--list` files": f"at most {_n(MAX_FILE_BYTES / 2**20)} MiB; a list at most {_n(MAX_LIST_WORDS)} words",
    "a prior still loading": f"`Retry-After: {_n(RETRY_AFTER)}`",
    "the database failing": f"`Retry-After: {_n(STORE_RETRY_AFTER)}`",
    "request head": f"{CONNECTIONS.max_head // 1024} KiB, within {_n(CONNECTIONS.header_timeout)} s",
    "request body time": f"within {_n(CONNECTIONS.body_timeout)} s of its head",
    "connections": f"{_n(CONNECTIONS.per_address)} per address and {_n(CONNECTIONS.total)} in all",
}


@pytest.mark.parametrize("what", sorted(EXPECTED))
def test_each_documented_limit_is_the_codes(what: str) -> None:
    rows = documented()
    assert what in rows, f"docs/web.md's limits table has no row {what!r}"
    assert EXPECTED[what] in rows[what], f"docs/web.md says {rows[what]!r}; the code: {EXPECTED[what]!r}"


def test_the_error_paragraph_names_the_body_cap() -> None:
    assert f"413 for a body over {POLICY.max_body // 1024} KiB" in WEB_MD.read_text(encoding="utf-8")


def test_the_table_is_read() -> None:
    assert set(EXPECTED) <= set(documented())
    assert re.search(r"\d", "".join(documented().values()))


def test_raten_serve_defaults_are_the_protocols() -> None:
    from raten.cli.serve import serve

    defaults = {p.name: p.default for p in serve.params}
    assert (
        ConnectionPolicy(
            defaults["header_timeout"],
            defaults["body_timeout"],
            defaults["max_head"],
            defaults["connections_per_address"],
            defaults["limit_concurrency"],
        )
        == ConnectionPolicy()
    )
