"""The packaged ``.sql`` files: find one by layout and name, and expand it for several guesses.

Each file is a complete statement for one scored guess, runnable as it is in the
``sqlite3`` or ``duckdb`` shell. The lines between ``-- begin move`` and ``-- end move``
select the answers that fit guess 1 (parameters ``$guess_1``, ``$score_1``); for k guesses
they are repeated with ``$guess_2``, ``$score_2``, ... and joined by ``INTERSECT``. With
no guess at all the block becomes the file's ``-- no move:`` line.
"""

from __future__ import annotations

import re
from importlib import resources

from raten.errors import RatenError

ENGINES = ("sqlite", "duckdb")
SCHEMAS = ("classic", "compact")
QUERIES = ("openers", "remaining", "next")
#: What ``raten sql show`` can print: the queries and the tables they read.
SHOWABLE = (*QUERIES, "schema")

_MOVE_BLOCK = re.compile(r"^[ \t]*-- begin move[^\n]*\n(?P<body>.*?)^[ \t]*-- end move[^\n]*\n", re.M | re.S)
_NO_MOVE = re.compile(r"^[ \t]*-- no move: (?P<sql>.+?)\s*$", re.M)
_PARAM = re.compile(r"\$([a-z_][a-z0-9_]*)")


def check_layout(engine: str, schema: str) -> None:
    """Insist on a known engine and schema."""
    if engine not in ENGINES:
        raise RatenError(f"unknown engine {engine!r}: choose one of {', '.join(ENGINES)}")
    if schema not in SCHEMAS:
        raise RatenError(f"unknown schema {schema!r}: choose one of {', '.join(SCHEMAS)}")


def sql_file_name(name: str, engine: str, schema: str) -> str:
    """The packaged file holding query ``name`` (or ``schema``) for this layout."""
    check_layout(engine, schema)
    if name not in SHOWABLE:
        raise RatenError(f"unknown query {name!r}: choose one of {', '.join(SHOWABLE)}")
    return f"{schema}_{engine}_{name}.sql"


def sql_text(name: str, engine: str, schema: str) -> str:
    """The text of a packaged ``.sql`` file, as a person would read it."""
    return (resources.files("raten.sql") / sql_file_name(name, engine, schema)).read_text(encoding="utf-8")


def render(text: str, moves: int) -> str:
    """Expand the move block of ``text`` for ``moves`` scored guesses (joined by INTERSECT)."""
    match = _MOVE_BLOCK.search(text)
    if match is None:
        if moves:
            raise RatenError("this query takes no scored guesses")
        return text
    body = match.group("body")
    indent = body[: len(body) - len(body.lstrip(" \t"))]
    if moves == 0:
        alt = _NO_MOVE.search(text)
        if alt is None:
            raise RatenError("this query needs at least one scored guess")
        block = f"{indent}{alt.group('sql')}\n"
    else:
        copies = [re.sub(r"\$(guess|score)_1\b", rf"$\g<1>_{k}", body) for k in range(1, moves + 1)]
        block = f"{indent}INTERSECT\n".join(copies)
    return text[: match.start()] + block + text[match.end() :]


def parameters(sql: str) -> list[str]:
    """The ``$name`` parameters a statement uses, in order of first use."""
    return list(dict.fromkeys(_PARAM.findall(_strip_comments(sql))))


def _strip_comments(sql: str) -> str:
    return re.sub(r"--[^\n]*", "", sql)


def statements(script: str) -> list[str]:
    """Split a schema script into statements (they hold no ``;`` inside strings)."""
    body = _strip_comments(script)
    return [s.strip() for s in body.split(";") if s.strip()]
